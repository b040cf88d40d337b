/**
 * The schedule (protocol/SPEC.md §6.3): which player sends the next phase envelope, with which
 * parts, and which deadline rules it. Pure and shared: the session follows it live and the
 * verifier walks it over a transcript, so both admit exactly the same envelopes.
 */
import type { Aspects, EndReason, Part, PartType, Results, Role } from '../protocol/messages.js'
import { type ProtocolVersion, otherRole } from '../protocol/messages.js'

/** SPEC §6.6: which of the terms' deadlines an envelope is waited for by. */
export type DeadlineKind = 'reply' | 'setup' | 'turn'

export interface Due {
  readonly sender: Role
  /** The parts the envelope must hold, in order. */
  readonly parts: readonly PartType[]
  /** The one alternative the schedule allows here: a refusal with B's hello or instead of A's setup (SPEC §6.2). */
  readonly alternative?: readonly PartType[]
  /** The turn its turn parts must name (0 outside turns). */
  readonly turn: number
  /** The turn a `commit` part must name, when it differs from `turn`: the next one, sent ahead (SPEC §6.3). */
  readonly commitTurn?: number
  readonly deadline: DeadlineKind
  readonly phase: 'hello' | 'setup' | 'turn' | 'end'
  /**
   * Version 4 (SPEC §6.3, §7.11): the envelope may end with an offer of a draw (any phase envelope
   * of a turn; `offerProblem` says where it may not).
   */
  readonly offerable?: boolean
  /**
   * Version 4 (SPEC §6.3, §7.12): the parts of an envelope that accepts the other side's standing
   * offer here, in place of this side's commitment: `accept` alone at steps 1 and 2, the step's
   * own parts then `accept` at steps 4 and 5 (where the commitment ahead would stand).
   */
  readonly acceptAs?: readonly PartType[]
}

type State =
  | { readonly phase: 'hello' | 'setup'; readonly sender: Role }
  | { readonly phase: 'turn'; readonly turn: number; readonly step: 1 | 2 | 3 | 4 | 5; readonly first: Role }
  | { readonly phase: 'end'; readonly step: 1 | 2 | 3; readonly first: Role }
  | { readonly phase: 'done'; readonly refused: boolean }

export interface GameEnd {
  readonly turn: number
  readonly reason: EndReason
}

export class Schedule {
  private state: State = { phase: 'hello', sender: 'A' }
  /** Per turn in progress: what the applied parts said (reports, claims), which decides the next steps. */
  private aspects: Partial<Record<Role, Aspects>> = {}
  private results: Partial<Record<Role, Results>> = {}
  private finished: GameEnd | undefined
  /** Version 4 (SPEC §7.11): the side whose offer of a draw stands until the other side commits or accepts. */
  private offered: Role | undefined
  /** Version 4: each side's commitments so far; a draw ends the game after the turns both committed. */
  private readonly commits: Record<Role, number> = { A: 0, B: 0 }

  constructor(
    private readonly maxTurns: number,
    private readonly version: ProtocolVersion = 3,
  ) {}

  /** The game's end (SPEC §6.4), once the last turn is complete. */
  get end(): GameEnd | undefined {
    return this.finished
  }

  /** Version 4 (SPEC §7.11): the side whose offer of a draw stands (until the other side commits or accepts). */
  get offer(): Role | undefined {
    return this.offered
  }

  get refused(): boolean {
    return this.state.phase === 'done' && this.state.refused
  }

  get done(): boolean {
    return this.state.phase === 'done'
  }

  /** The turn being played, or the last one once the game has ended (0 before the first). */
  get turn(): number {
    const s = this.state
    return s.phase === 'turn' ? s.turn : (this.finished?.turn ?? 0)
  }

  /**
   * `due()` as of the last `advance`, made once: the walk, the game state and the checks each ask
   * for it several times an envelope, and it changes only when the schedule advances.
   */
  private dueMade: { readonly value: Due | undefined } | undefined

  /** The next phase envelope, or undefined once the schedule is done. */
  due(): Due | undefined {
    this.dueMade ??= { value: this.makeDue() }
    return this.dueMade.value
  }

