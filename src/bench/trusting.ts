/**
 * The trusting baseline for the benchmark (issue 6): the same game over the same channel with the
 * same visible messages (aspects, results, flashcube data, in the same order and with the same
 * parallel sends), but nothing a referee-less game needs: no setup or record commitments, no
 * openings (salts), no signatures or chains, no reveal and no verification. Each side simply
 * believes the other's answers. Never for play: it exists to price the protocol.
 */
import { readRecord } from '../rules/legality.js'
import { burnoutsOf, resolveIncoming, withBurnouts } from '../rules/resolve.js'
import type { Ruleset } from '../rules/ruleset.js'
import { type PlayerState, initialPlayerState } from '../rules/state.js'
import type { Channel } from '../session/channel.js'
import type { PlayerStrategy, TurnSummary } from '../session/strategy.js'
import { NO_SALTS, aspectsMessage, flashcubeMessage, resultsMessage } from '../session/wire.js'
import type { Aspects, Flashcube, Results, Role } from '../transcript/messages.js'
import { beamExchanges, visibleAspectsOf } from '../verify/replay.js'

const encoder = new TextEncoder()
const decoder = new TextDecoder()

export interface TrustingResult {
  readonly turns: number
  readonly bytesSent: number
}

export async function runTrusting(role: Role, ruleset: Ruleset, channel: Channel, strategy: PlayerStrategy, maxTurns: number): Promise<TrustingResult> {
  let bytesSent = 0
  const send = async (body: unknown): Promise<void> => {
    const bytes = encoder.encode(JSON.stringify(body))
    bytesSent += bytes.length
    await channel.send(bytes)
  }
  const receive = async <T>(): Promise<T> => {
    for (;;) {
      const got = await channel.receive(60_000)
      if (got === 'reconnected') continue
      if (!(got instanceof Uint8Array)) throw new Error(`trusting baseline: ${typeof got === 'string' ? got : got.malformed}`)
      return JSON.parse(decoder.decode(got)) as T
    }
  }
  let state: PlayerState = initialPlayerState(await strategy.setup(ruleset))
  const history: TurnSummary[] = []
  let turn = 1
  for (; ; turn++) {
    const start = state
    const r = readRecord(ruleset, start, turn, await strategy.record({ role, ruleset, turn, state: start, history }), 'lenient')
    if (!r.ok) throw new Error('trusting baseline: an illegal record')
    const record = r.value
    const myAspects = aspectsMessage(ruleset, turn, record)
    await send(myAspects)
    const theirAspects = await receive<Aspects>()
    const half = resolveIncoming(ruleset, start, record, visibleAspectsOf(theirAspects))
    const myResults = resultsMessage(turn, theirAspects, half, NO_SALTS)
    await send(myResults)
    const theirResults = await receive<Results>()
    state = withBurnouts(half.state, burnoutsOf(ruleset, record.beams.map((b) => b.ship), beamExchanges(theirResults, myAspects)))
    const myFlash = flashcubeMessage(turn, state, theirResults.destroyed, NO_SALTS)
    await send(myFlash)
    const theirFlash = await receive<Flashcube>()
    history.push({ turn, myAspects, theirAspects, theirResults, myReports: myResults.destroyed, theirFlashcube: theirFlash })
    if (myAspects.idle || theirAspects.idle || myResults.fleetDestroyed || theirResults.fleetDestroyed || turn >= maxTurns) break
  }
  return { turns: turn, bytesSent }
}
