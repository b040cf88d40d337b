/**
 * What this side signs and sends (SPEC §6.1–§6.5, §7): hellos and refusals, each due phase
 * envelope from the player's choices, a commitment ahead, the reveal, the courtesy verdict part,
 * and stops. Every envelope is persisted and admitted to the state before it is sent.
 */
import { toBase64url } from '../../../core/commit/bytes.js'
import { SideSecrets } from '../protocol/commitments.js'
import { resolveIncoming } from '../rules/resolve.js'
import { type SealedEnvelope, gameIdOf, seal } from '../protocol/envelope.js'
import { encodeEnvelopeFrame } from '../protocol/frame.js'
import { type Hello, LIMITS, type Part, ROLE_INDEX, type StopReason, type VerdictPart } from '../protocol/messages.js'
import { GameState, isStopEnvelope } from '../verify/game.js'
import { cellValues, revealedSetup, visibleAspectsOf } from '../verify/replay.js'
import type { Due } from '../verify/schedule.js'
import { verifyEnvelopes } from '../verify/verify.js'
import { isDrawAcceptance, isResignation } from './strategy.js'
import { isPlayed } from './base.js'
import { aspectsMessage, flashcubeMessage, resultsMessage } from './wire.js'
import type { SealOverride } from './options.js'
import { sameTerms, asciiDetail, verdictPartOf } from './terms.js'
import { PlayerSide } from './player.js'

export abstract class Composer extends PlayerSide {
  protected hello(): Hello {
    return {
      t: 'hello',
      key: this.o.keys.publicKey,
      nonce: this.nonce,
      terms: this.me === 'A' ? this.terms : undefined,
    }
  }

  protected async sendHello(): Promise<void> {
    const ack = this.me === 'B' ? this.theirs[0]?.hash : undefined
    await this.sendEnvelope([this.hello()], ack)
  }

  /** The peer's hello: checked, answered (B) or refused, and the game begun. */
  protected async takeHello(s: SealedEnvelope): Promise<void> {
    const parts = s.envelope.parts
    const hello = parts[0]
    if (hello?.t !== 'hello' || s.envelope.seq !== 0) return this.refuse('version', 'the first envelope is not a hello')
    const expected = this.o.opponentKey
    if (expected !== undefined && toBase64url(expected) !== toBase64url(hello.key))
      return this.refuse('key', 'the hello is not signed by the peer this connection reached')
    if (this.me === 'B') {
      const terms = hello.terms
      if (s.envelope.version !== this.version)
        return this.refuse('version', `A's hello is of version ${s.envelope.version}; this side plays ${this.version}`)
      if (terms === undefined || !sameTerms(terms, this.o.terms, this.version))
        return this.refuse('terms', 'the hello states other terms than the invite')
      await this.sendHello()
    } else {
      const mine = this.mine[0]
      if (mine === undefined || s.envelope.ack === undefined || toBase64url(s.envelope.ack) !== mine.id)
        return this.refuse('version', "B's hello does not acknowledge A's")
      if (parts.some((p) => p.t === 'refuse')) {
        this.refused = true
        return
      }
    }
    this.begin()
  }

  protected async refuse(reason: 'version' | 'terms' | 'key', detail: string): Promise<void> {
    this.refused = true
    if (this.me === 'B' && this.mine.length === 0)
      await this.sendEnvelope([this.hello(), { t: 'refuse', reason, detail }], this.theirs[0]?.hash)
    else if (this.me === 'A' && this.mine.length === 1 && this.theirs.length === 1) {
      const a = this.mine[0]
      const b = this.theirs[0]
      if (a === undefined || b === undefined) return
      this.refusalGame = gameIdOf(a.hash, b.hash, this.version)
      await this.sendEnvelope([{ t: 'refuse', reason, detail }], b.hash)
    }
  }

