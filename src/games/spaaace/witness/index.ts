/**
 * Witnessed Spaaace! (protocol/SPAAACE-WITNESSED.md), the notary side: identifiers and constants
 * (§2), the genesis receipt (§3), submissions, deposits and their opening (§5.1-§5.2), complaints
 * (§5.3), relays (§5.4), reading a log (§6.3) and the notary's registrar (§9.3). The notary
 * service and its client are the core's (core/notary-service, core/notary-net), run under
 * SPAAACE_NOTARY_PROTOCOL with `spaaaceRegistrar`.
 */
export {
  SPAAACE_NOTARY_PROTOCOL_ID,
  PAD_W,
  MAX_ENVELOPE_W,
  WRAP_BYTES,
  SEQ_PER_TICK_W,
  COMPLAINTS_PER_PAIR,
  RETENTION_MS,
  MAX_HORIZON_MS,
  ACCEPT_BYTES,
  GENESIS_FIXED_BYTES,
  depositBytesOf,
  seqBoundOf,
  genesisBytesOf,
  readGenesisBody,
  SPAAACE_LAYOUT,
  SPAAACE_NOTARY_DOMAIN,
  SPAAACE_NOTARY_PROTOCOL,
} from './domain.js'
export { cutTime, complaintWindowEnd, tickOf, horizonOf, registerByOf } from './times.js'
export { encodeGenesisBody, decodeGenesisBody, givesGame, type GenesisBody, type GivenGame } from './genesis-receipt.js'
export {
  freshDepositRandomnessW,
  submissionW,
  envelopeMatchesHeader,
  openDepositW,
  stepOne,
  stepFive,
  type DepositRandomnessW,
  type SubmissionW,
} from './submission.js'
export { buildComplaint, judgeComplaintW, complaintSignedW, complaintJudgingW } from './complaint.js'
export { buildRelay, openRelayW } from './relay.js'
export { readWitnessLog, type WitnessReceipt, type WitnessLog, type ReadWitnessLogOptions } from './log.js'
export { sealSlackMs, sealWhen, flagsAllowed, paddingFloorW, registrationOf, spaaaceRegistrar } from './registrar.js'
