/** `spaceships/bot`: the built-in players by level (easy, medium, hard), each a `PlayerStrategy`. */
export { type BotName, BOT_NAMES, isBotName, makeBot } from './levels.js'
export { easyStrategy } from './easy.js'
export { hardStrategy } from './hard.js'
export { GameRandom, secretRandom } from './random.js'
/** A side's per-game secret from its revealed seed: what a per-game bot's randomness is drawn from. */
export { gameSecret } from '../session/strategy.js'