  /** Both hellos held: the game id, the game state and this side's secrets. */
  protected begin(): void {
    const helloA = this.me === 'A' ? this.mine[0] : this.theirs[0]
    const helloB = this.me === 'B' ? this.mine[0] : this.theirs[0]
    if (helloA === undefined || helloB === undefined || this.state !== undefined) return
    const terms = helloA.envelope.parts[0]?.t === 'hello' ? helloA.envelope.parts[0].terms : undefined
    if (terms === undefined) throw new Error("A's hello holds no terms")
    this.terms = terms
    const game = gameIdOf(helloA.hash, helloB.hash, this.version)
    this.state = new GameState(terms, game, helloA, helloB)
    this.secrets = new SideSecrets(this.seed, game, ROLE_INDEX[this.me], this.version)
    this.startSetup()
  }

  protected due(): Due | undefined {
    if (this.state !== undefined) return this.state.due()
    // Before the game id: A has sent its hello and waits for B's; B waits for A's.
    return { sender: this.them, parts: ['hello'], turn: 0, deadline: 'reply', phase: 'hello' }
  }

  protected deadlineOf(due: Due): number {
    const ms =
      due.deadline === 'setup' ? this.terms.setupMs : due.deadline === 'turn' ? this.terms.turnMs : this.terms.replyMs
    return this.waitingSince + ms
  }

  /** The parts of this side's due envelope, or undefined while a decision is pending. */
  protected partsFor(due: Due): Part[] | 'resign' | undefined {
    const t = due.turn
    const out: Part[] = []
    for (const kind of due.parts) {
      switch (kind) {
        case 'setup': {
          if (this.setupChoice === undefined || this.secrets === undefined) return undefined
          out.push({ t: 'setup', cells: this.secrets.setupVector(cellValues(this.setupChoice.committed)) })
          break
        }
        case 'commit': {
          const r = this.records.get(t)
          if (r === undefined) {
            void this.startDecision(t)
            return undefined
          }
          if (isResignation(r)) return 'resign'
          // Version 4 (SPEC §7.12): the acceptance stands alone in place of the commitment.
          if (isDrawAcceptance(r)) return due.acceptAs?.length === 1 ? [{ t: 'accept' }] : undefined
          out.push({ t: 'commit', turn: t, record: this.secrets?.recordCommitment(t, r.text) ?? new Uint8Array(32) })
          break
        }
        case 'aspects': {
          const r = this.records.get(t)
          if (!isPlayed(r)) return undefined
          out.push(aspectsMessage(this.ruleset, t, r.record, this.salts(), this.version))
          break
        }
        case 'results': {
          const theirAspects = this.state?.logs[this.them].aspects[t - 1]
          const r = this.records.get(t)
          const start = this.stateAt(t)
          if (theirAspects === undefined || !isPlayed(r) || start === undefined) return undefined
          out.push(
            resultsMessage(
              t,
              theirAspects,
              resolveIncoming(this.ruleset, start, r.record, visibleAspectsOf(theirAspects)),
              this.salts(),
              this.version,
            ),
          )
          break
        }
        case 'flashcube': {
          const theirResults = this.state?.logs[this.them].results[t - 1]
          const after = this.afterTurn(t)
          if (theirResults === undefined || after === undefined) return undefined
          out.push(flashcubeMessage(t, after, theirResults.destroyed, this.salts()))
          break
        }
        case 'reveal':
          out.push(this.reveal())
          break
        case 'verdict':
          out.push(this.verdictPart(out))
          break
        case 'close':
          // Version 4 (SPEC §6.3): acknowledges the other side's reveal and states nothing.
          out.push({ t: 'close' })
          break
        case 'accept':
        case 'offer':
          return undefined
        case 'hello':
        case 'refuse':
        case 'stop':
          return undefined
      }
    }
    // Version 4 (SPEC §7.12): at steps 4 and 5 an acceptance takes the place of the commitment ahead.
    const next = due.commitTurn === undefined ? undefined : this.records.get(due.commitTurn)
    if (due.acceptAs !== undefined && due.acceptAs.length > 1 && isDrawAcceptance(next))
      return [...out, { t: 'accept' }]
    const ahead = this.commitAhead(due, out)
    const offer = this.drawOffer(due, [...out, ...ahead])
    return [...out, ...ahead, ...(offer === undefined ? [] : [offer])]
  }

