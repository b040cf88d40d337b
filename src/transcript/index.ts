/** Messages, canonical encoding, signed chained envelopes and the transcript file (protocol/SPEC.md). */
export * from './decode.js'
export * from './envelope.js'
export * from './errors.js'
export * from './file.js'
export * from './messages.js'
