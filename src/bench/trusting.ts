/**
 * The trusting baseline for the benchmark: the same game over the same channel with the same
 * schedule of visible messages as protocol version 2 (SPEC §6.3: strict alternation, S's aspects
 * first, then F's aspects with its answers, then S's answers with any flashcube data, then F's
 * flashcube data), but nothing a referee-less game needs: no hellos, setup or record commitments
 * (so no commit-only envelope), no openings, no signatures or chains, no reveal and no
 * verification. Each side simply believes the other's answers. Never for play: it prices the protocol.
 */
import { readRecord } from '../rules/legality.js'
import { burnoutsOf, resolveIncoming, withBurnouts } from '../rules/resolve.js'
import type { Ruleset } from '../rules/ruleset.js'
import { type PlayerState, initialPlayerState } from '../rules/state.js'
import type { Channel } from '../session/channel.js'
import { type PlayerStrategy, type TurnSummary, isResignation } from '../session/strategy.js'
import { NO_SALTS, aspectsMessage, flashcubeMessage, noFlashcube, resultsMessage } from '../session/wire.js'
import { type Aspects, type Flashcube, type Results, type Role, otherRole } from '../transcript/messages.js'
import { beamExchanges, visibleAspectsOf } from '../verify/replay.js'

const encoder = new TextEncoder()
const decoder = new TextDecoder()

export interface TrustingResult {
  readonly turns: number
  readonly bytesSent: number
}

type Message = { aspects?: Aspects; results?: Results; flashcube?: Flashcube }

const json = (m: Message): string => JSON.stringify(m, (_k, v: unknown) => (v instanceof Uint8Array ? undefined : v))

export async function runTrusting(role: Role, ruleset: Ruleset, channel: Channel, strategy: PlayerStrategy, maxTurns: number): Promise<TrustingResult> {
  let bytesSent = 0
  const never = new AbortController().signal
  const send = async (m: Message): Promise<void> => {
    const bytes = encoder.encode(json(m))
    bytesSent += bytes.length
    await channel.send(bytes)
  }
  const receive = async (): Promise<Message> => {
    for (;;) {
      const got = await channel.receive(never)
      if (got.kind === 'reconnected') continue
      if (got.kind !== 'frame') throw new Error(`trusting baseline: ${got.kind}`)
      return JSON.parse(decoder.decode(got.bytes)) as Message
    }
  }
  let state: PlayerState = initialPlayerState(await strategy.setup(ruleset))
  const history: TurnSummary[] = []
  let first: Role = 'A'
  let turn = 1
  for (; ; turn++) {
    const start = state
    const choice = await strategy.record({ role, ruleset, turn, state: start, history })
    const r = readRecord(ruleset, start, turn, isResignation(choice) ? '' : choice, 'lenient')
    if (!r.ok) throw new Error('trusting baseline: an illegal record')
    const record = r.value
    const myAspects = aspectsMessage(ruleset, turn, record)
    const amFirst = role === first
    let theirAspects: Aspects
    let myResults: Results
    let theirResults: Results
    let myFlash: Flashcube = noFlashcube(turn)
    let theirFlash: Flashcube = noFlashcube(turn)
    const answer = (aspects: Aspects): Results => resultsMessage(turn, aspects, resolveIncoming(ruleset, start, record, visibleAspectsOf(aspects)), NO_SALTS)
    const after = (theirs: Results, mine: Aspects, aspects: Aspects): PlayerState =>
      withBurnouts(resolveIncoming(ruleset, start, record, visibleAspectsOf(aspects)).state, burnoutsOf(ruleset, record.beams.map((b) => b.ship), beamExchanges(theirs, mine)))
    if (!amFirst) {
      await send({ aspects: myAspects })
      const m3 = await receive()
      theirAspects = m3.aspects as Aspects
      theirResults = m3.results as Results
      myResults = answer(theirAspects)
      state = after(theirResults, myAspects, theirAspects)
      if (theirResults.destroyed.length > 0) myFlash = flashcubeMessage(turn, state, theirResults.destroyed, NO_SALTS)
      await send({ results: myResults, ...(theirResults.destroyed.length > 0 ? { flashcube: myFlash } : {}) })
      if (myResults.destroyed.length > 0) theirFlash = (await receive()).flashcube as Flashcube
    } else {
      const m2 = await receive()
      theirAspects = m2.aspects as Aspects
      myResults = answer(theirAspects)
      await send({ aspects: myAspects, results: myResults })
      const m4 = await receive()
      theirResults = m4.results as Results
      if (myResults.destroyed.length > 0) theirFlash = m4.flashcube as Flashcube
      state = after(theirResults, myAspects, theirAspects)
      if (theirResults.destroyed.length > 0) {
        myFlash = flashcubeMessage(turn, state, theirResults.destroyed, NO_SALTS)
        await send({ flashcube: myFlash })
      }
    }
    history.push({ turn, myAspects, theirAspects, theirResults, myReports: myResults.destroyed, theirFlashcube: theirFlash })
    // SPEC §6.3: the first mover changes when it sent the turn's last message (flashcube data).
    const sResults = amFirst ? theirResults : myResults
    if (sResults.destroyed.length > 0) first = otherRole(first)
    if (myAspects.idle || theirAspects.idle || myResults.fleetDestroyed || theirResults.fleetDestroyed || turn >= maxTurns) break
  }
  return { turns: turn, bytesSent }
}
