/**
 * The game protocol as a state machine between a local player and a remote peer over an abstract
 * channel (protocol/SPEC.md §6). Both sides run this same code and send in parallel. Every
 * envelope is persisted before it is sent or acted on; every answer of the opponent is checked on
 * receipt; the end is a reveal, a replay by the verifier, and a signed verdict.
 */
import { type CommitmentContext, SEED_BYTES, commitSetup, deriveSalt, recordCommitment, recordSalt } from '../commit/commitments.js'
import { fromBase64url, toBase64url } from '../commit/bytes.js'
import type { KeyPair } from '../commit/keys.js'
import type { SecretSource } from '../commit/secrets.js'
import { type CheckedRecord, readRecord } from '../rules/legality.js'
import { burnoutsOf, resolveIncoming, withBurnouts } from '../rules/resolve.js'
import { formatRecord } from '../rules/record.js'
import { type Ruleset, parseRuleset } from '../rules/ruleset.js'
import { type Setup, formatSetup, readSetup } from '../rules/setup.js'
import { type PlayerState, initialPlayerState } from '../rules/state.js'
import { type SealedEnvelope, decodeEnvelope, gameIdOf, seal } from '../transcript/envelope.js'
import { type FrameContext, decodeFrame, encodeFrame } from '../transcript/frame.js'
import { describeProtocolError } from '../transcript/errors.js'
import type { TranscriptStore } from '../transcript/file.js'
import { decodeWith } from '../transcript/decode.js'
import { type Body, PROTOCOL_ID, type Role, type Terms, termsDecoder } from '../transcript/messages.js'
import { Chains } from '../verify/chain.js'
import { type Exposure, checkAnswers, checkFlashcube, newExposure } from '../verify/exposure.js'
import { type SideLog, appendBody, emptySideLog } from '../verify/log.js'
import { ROLE_INDEX, type ProtocolOffence, otherRole } from '../verify/offence.js'
import { beamExchanges, cellValues, visibleAspectsOf } from '../verify/replay.js'
import { type TranscriptVerdict, verifyEnvelopes } from '../verify/verify.js'
import type { Channel } from './channel.js'
import type { PlayerStrategy, TurnContext, TurnSummary } from './strategy.js'
import { type Salts, aspectsMessage, flashcubeMessage, resultsMessage } from './wire.js'

/**
 * Ways to break the protocol on purpose, so tests can show every cheat is caught. An honest node
 * never sets these.
 */
export interface Deviation {
  /** Commit to one setup but play and reveal another. */
  setup?(honest: Setup): { committed: Setup; played: Setup }
  /** Commit to and show a record other than the honest one (unchecked). */
  record?(ctx: TurnContext, honest: CheckedRecord): { text: string; record: CheckedRecord }
  /** Rewrite what is sent: return the envelopes to send instead ([] sends nothing). */
  outgoing?(body: Body, seal: (body: Body, game?: string) => SealedEnvelope): SealedEnvelope[]
}

export interface SessionOptions {
  readonly role: Role
  readonly keys: KeyPair
  readonly terms: Terms
  readonly secrets: SecretSource
  /**
   * Where envelopes are persisted. If it already holds envelopes of this game (a restarted
   * process), the session replays them instead of sending and receiving them again: with the same
   * secrets and the same player inputs (see `journal.ts`) it reaches exactly the state it had, then
   * continues on the channel (SPEC §2.2).
   */
  readonly store: TranscriptStore
  readonly channel: Channel
  readonly strategy: PlayerStrategy
  /** When set, only this opponent key is accepted in the hello. */
  readonly opponentKey?: Uint8Array
  readonly deviation?: Deviation
  /** Called with every envelope persisted, sent or received (for UIs and logs). */
  readonly onEnvelope?: (s: SealedEnvelope, direction: 'sent' | 'received') => void
}

export interface SessionResult {
  /** The verdict this side signed (or, for a refusal, what the verifier says of the transcript). */
  readonly verdict: TranscriptVerdict
  readonly transcript: readonly string[]
}

