/**
 * `spaceships`: everything that runs without a network (the rules, the referee, the verifier, the
 * session over a channel and the bots). Each part is also its own entry point
 * (`spaceships/rules`, `/referee`, `/verify`, `/session`, `/bot`); `spaceships/net` adds libp2p.
 * Each re-exported module below is itself a list of public names, never an internal module.
 */
export * from './rules/index.js'
export * from './referee/index.js'
export * from './verify/index.js'
export * from './session/index.js'
export * from './bot/index.js'
