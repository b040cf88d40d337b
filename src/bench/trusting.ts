/**
 * The trusting baselines for the benchmark: the same game over the same channel with the same
 * visible messages as the protocol (aspects, results, flashcube data), but nothing a
 * referee-less game needs: no hellos, setup or record commitments, no openings, no signatures or
 * chains, no reveal and no verification. Each side simply believes the other's answers. Never for
 * play: they price the protocol.
 *
 * Two schedules:
 * - `protocol`: SPEC §6.3's envelopes, in its order, minus the crypto. Strict alternation; a turn is
 *   S's aspects, F's aspects with its answers, S's answers (with any flashcube data), then F's
 *   flashcube data if due; the sender of the turn's last envelope is the next turn's F (as the
 *   commitment ahead makes it), and turn 1 opens with A's empty envelope where its commitment
 *   stands. This is the issue's baseline: it isolates what the crypto costs.
 * - `pipelined`: what trusting play could do with no commitment at all. The side that sent the
 *   turn's last answers also sends its next aspects at once, before the other has chosen, so a turn
 *   is two one-way delays instead of three. Only a trusted client may do this (the other side's
 *   aspects arrive before its player chooses); no commit-then-reveal schedule can match it, since
 *   each side's aspects wait for a commitment made after the previous turn's last answer (docs/PERFORMANCE.md,
 *   "Over a real link").
 */
import { readRecord } from '../games/spaceships/rules/legality.js'
import { burnoutsOf, resolveIncoming, withBurnouts } from '../games/spaceships/rules/resolve.js'
import type { Ruleset } from '../games/spaceships/rules/ruleset.js'
import { type PlayerState, initialPlayerState } from '../games/spaceships/rules/state.js'
import type { Channel } from '../core/session/channel.js'
import { type PlayerStrategy, type TurnSummary, recordText } from '../games/spaceships/session/strategy.js'
import {
  NO_SALTS,
  aspectsMessage,
  flashcubeMessage,
  noFlashcube,
  resultsMessage,
} from '../games/spaceships/session/wire.js'
import {
  type Aspects,
  type Flashcube,
  type Results,
  type Role,
  otherRole,
} from '../games/spaceships/protocol/messages.js'
import { beamExchanges, visibleAspectsOf } from '../games/spaceships/verify/replay.js'

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** SPEC §6.3's schedule minus the crypto, or the pipelined one only trust allows (see above). */
export type TrustingSchedule = 'protocol' | 'pipelined'

export interface TrustingResult {
  readonly turns: number
  readonly bytesSent: number
}

type Message = { aspects?: Aspects; results?: Results; flashcube?: Flashcube }

const json = (m: Message): string => JSON.stringify(m, (_k, v: unknown) => (v instanceof Uint8Array ? undefined : v))

export async function runTrusting(
  role: Role,
  ruleset: Ruleset,
  channel: Channel,
  strategy: PlayerStrategy,
  maxTurns: number,
  schedule: TrustingSchedule = 'protocol',
): Promise<TrustingResult> {
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
  // SPEC §6.3 step 1 of turn 1: A's commitment, here an empty envelope S waits for.
  if (schedule === 'protocol') {
    if (role === 'A') await send({})
    else await receive()
  }
  let turn = 1
  for (; ; turn++) {
    const start = state
    const choice = await strategy.record({ role, ruleset, turn, state: start, history })
    const r = readRecord(ruleset, start, turn, recordText(choice) ?? '', 'lenient')
    if (!r.ok) throw new Error('trusting baseline: an illegal record')
    const record = r.value
    const myAspects = aspectsMessage(ruleset, turn, record)
    const amFirst = role === first
    let theirAspects: Aspects
    let myResults: Results
    let theirResults: Results
    let myFlash: Flashcube = noFlashcube(turn)
    let theirFlash: Flashcube = noFlashcube(turn)
    const answer = (aspects: Aspects): Results =>
      resultsMessage(turn, aspects, resolveIncoming(ruleset, start, record, visibleAspectsOf(aspects)), NO_SALTS)
    const after = (theirs: Results, mine: Aspects, aspects: Aspects): PlayerState =>
      withBurnouts(
        resolveIncoming(ruleset, start, record, visibleAspectsOf(aspects)).state,
        burnoutsOf(
          ruleset,
          record.beams.map((b) => b.ship),
          beamExchanges(theirs, mine),
        ),
      )
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
    history.push({
      turn,
      myAspects,
      theirAspects,
      theirResults,
      myReports: myResults.destroyed,
      theirFlashcube: theirFlash,
    })
    // SPEC §6.3: with a commitment ahead its sender, the sender of the turn's last envelope, is the
    // next F: S unless F sent flashcube data (step 5). Pipelined, S goes on sending first unless F
    // sent the last envelope, so one side sends twice in a row.
    const sResults = amFirst ? theirResults : myResults
    const fSentLast = sResults.destroyed.length > 0
    if (schedule === 'protocol' ? !fSentLast : fSentLast) first = otherRole(first)
    if (
      myAspects.idle ||
      theirAspects.idle ||
      myResults.fleetDestroyed ||
      theirResults.fleetDestroyed ||
      turn >= maxTurns
    )
      break
  }
  return { turns: turn, bytesSent }
}