  private makeDue(): Due | undefined {
    const s = this.state
    switch (s.phase) {
      case 'hello':
        return s.sender === 'A'
          ? { sender: 'A', parts: ['hello'], turn: 0, deadline: 'reply', phase: 'hello' }
          : {
              sender: 'B',
              parts: ['hello'],
              alternative: ['hello', 'refuse'],
              turn: 0,
              deadline: 'reply',
              phase: 'hello',
            }
      case 'setup':
        return s.sender === 'A'
          ? { sender: 'A', parts: ['setup'], alternative: ['refuse'], turn: 0, deadline: 'setup', phase: 'setup' }
          : { sender: 'B', parts: ['setup'], turn: 0, deadline: 'setup', phase: 'setup' }
      case 'turn': {
        const F = s.first
        const S = otherRole(F)
        const t = s.turn
        switch (s.step) {
          case 1:
            return this.draw(F, ['accept'], { sender: F, parts: ['commit'], turn: t, deadline: 'turn', phase: 'turn' })
          case 2:
            return this.draw(S, ['accept'], {
              sender: S,
              parts: ['commit', 'aspects'],
              turn: t,
              deadline: 'turn',
              phase: 'turn',
            })
          case 3:
            return this.draw(F, undefined, {
              sender: F,
              parts: ['aspects', 'results'],
              turn: t,
              deadline: 'reply',
              phase: 'turn',
            })
          case 4: {
            const parts: PartType[] = reported(this.results[F]) ? ['results', 'flashcube'] : ['results']
            return this.draw(S, [...parts, 'accept'], {
              sender: S,
              parts,
              alternative: [...parts, 'commit'],
              turn: t,
              commitTurn: t + 1,
              deadline: 'reply',
              phase: 'turn',
            })
          }
          case 5:
            return this.draw(F, ['flashcube', 'accept'], {
              sender: F,
              parts: ['flashcube'],
              alternative: ['flashcube', 'commit'],
              turn: t,
              commitTurn: t + 1,
              deadline: 'reply',
              phase: 'turn',
            })
        }
        break
      }
      case 'end': {
        const N = s.first
        const O = otherRole(N)
        const t = this.finished?.turn ?? 0
        if (s.step === 1) return { sender: N, parts: ['reveal'], turn: t, deadline: 'reply', phase: 'end' }
        // Version 4 (SPEC §6.3): no verdict part; N's close acknowledges O's reveal and states nothing.
        if (this.version === 4)
          return s.step === 2
            ? { sender: O, parts: ['reveal'], turn: t, deadline: 'reply', phase: 'end' }
            : { sender: N, parts: ['close'], turn: t, deadline: 'reply', phase: 'end' }
        if (s.step === 2) return { sender: O, parts: ['reveal', 'verdict'], turn: t, deadline: 'reply', phase: 'end' }
        return { sender: N, parts: ['verdict'], turn: t, deadline: 'reply', phase: 'end' }
      }
      case 'done':
        return undefined
    }
    return undefined
  }

  /**
   * SPEC §6.3: a turn's last envelope may carry its sender's commitment to the next turn, unless
   * the turn is not over for it (flashcube data is still due to it) or the game ends with it.
   * `parts` matched `due()`; this says what is wrong with a `commit` among them, if anything.
   */
  aheadProblem(parts: readonly Part[]): string | undefined {
    const s = this.state
    const due = this.due()
    if (s.phase !== 'turn' || due === undefined || parts.at(-1)?.t !== 'commit' || (s.step !== 4 && s.step !== 5))
      return undefined
    const results = parts.find((p): p is Results => p.t === 'results')
    if (s.step === 4 && reported(results))
      return `a commitment to turn ${s.turn + 1} in an envelope that reports a destruction: flashcube data for it is still due`
    const saved = this.results[due.sender]
    if (results !== undefined) this.results[due.sender] = results
    const end = this.endOf(s.turn)
    this.results[due.sender] = saved
    return end === undefined
      ? undefined
      : `a commitment to turn ${s.turn + 1}, but the game ends after turn ${s.turn} (${end.reason})`
  }

  /**
   * Version 4 (SPEC §6.3, §7.11, §7.12): a turn's due step with what the draw allows there: an
   * offer at its end (not while the sender's own offer stands), and, while the other side's offer
   * stands, the parts that accept it in place of the sender's commitment (`acceptAs`).
   */
  private draw(sender: Role, acceptAs: readonly PartType[] | undefined, due: Due): Due {
    if (this.version !== 4) return due
    const accepting = acceptAs !== undefined && this.offered === otherRole(sender) ? { acceptAs } : {}
    return { ...due, offerable: this.offered !== sender, ...accepting }
  }

  /**
   * Version 4 (SPEC §7.11, §7.12): what is wrong with an `offer` or an `accept` among `parts` (which
   * matched `due()`), if anything: an offer with an acceptance; an acceptance in place of a
   * commitment ahead after which the game ends by the rules.
   */
  offerProblem(parts: readonly Part[]): string | undefined {
    const offers = parts.at(-1)?.t === 'offer'
    const accepts = parts.some((p) => p.t === 'accept')
    if (offers && accepts) return 'an offer of a draw in the envelope that accepts one'
    if (!accepts) return undefined
    const s = this.state
    if (s.phase !== 'turn' || (s.step !== 4 && s.step !== 5)) return undefined
    const due = this.due()
    const results = parts.find((p): p is Results => p.t === 'results')
    const saved = due === undefined ? undefined : this.results[due.sender]
    if (due !== undefined && results !== undefined) this.results[due.sender] = results
    const end = this.endOf(s.turn)
    if (due !== undefined) this.results[due.sender] = saved
    return end === undefined
      ? undefined
      : `a draw accepted, but the game ends after turn ${s.turn} by the rules (${end.reason})`
  }

