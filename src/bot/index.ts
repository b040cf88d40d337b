/** `spaceships/bot`: the built-in players by level (easy, medium, hard), each a `PlayerStrategy`. */
export { type BotName, BOT_NAMES, isBotName, makeBot } from './levels.js'
export { easyStrategy } from './easy.js'
export { hardStrategy } from './hard.js'
