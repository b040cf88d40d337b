/**
 * One game between two peer nodes (protocol/SPEC.md §2): the host listens and prints an invite;
 * the joiner dials it and proves it holds the invite; from then on only that peer is admitted.
 * The session runs unchanged over a `StreamChannel` that survives dropped connections (the joiner
 * redials, the host accepts the new stream) and restarted processes (the session replays its
 * stored transcript and journal).
 *
 * The parts: options.ts (options, events, errors), host.ts and join.ts (each side), admission.ts
 * (the preamble and the refusal, SPEC §2.3), dial-pacer.ts (a joiner's redials), rematch.ts (the
 * games on one channel, SPEC §2.4) and plumbing.ts (what both sides share around the session).
 * This module names what other modules import of them, as it did before it was split.
 */
export {
  ADMISSION_GRACE_MS,
  JOIN_PREAMBLE,
  PREAMBLE_TIMEOUT_MS,
  REFUSAL_KIND,
  REFUSAL_TEXT,
  encodeRefusal,
  refusalOf,
} from './admission.js'
export { DialPacer, REFUSALS_BEFORE_GIVING_UP, redialDelay } from './dial-pacer.js'
export { RELAY_RESERVATION_TIMEOUT_MS, hostGame } from './host.js'
export { joinGame } from './join.js'
export {
  type HostOptions,
  type JoinOptions,
  type NetEvent,
  type NetGameCommon,
  type Rematch,
  type RematchGame,
  NobodyJoinedError,
  NotServedError,
  RelayError,
} from './options.js'
export { rematchId } from './rematch.js'