  /**
   * Version 4 (SPEC §7.11): the offer of a draw the player made with its record of turn `from`, at
   * the end of this side's first phase envelope of that turn or later where one may stand.
   */
  protected drawOffer(due: Due, parts: readonly Part[]): Part | undefined {
    const from = this.drawOfferFrom
    if (from === undefined || due.offerable !== true || (due.commitTurn ?? due.turn) < from || this.state === undefined)
      return undefined
    const offer: Part = { t: 'offer', kind: 'draw' }
    if (this.state.schedule.offerProblem([...parts, offer]) !== undefined) return undefined
    this.drawOfferFrom = undefined
    return offer
  }

  /**
   * SPEC §6.3: the commitment to the next turn, sent with this turn's last envelope when the
   * schedule allows it there and the player has already chosen its record (a bot at once; a person
   * rarely): one sequential message fewer a turn. Never waits for the player beyond `aheadWait`.
   */
  protected commitAhead(due: Due, parts: readonly Part[]): Part[] {
    const t = due.commitTurn
    if (t === undefined || due.alternative?.at(-1) !== 'commit' || this.state === undefined) return []
    const r = this.records.get(t)
    if (!isPlayed(r)) return []
    const commit: Part = {
      t: 'commit',
      turn: t,
      record: this.secrets?.recordCommitment(t, r.text) ?? new Uint8Array(32),
    }
    return this.state.schedule.aheadProblem([...parts, commit]) === undefined ? [commit] : []
  }

  /** Whether this side could send its commitment ahead with `due`, if only its player had chosen. */
  protected mayCommitAhead(due: Due): boolean {
    const t = due.commitTurn
    if (t === undefined || due.alternative?.at(-1) !== 'commit' || this.records.has(t)) return false
    // Never waits for a decision about a turn that will not be played (SPEC §6.4).
    return !this.endedWith(t - 1) && this.stateAt(t) !== undefined
  }

  protected reveal(): Part {
    const setup = this.setupChoice?.played
    // Never a reveal from what is not known yet: it would contradict this side's own commitments.
    if (setup === undefined) throw new Error('this side would reveal before its setup is known')
    const records: string[] = []
    for (let t = 1; t <= (this.state?.logs[this.me].commits.length ?? 0); t++) {
      const r = this.records.get(t)
      // A deviating test node may have sent a commitment for a turn its player was never asked
      // about (a commitment ahead in the last turn): it reveals that turn empty, and is convicted.
      if (r === undefined && this.o.deviation !== undefined) {
        records.push('')
        continue
      }
      if (r === undefined) throw new Error(`this side would reveal before its record of turn ${t} is known`)
      records.push(isPlayed(r) ? r.text : '')
    }
    return { t: 'reveal', seed: this.seed, setup: revealedSetup(setup), records }
  }

  /**
   * SPEC §7.10: this side's reading of the result, from its transcript and the envelope about to be
   * sent, verdict part included: the schedule wants `reveal, verdict` together (§6.3), and read
   * without its verdict part that envelope is a protocol violation by this side, which it would
   * then state and sign about itself.
   */
  protected verdictPart(before: readonly Part[]): VerdictPart {
    const placeholder: VerdictPart = { t: 'verdict', outcome: 'incomplete', winner: 'none', scores: [0, 0], detail: '' }
    const provisional = before.length === 0 ? [] : [this.sealParts([...before, placeholder]).bytes]
    return verdictPartOf(verifyEnvelopes([...this.o.store.envelopes(), ...provisional]))
  }

