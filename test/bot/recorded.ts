import { readRecord } from '../../src/games/spaceships/rules/legality.js'
import { type PlayerStrategy, recordText } from '../../src/games/spaceships/session/strategy.js'

/**
 * A strategy that notes its setup and every move it makes in `moves`, each record checked strictly
 * against the rules as it is made, as the opponent's verifier would (C-17); refusals go to `illegal`.
 */
export function recorded(inner: PlayerStrategy, moves: string[], illegal: string[]): PlayerStrategy {
  return {
    setup: async (r) => {
      const s = await inner.setup(r)
      moves.push(JSON.stringify(s))
      return s
    },
    record: async (ctx) => {
      const text = recordText(await inner.record(ctx))
      if (text === undefined) throw new Error(`turn ${ctx.turn}: a bot resigned`)
      const r = readRecord(ctx.ruleset, ctx.state, ctx.turn, text, 'strict')
      if (!r.ok) illegal.push(`turn ${ctx.turn}: ${text}: ${JSON.stringify(r.error)}`)
      moves.push(text)
      return text
    },
  }
}
