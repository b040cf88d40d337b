/** The game protocol between a local player and a remote peer (protocol/SPEC.md §6). */
export * from './channel.js'
export * from './session.js'
export * from './strategy.js'
