/**
 * `spaceships`: everything that runs without a network (the rules, the referee, the verifier, the
 * session over a channel and the bots). Each part is also its own entry point
 * (`spaceships/rules`, `/referee`, `/verify`, `/session`, `/bot`); `spaceships/net` adds libp2p.
 * Each re-exported module below is itself a list of public names, never an internal module.
 */
export * from './games/spaceships/rules/index.js'
export * from './games/spaceships/referee/index.js'
export * from './games/spaceships/verify/index.js'
export * from './games/spaceships/session/index.js'
export * from './games/spaceships/bot/index.js'
