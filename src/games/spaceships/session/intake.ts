/**
 * Receiving (SPEC §2.1, §2.2, §11): the peer's frames become events. An envelope is dropped if held,
 * held if ahead of a gap or the open window, else authenticated, persisted and queued; a second
 * signed envelope at a place is kept as proof of equivocation; resume frames are answered within
 * the resend budget.
 */
import { toBase64url } from '../../../core/commit/bytes.js'
import { publicKeyProblem } from '../../../core/commit/keys.js'
import { frameEnvelope } from '../protocol/codec.js'
import { decodeFrameWith, envelopeHash, signatureValid } from '../protocol/envelope.js'
import { type ProtocolError, describeProtocolError } from '../../../core/wire/errors.js'
import { decodeFrame, encodeControl, encodeEnvelopeFrame, encodeResume } from '../protocol/frame.js'
import { LIMITS } from '../protocol/messages.js'
import type { Event } from './queue.js'
import { sameGame } from './terms.js'
import { SessionBase } from './base.js'

export abstract class Intake extends SessionBase {
  /** Frames from the peer, turned into events, until the session ends or this side cannot persist. */
  protected async receive(): Promise<void> {
    try {
      await this.receiveFrames()
    } catch (e) {
      this.failure ??= e
      this.events.push({ kind: 'decision' })
    }
  }

  protected async receiveFrames(): Promise<void> {
    for (;;) {
      const r = await this.o.channel.receive(this.lifetime.signal)
      if (this.finished) return
      switch (r.kind) {
        case 'aborted':
          return
        case 'closed':
          this.events.push({ kind: 'closed' })
          return
        case 'reconnected':
          this.resumeAnswered = false
          this.nameHeard = false
          await this.o.channel.send(encodeResume(this.theirs.length))
          // PROTOCOL-4.md §9: this side's name once per stream, after the preamble (and the resume
          // frame, SPEC §2.2), on version 4 streams only: a version 3 node of package 0.4 reads
          // an unknown control kind as a malformed frame and stops the game (SPEC §2.1, §2.4).
          if (this.version >= 4 && this.o.name !== undefined)
            await this.o.channel.send(encodeControl('name', this.o.name))
          continue
        case 'malformed':
          this.events.push({ kind: 'bad', detail: r.detail })
          continue
        case 'frame':
          await this.frame(r.bytes)
      }
    }
  }

  protected async frame(bytes: Uint8Array): Promise<void> {
    const d = decodeFrame(bytes, this.them, this.frames())
    if (!d.ok) {
      this.events.push({ kind: 'bad', detail: `a malformed frame: ${describeProtocolError(d.error)}` })
      return
    }
    const f = d.value
    if ((f.kind === 'bad-control' || f.kind === 'control') && f.control === 'name') {
      this.name(f)
      return
    }
    if (f.kind === 'bad-control') {
      // SPEC §2.4: conversation never stops a game; a garbled line is noted and dropped.
      this.emit({ kind: 'ignored', detail: `a ${f.control} frame, dropped: ${describeProtocolError(f.error)}` })
      return
    }
    if (f.kind === 'control') {
      // SPEC §2.4: conversation, not evidence; beyond CHAT_PER_SECOND a second it is dropped.
      const now = this.clock.now()
      if (now - this.chatWindow.start >= 1000) this.chatWindow = { start: now, count: 0 }
      if (f.control === 'chat' && ++this.chatWindow.count <= LIMITS.chatPerSecond)
        this.emit({ kind: 'chat', text: f.text })
      else if (f.control !== 'chat' && f.control !== 'name') this.emit({ kind: 'rematch', control: f.control })
      return
    }
    if (f.kind === 'copy' || f.kind === 'unknown-control') return
    if (f.kind === 'resume') {
      // SPEC §2.2: an honest peer sends one resume frame per stream; more ask for nothing new.
      if (this.resumeAnswered) return
      this.resumeAnswered = true
      return this.resend(f.held)
    }
    this.envelopeBytes(f.bytes)
    this.feedHeld()
  }

  /**
   * SPEC §2.4 kind 6: the peer's name, one per stream (later ones on that stream are dropped, so a
   * peer cannot churn the player's screen), and only on a version 4 stream, as it is sent. A name
   * that breaks the rule is dropped and noted; nothing about a name ever stops a game.
   */
  private name(f: { kind: 'bad-control'; error: ProtocolError } | { kind: 'control'; text: string }): void {
    if (this.nameHeard) return
    this.nameHeard = true
    if (this.version < 4) this.emit({ kind: 'ignored', detail: 'a name frame on a version 3 stream (SPEC §2.4)' })
    else if (f.kind === 'bad-control')
      this.emit({ kind: 'ignored', detail: `a name, dropped: ${describeProtocolError(f.error)}` })
    else this.emit({ kind: 'name', name: f.text })
  }

  /** Envelopes held ahead of a gap or of the open window go in once they may (SPEC §2.2, §11). */
  protected feedHeld(): void {
    for (;;) {
      const seq = this.theirs.length
      const next = this.ahead.get(seq)
      if (next === undefined || seq >= this.taken + LIMITS.openEnvelopes || seq >= this.persistBelow) return
      this.ahead.delete(seq)
      this.envelopeBytes(next)
      if (this.theirs.length === seq) return
    }
  }

