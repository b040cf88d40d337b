/**
 * `spaceships/verify`: the verifier (protocol/SPEC.md §12). From one or both players' transcript
 * files of a game, the verdict. Pure: the caller reads the files; hostile input gives a verdict,
 * never a throw.
 */
export { type Verdict, type VerdictStatus, verifyEnvelopes, verifyFiles, verifyTranscript } from './verify.js'
export type { ProtocolOffence } from './offence.js'
export type { TranscriptFileError } from '../protocol/file.js'
export type { EndReason, OffenceClass, Role } from '../protocol/messages.js'
export { type ProtocolError, describeProtocolError } from '../../../core/wire/errors.js'