  /** Seals `parts` as this side's next envelope. */
  protected sealParts(parts: readonly Part[], override: Partial<SealOverride> = {}): SealedEnvelope {
    const seq = override.seq ?? this.mine.length
    const prev = this.mine[seq - 1]?.hash
    const ack = override.ack ?? this.latestTheirs()?.hash
    return seal(this.o.keys, {
      version: this.version,
      sender: this.me,
      seq,
      game: seq >= 1 ? (override.game ?? this.state?.game ?? this.refusalGame) : undefined,
      prev: seq >= 1 ? prev : undefined,
      ack: this.me === 'A' && seq === 0 ? undefined : ack,
      parts,
    })
  }

  protected async sendPhase(parts: readonly Part[]): Promise<void> {
    // SPEC §6.3: a phase envelope acknowledges the last phase envelope, never a stray one after it.
    await this.sendEnvelope(parts, (this.state?.lastPhase ?? this.latestTheirs())?.hash)
    this.afterProgress()
    const last = this.mine[this.mine.length - 1]
    const stop = last === undefined ? undefined : this.o.deviation?.stopAfterSending?.(last)
    if (stop !== undefined) await this.sendStop(stop, 'deviation: stopped after sending')
  }

  /** Seals, persists, admits to the state and sends one envelope (or a deviation's replacements). */
  protected async sendEnvelope(parts: readonly Part[], ack: Uint8Array | undefined): Promise<void> {
    const honest = this.sealParts(parts, ack === undefined ? {} : { ack })
    const dev = this.o.deviation?.outgoing?.(parts, (p, override) =>
      this.sealParts(p, { ...(ack === undefined ? {} : { ack }), ...override }),
    )
    const out = dev === undefined || dev === 'withhold' ? [honest] : dev
    const own = out[0] ?? honest
    if (own.envelope.seq > LIMITS.maxSeq)
      throw new Error(`this side would sign envelope ${own.envelope.seq}, past the last seq (SPEC §9)`)
    for (const s of out) this.persist(s)
    // Journaled after the transcript and before anything is sent: a transcript that later loses this
    // envelope is noticed before this side signs at its place again (SPEC §2.2).
    this.o.signing?.persisted(own.envelope.seq)
    this.mine.push(own)
    this.position.set(own.id, own.envelope.seq)
    if (this.state !== undefined) {
      if (isStopEnvelope(own)) this.state.applyStop(own)
      else {
        const bad = this.state.applyPhase(own, { own: true })
        // An honest side's own envelope that the schedule does not take is a fault of this
        // program: stop rather than sign the same step again.
        if (this.o.deviation === undefined && this.state.lastPhase !== own)
          throw new Error(`own envelope ${own.envelope.seq} not admitted: ${bad?.detail ?? 'unknown'}`)
      }
    }
    for (const s of out) this.emit({ kind: 'envelope', sealed: s, direction: 'sent' })
    if (dev !== 'withhold') for (const s of out) await this.o.channel.send(encodeEnvelopeFrame(s, this.frames()))
    this.waitingSince = this.clock.now()
  }

  protected async sendStop(reason: StopReason, detail: string): Promise<void> {
    if (this.myStop() !== undefined) return
    const log = this.state?.logs[this.me]
    const parts: Part[] = [{ t: 'stop', reason, detail: asciiDetail(detail) }]
    if (log?.setup !== undefined && log.reveal === undefined) parts.push(this.reveal())
    // A stop acknowledges the last envelope of the peer this side acted on, never one merely stored.
    await this.sendEnvelope(parts, (this.theirs[this.taken - 1] ?? this.latestTheirs())?.hash)
    this.persistBelow = this.taken + LIMITS.afterStopEnvelopes
    this.emit({ kind: 'stopped', by: this.me, reason, detail })
    this.decisionAbort.abort()
  }
}
