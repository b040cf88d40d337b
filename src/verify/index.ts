/** The verifier and the checks it shares with a live session (protocol/SPEC.md §11). Never imports the network. */
export * from './chain.js'
export * from './exposure.js'
export * from './log.js'
export * from './offence.js'
export * from './replay.js'
export * from './verify.js'