  /** Advances past the due envelope, which held `parts` (already checked to match `due()`). */
  advance(parts: readonly Part[]): void {
    const s = this.state
    const sender = this.due()?.sender
    if (sender === undefined) return
    this.dueMade = undefined
    // SPEC §7.11: an offer stands until the other side commits (declining it) or accepts it.
    const offerer = this.offered
    const accepted = parts.some((p) => p.t === 'accept') && offerer === otherRole(sender)
    for (const p of parts) if (p.t === 'commit') this.commits[sender]++
    if (offerer === otherRole(sender) && parts.some((p) => p.t === 'commit')) this.offered = undefined
    if (parts.at(-1)?.t === 'offer') this.offered = sender
    if (accepted && s.phase === 'turn') {
      // SPEC §6.4: the draw ends the game after the turns both committed; the offerer reveals first.
      this.finished = { turn: Math.min(this.commits.A, this.commits.B), reason: 'agreed-draw' }
      this.offered = undefined
      this.aspects = {}
      this.results = {}
      this.state = { phase: 'end', step: 1, first: offerer }
      return
    }
    for (const p of parts) {
      if (p.t === 'aspects') this.aspects[sender] = p
      if (p.t === 'results') this.results[sender] = p
    }
    if (parts.some((p) => p.t === 'refuse')) {
      this.state = { phase: 'done', refused: true }
      return
    }
    switch (s.phase) {
      case 'hello':
        this.state = s.sender === 'A' ? { phase: 'hello', sender: 'B' } : { phase: 'setup', sender: 'A' }
        return
      case 'setup':
        this.state =
          s.sender === 'A' ? { phase: 'setup', sender: 'B' } : { phase: 'turn', turn: 1, step: 1, first: 'A' }
        return
      case 'turn': {
        const F = s.first
        const S = otherRole(F)
        if (s.step < 4) {
          this.state = { ...s, step: (s.step + 1) as 2 | 3 | 4 }
          return
        }
        if (s.step === 4 && reported(this.results[S])) {
          this.state = { ...s, step: 5 }
          return
        }
        // The turn is complete. Whoever sent its last envelope with a commitment to the next turn
        // moves first in it, already bound (step 1 done); otherwise F(t+1) = S(t) if F sent
        // flashcube data last (step 5), else F(t).
        const last = s.step === 5 ? F : S
        const ahead = parts.at(-1)?.t === 'commit'
        const next: Role = ahead ? last : s.step === 5 ? S : F
        const end = this.endOf(s.turn)
        this.aspects = {}
        this.results = {}
        if (end !== undefined) {
          this.finished = end
          this.state = { phase: 'end', step: 1, first: next }
        } else this.state = { phase: 'turn', turn: s.turn + 1, step: ahead ? 2 : 1, first: next }
        return
      }
      case 'end':
        this.state = s.step === 3 ? { phase: 'done', refused: false } : { ...s, step: (s.step + 1) as 2 | 3 }
        return
      case 'done':
        return
    }
  }

  /** SPEC §6.4: whether turn `t` ended the game, and why (in precedence order). */
  private endOf(t: number): GameEnd | undefined {
    const rs = [this.results.A, this.results.B]
    const as = [this.aspects.A, this.aspects.B]
    if (rs.some((r) => r?.fleetDestroyed === true)) return { turn: t, reason: 'fleet-destroyed' }
    if (as.some((a) => a?.idle === true)) return { turn: t, reason: 'no-actions' }
    if (t >= this.maxTurns) return { turn: t, reason: 'turn-limit' }
    return undefined
  }
}

function reported(r: Results | undefined): boolean {
  return r !== undefined && r.destroyed.length > 0
}

/** Whether `parts` is exactly what `due` allows (types in order). */
export function matchesDue(due: Due, parts: readonly Part[]): boolean {
  // Version 4: where an offer is allowed it ends the envelope, after what is due there.
  const body = due.offerable === true && parts.at(-1)?.t === 'offer' ? parts.slice(0, -1) : parts
  const same = (want: readonly PartType[]): boolean =>
    want.length === body.length && want.every((t, i) => body[i]?.t === t)
  return (
    same(due.parts) ||
    (due.alternative !== undefined && same(due.alternative)) ||
    (due.acceptAs !== undefined && same(due.acceptAs))
  )
}