/** Ends the game early: the offence this side detected, or the opponent's silence or stop. */
class Stop extends Error {
  constructor(readonly reason: { kind: 'offence'; offence: ProtocolOffence } | { kind: 'abandoned'; detail: string } | { kind: 'opponent-stopped' } | { kind: 'refused'; detail: string }) {
    super(reason.kind)
  }
}

export async function runSession(o: SessionOptions): Promise<SessionResult> {
  const me = o.role
  const them = otherRole(me)
  // Terms in canonical form (SPEC §3.4): the hellos compare them byte for byte.
  const termsChecked = decodeWith(termsDecoder, o.terms, 'terms')
  if (!termsChecked.ok) throw new Error(`unusable terms: ${describeProtocolError(termsChecked.error)}`)
  const terms: Terms = termsChecked.value
  const rulesetParsed = parseRuleset(terms.ruleset)
  if (!rulesetParsed.ok) throw new Error(`unusable ruleset: ${rulesetParsed.error.message}`)
  const ruleset: Ruleset = rulesetParsed.value
  const logs: Record<Role, SideLog> = { A: emptySideLog('A'), B: emptySideLog('B') }
  const chains = new Chains()
  let seq = 0
  let prev = ''
  let lastReceived = ''
  let game = ''
  const seed = o.secrets.bytes(SEED_BYTES)
  let ctx: CommitmentContext | undefined

  // Resumption (SPEC §2.2): what this side already persisted is replayed, not sent or read again.
  const stored = o.store.lines().map((line, i) => {
    const d = decodeEnvelope(line)
    if (!d.ok) throw new Error(`the stored transcript is unreadable at envelope ${i + 1}: ${describeProtocolError(d.error)}`)
    return d.value
  })
  const ownStored = stored.filter((s) => s.envelope.from === me)
  const theirStored = stored.filter((s) => s.envelope.from === them)

  // Compact frames (SPEC §2.1) leave out what the other side already holds of both chains.
  const frames: FrameContext = {
    get game() {
      return game
    },
    hashAt: (role, at) => chains.envelopes[role][at]?.hash,
    positionOf: (hash) => chains.positionOf(hash),
  }
  const persist = (s: SealedEnvelope, direction: 'sent' | 'received'): void => {
    o.store.append(s.line)
    o.onEnvelope?.(s, direction)
  }
  const sealBody = (body: Body, gameOverride?: string): SealedEnvelope => seal(o.keys, { game: gameOverride ?? game, from: me, seq, prev, ack: lastReceived, body })
  const send = async (body: Body): Promise<void> => {
    const honest = sealBody(body)
    const replayed = ownStored[seq]
    if (replayed !== undefined) {
      // Never sign two different envelopes at one position: that would be equivocation (SPEC §5.3).
      if (replayed.line !== honest.line) throw new Error(`resuming diverged from the stored transcript at own envelope ${seq}: the secrets or the player's inputs differ from the first run`)
      chains.verified.add(honest.hash)
      chains.accept(honest, false)
      appendBody(logs[me], body, seq)
      seq++
      prev = honest.hash
      o.onEnvelope?.(honest, 'sent')
      return
    }
    const out = o.deviation?.outgoing?.(body, sealBody) ?? [honest]
    // Own chain: what was actually sent (its first envelope), so `prev` links stay true to it.
    const own = out[0] ?? honest
    chains.verified.add(own.hash)
    if (chains.accept(own, false).kind === 'offence') {
      chains.verified.add(honest.hash)
      chains.accept(honest, false)
    }
    appendBody(logs[me], body, seq)
    seq++
    prev = own.hash
    for (const s of out) persist(s, 'sent')
    for (const s of out) await o.channel.send(encodeFrame(s, frames))
  }
  /** After a new connection: everything of mine after the last envelope the peer acknowledged. */
  const retransmit = async (): Promise<void> => {
    const lastAck = chains.envelopes[them].at(-1)?.envelope.ack ?? ''
    const mine = chains.envelopes[me]
    const from = lastAck === '' ? 0 : mine.findIndex((e) => e.hash === lastAck) + 1
    for (const s of mine.slice(from)) await o.channel.send(encodeFrame(s, frames))
  }
  const offenceOf = (offender: Role, cls: ProtocolOffence['class'], rule: string, turn: number, detail: string): Stop => new Stop({ kind: 'offence', offence: { offender, class: cls, rule, turn, detail } })

  /** The opponent's next envelope, checked, persisted and logged; stops on anything wrong. */
  const receive = async (timeoutMs: number, what: string): Promise<Body> => {
    for (;;) {
      const replayed = theirStored.shift()
      const got = replayed?.line ?? (await o.channel.receive(timeoutMs))
      const turn = logs[them].commits.length
      if (got === 'timeout') throw new Stop({ kind: 'abandoned', detail: `no ${what} within ${timeoutMs} ms` })
      if (got === 'closed') throw new Stop({ kind: 'abandoned', detail: `the connection closed while waiting for ${what}` })
      if (got === 'reconnected') {
        await retransmit()
        continue
      }
      if (typeof got === 'object' && !(got instanceof Uint8Array)) throw offenceOf(them, 'protocol-violation', 'SPEC §2.1', turn, got.malformed)
      const framed = typeof got === 'string' ? { ok: true as const, line: got } : decodeFrame(got, them, frames)
      if (!framed.ok) throw offenceOf(them, 'protocol-violation', `SPEC ${framed.error.rule}`, turn, `unreadable frame: ${describeProtocolError(framed.error)}`)
      const d = decodeEnvelope(framed.line)
      if (!d.ok) throw offenceOf(them, 'protocol-violation', `SPEC ${d.error.rule}`, turn, `undecodable message: ${describeProtocolError(d.error)}`)
      const s = d.value
      if (s.envelope.from !== them) throw offenceOf(them, 'protocol-violation', 'SPEC §5', turn, `an envelope claiming to be from ${s.envelope.from}`)
      if (s.envelope.seq === 1 && chains.gameId === undefined && game !== '') chains.gameId = game
      const r = chains.accept(s)
      if (r.kind === 'duplicate') continue
      if (r.kind === 'offence') {
        // Signed evidence goes into the transcript, so a third party reaches the same verdict.
        if (r.offence.class !== 'invalid-signature') for (const e of r.evidence) if (e !== chains.envelopes[them][e.envelope.seq]) persist(e, 'received')
        throw new Stop({ kind: 'offence', offence: r.offence })
      }
      if (replayed === undefined) persist(s, 'received')
      else o.onEnvelope?.(s, 'received')
      lastReceived = s.hash
      const problem = appendBody(logs[them], s.envelope.body, s.envelope.seq)
      if (problem !== undefined) throw offenceOf(them, 'protocol-violation', 'SPEC §6.3', turn, problem)
      const body = s.envelope.body
      if (body.t === 'reveal' || body.t === 'verdict' || body.t === 'refuse') {
        if (body.t === 'refuse') throw new Stop({ kind: 'refused', detail: `${body.reason}: ${body.detail}` })
        throw new Stop({ kind: 'opponent-stopped' })
      }
      return body
    }
  }
  const expect = async <T extends Body['t']>(t: T, timeoutMs: number, turn?: number): Promise<Extract<Body, { t: T }>> => {
    const body = await receive(timeoutMs, turn === undefined ? t : `${t} of turn ${turn}`)
    if (body.t !== t) throw offenceOf(them, 'protocol-violation', 'SPEC §6.3', turn ?? 0, `${body.t} sent where ${t} was due`)
    return body as Extract<Body, { t: T }>
  }

  let played: Setup | undefined
  let state: PlayerState | undefined
  const records: string[] = []
  let ended = false
  const history: TurnSummary[] = []

  const play = async (): Promise<void> => {
    // Hello (SPEC §6.1).
    const nonce = toBase64url(o.secrets.bytes(32))
    await send({ t: 'hello', protocol: PROTOCOL_ID, role: me, key: toBase64url(o.keys.publicKey), nonce, terms })
    const hello = await expect('hello', terms.replyMs)
    const refuse = async (reason: 'terms' | 'roles' | 'key', detail: string): Promise<never> => {
      await send({ t: 'refuse', reason, detail })
      throw new Stop({ kind: 'refused', detail: `${reason}: ${detail}` })
    }
    if (hello.role !== them) await refuse('roles', `both sides claim role ${me}`)
    if (JSON.stringify(hello.terms) !== JSON.stringify(terms)) await refuse('terms', `terms differ: mine ${JSON.stringify(terms)}`)
    if (o.opponentKey !== undefined && hello.key !== toBase64url(o.opponentKey)) await refuse('key', 'not the expected opponent')
    const helloOf = (r: Role): SealedEnvelope => chains.envelopes[r][0] as SealedEnvelope
    game = gameIdOf(helloOf('A'), helloOf('B'))
    chains.gameId = game
    ctx = { gameId: fromBase64url(game) ?? new Uint8Array(), player: ROLE_INDEX[me] }
    const theirCtx: CommitmentContext = { gameId: ctx.gameId, player: ROLE_INDEX[them] }

    // Setup commitments (SPEC §7.1).
    const honestSetup = await o.strategy.setup(ruleset)
    const valid = readSetup(formatSetup(honestSetup), ruleset, 0, 'strict')
    if (!valid.ok && o.deviation?.setup === undefined) throw new Error(`the local player chose an illegal setup: ${JSON.stringify(valid.error)}`)
    const chosen = o.deviation?.setup?.(honestSetup) ?? { committed: honestSetup, played: honestSetup }
    played = chosen.played
    state = initialPlayerState(played)
    await send({ t: 'setup', cells: toBase64url(commitSetup(ctx, cellValues(chosen.committed), seed)) })
    const theirSetup = await expect('setup', terms.setupMs)
    const exposure: Exposure = newExposure(them, ruleset, theirCtx, fromBase64url(theirSetup.cells) ?? new Uint8Array())
    const mine = ctx

    for (let turn = 1; !ended; turn++) {
      const start: PlayerState = state
      const tctx: TurnContext = { role: me, ruleset, turn, state: start, history }
      const text = await o.strategy.record(tctx)
      const checked = readRecord(ruleset, start, turn, text, 'lenient')
      if (!checked.ok && o.deviation?.record === undefined) throw new Error(`the local player chose an illegal record: ${JSON.stringify(checked.error)}`)
      const honest = checked.ok ? checked.value : (undefined as unknown as CheckedRecord)
      const chosenRecord = o.deviation?.record?.(tctx, honest) ?? { text: formatRecord(honest.actions), record: honest }
      const record = chosenRecord.record
      records.push(chosenRecord.text)
      await send({ t: 'commit', turn, record: toBase64url(recordCommitment(mine, turn, chosenRecord.text, recordSalt(seed, mine, turn))) })
      await expect('commit', terms.turnMs, turn)
      const myAspects = aspectsMessage(ruleset, turn, record)
      await send(myAspects)
      const theirAspects = await expect('aspects', terms.replyMs, turn)
      // My side of the turn (resolveIncoming), answered with openings (SPEC §7.3).
      const half = resolveIncoming(ruleset, start, record, visibleAspectsOf(theirAspects))
      const salts: Salts = { occupancy: (c) => toBase64url(deriveSalt(seed, mine, 'occupancy', c)), detail: (c) => toBase64url(deriveSalt(seed, mine, 'detail', c)) }
      const myResults = resultsMessage(turn, theirAspects, half, salts)
      await send(myResults)
      const theirResults = await expect('results', terms.replyMs, turn)
      const bad = checkAnswers(exposure, turn, theirAspects, myAspects, theirResults)
      if (bad !== undefined) throw new Stop({ kind: 'offence', offence: bad })
      state = withBurnouts(half.state, burnoutsOf(ruleset, record.beams.map((b) => b.ship), beamExchanges(theirResults, myAspects)))
      const myFlash = flashcubeMessage(turn, state, theirResults.destroyed, salts)
      await send(myFlash)
      const theirFlash = await expect('flashcube', terms.replyMs, turn)
      const badFlash = checkFlashcube(exposure, turn, myResults.destroyed, theirFlash)
      if (badFlash !== undefined) throw new Stop({ kind: 'offence', offence: badFlash })
      history.push({ turn, myAspects, theirResults, theirAspects, myReports: myResults.destroyed, theirFlashcube: theirFlash })
      ended = myAspects.idle || theirAspects.idle || myResults.fleetDestroyed || theirResults.fleetDestroyed || turn >= terms.maxTurns
      if (ended) await o.strategy.finished?.({ role: me, ruleset, turn, state, history })
    }
  }

  const reveal = async (): Promise<void> => {
    if (logs[me].reveal !== undefined || played === undefined || logs[me].setup === undefined) return
    await send({ t: 'reveal', seed: toBase64url(seed), setup: formatSetup(played), records: records.slice(0, logs[me].commits.length) })
  }
  const transcriptVerdict = (): TranscriptVerdict => verifyEnvelopes([...chains.envelopes.A, ...chains.envelopes.B], chains.verified)
  /** Reads what the opponent still sends (its reveal and verdict) until it stops or the deadline passes. */
  const drain = async (until: (log: SideLog) => boolean): Promise<void> => {
    while (!until(logs[them])) {
      try {
        await receive(terms.replyMs, 'the end of the game')
      } catch (e) {
        if (!(e instanceof Stop) || e.reason.kind === 'abandoned' || e.reason.kind === 'offence') return
      }
    }
  }

  let verdict: TranscriptVerdict
  try {
    await play()
    await reveal()
    await drain((l) => l.reveal !== undefined)
    verdict = transcriptVerdict()
    await sendVerdict(verdict)
    await drain((l) => l.verdict !== undefined)
  } catch (e) {
    if (!(e instanceof Stop)) throw e
    const reason = e.reason
    if (reason.kind === 'refused') {
      o.channel.close()
      return { verdict: transcriptVerdict(), transcript: o.store.lines() }
    }
    await reveal()
    if (reason.kind === 'opponent-stopped') await drain((l) => l.verdict !== undefined || l.reveal !== undefined)
    verdict = transcriptVerdict()
    if (reason.kind === 'offence' && verdict.status !== 'offence') verdict = { status: 'offence', gameId: game, offence: reason.offence }
    if (reason.kind === 'abandoned' && verdict.status === 'incomplete') verdict = { ...verdict, stoppedBy: them, detail: `${them} abandoned the game: ${reason.detail}` }
    await sendVerdict(verdict)
    await drain((l) => l.verdict !== undefined)
  }
  o.channel.close()
  return { verdict, transcript: o.store.lines() }

  async function sendVerdict(v: TranscriptVerdict): Promise<void> {
    if (logs[me].verdict !== undefined || logs[me].reveal === undefined) return
    if (v.status === 'complete') await send({ t: 'verdict', outcome: 'complete', reason: v.reason, turn: v.turn, scores: v.scores, winner: v.winner })
    else if (v.status === 'offence') await send({ t: 'verdict', outcome: 'offence', offender: v.offence.offender, class: v.offence.class, rule: v.offence.rule.slice(0, 80), turn: v.offence.turn, detail: v.offence.detail.slice(0, 200) })
    else await send({ t: 'verdict', outcome: 'abandoned', by: v.status === 'incomplete' && v.stoppedBy !== undefined && v.stoppedBy !== 'both' ? v.stoppedBy : them, detail: (v.status === 'incomplete' ? v.detail : 'unreadable').slice(0, 200) })
  }
}