  /** A stored envelope of the peer not yet acted on, taken out of the queue of events (the rest keep their order). */
  protected pendingEnvelope(): Event | undefined {
    if (this.theirs.length <= this.taken) return undefined
    const held: Event[] = []
    let found: Event | undefined
    for (let e = this.events.poll(); e !== undefined; e = this.events.poll()) {
      if (found === undefined && e.kind === 'envelope') found = e
      else held.push(e)
    }
    for (const e of held) this.events.push(e)
    return found
  }

  /** The loop acts on one more of the peer's envelopes: one more may be persisted (SPEC §11). */
  protected tookEnvelope(): void {
    this.taken++
    this.feedHeld()
  }

  /** One envelope of the peer: dropped if held, held if ahead, else authenticated, persisted and queued. */
  protected envelopeBytes(bytes: Uint8Array): void {
    const framed = frameEnvelope(bytes)
    if (!framed.ok) {
      this.events.push({ kind: 'bad', detail: `not an envelope: ${describeProtocolError(framed.error)}` })
      return
    }
    const f = framed.value
    if (f.sender !== this.them) {
      this.events.push({ kind: 'bad', detail: `an envelope claiming to be from ${f.sender}` })
      return
    }
    // SPEC §5.1, §12.1: an envelope of another version belongs to no game of this version.
    if (f.version !== this.version) {
      this.events.push({
        kind: 'bad',
        detail: `a version ${f.version} envelope in a version ${this.version} game: not of this game`,
      })
      return
    }
    const id = toBase64url(envelopeHash(f.unsigned))
    // SPEC §2.2: a held envelope (any copy) is dropped before its signature is checked.
    if (this.position.has(id) && this.theirs[this.position.get(id) ?? -1]?.id === id) return
    // SPEC §11: nothing of the peer past the stop limit is persisted; an envelope past the open
    // window waits, like one ahead of a gap (§2.2), until the loop has acted on the earlier ones.
    if (f.seq >= this.persistBelow) return
    if (f.seq > this.theirs.length || f.seq >= this.taken + LIMITS.openEnvelopes) {
      if (this.ahead.size < LIMITS.heldEnvelopes && !this.ahead.has(f.seq)) this.ahead.set(f.seq, bytes)
      return
    }
    const decoded = decodeFrameWith(f)
    const key =
      f.seq === 0 && decoded.ok && decoded.value.envelope.parts[0]?.t === 'hello'
        ? decoded.value.envelope.parts[0].key
        : this.theirKey()
    if (key === undefined || publicKeyProblem(key) !== undefined) {
      this.events.push({ kind: 'bad', detail: `${this.them}'s hello key is not usable` })
      return
    }
    if (!signatureValid({ bytes }, key)) {
      this.events.push({ kind: 'bad', detail: `${this.them}'s envelope ${f.seq} fails its signature` })
      return
    }
    if (f.seq < this.theirs.length) {
      // A second signed envelope at a place already held: equivocation, and both are evidence (SPEC §5.3).
      if (f.seq >= 1 && this.state !== undefined && sameGame(f.unsigned, this.state.game) && !this.equivocationHeld) {
        this.equivocationHeld = true
        this.persistBytes(bytes)
        this.events.push({
          kind: 'equivocation',
          detail: `${this.them} signed two different envelopes at its place ${f.seq}`,
        })
      }
      return
    }
    if (!decoded.ok) {
      this.events.push({
        kind: 'bad',
        detail: `${this.them}'s envelope ${f.seq} does not decode: ${describeProtocolError(decoded.error)}`,
      })
      return
    }
    const s = decoded.value
    const e = s.envelope
    if (e.seq >= 1) {
      if (this.state === undefined || !sameGame(f.unsigned, this.state.game)) {
        this.events.push({ kind: 'bad', detail: `${this.them}'s envelope ${e.seq} names another game` })
        return
      }
      if (e.prev === undefined || toBase64url(e.prev) !== this.theirs[e.seq - 1]?.id) {
        this.events.push({
          kind: 'bad',
          detail: `${this.them}'s envelope ${e.seq} does not follow its envelope ${e.seq - 1}`,
        })
        return
      }
    }
    this.persist(s)
    this.theirs.push(s)
    this.position.set(s.id, e.seq)
    this.notePeerAck(s)
    this.lastReceivedAt = this.clock.now()
    this.emit({ kind: 'envelope', sealed: s, direction: 'received' })
    this.events.push({ kind: 'envelope', sealed: s })
  }

  protected theirKey(): Uint8Array | undefined {
    const h = this.theirs[0]?.envelope.parts[0]
    return h?.t === 'hello' ? h.key : undefined
  }

  /**
   * SPEC §2.2: this side's envelopes from `held` on, or from as far as the peer's own acks prove it
   * holds if that is further (it signed them: asking for less is asking for what it has), within
   * the resend budget per `replyMs`. An honest peer lacks at most the envelopes in flight.
   */
  protected async resend(held: number): Promise<void> {
    this.notePeerHeld(held)
    const now = this.clock.now()
    if (now - this.resendWindow.start >= this.terms.replyMs) this.resendWindow = { start: now, bytes: 0 }
    for (const s of this.mine.slice(Math.max(held, this.peerHeld))) {
      const frame = encodeEnvelopeFrame(s, this.frames())
      if (this.resendWindow.bytes + frame.length > LIMITS.resendBudgetBytes) return
      this.resendWindow.bytes += frame.length
      await this.o.channel.send(frame)
    }
    if (this.settling) {
      this.resentAll = true
      this.events.push({ kind: 'decision' })
    }
  }
}
