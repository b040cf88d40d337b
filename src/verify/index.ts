/** The verifier and the checks it shares with a live session (protocol/SPEC.md §12). Never imports the network or files. */
export * from './evidence.js'
export * from './game.js'
export * from './log.js'
export * from './offence.js'
export * from './replay.js'
export * from './schedule.js'
export * from './verify.js'
export * from './view.js'
