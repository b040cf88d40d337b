/**
 * One player's messages of a game, in protocol order (protocol/SPEC.md §6.3), with the sequence
 * number of each so offences can cite their envelope.
 */
import type { Aspects, Flashcube, Hello, RecordCommit, Refuse, Results, Reveal, Role, SetupCommit, Verdict } from '../transcript/messages.js'

export interface SideLog {
  readonly role: Role
  hello: Hello | undefined
  refuse: Refuse | undefined
  setup: SetupCommit | undefined
  /** Index t - 1 holds turn t. */
  readonly commits: RecordCommit[]
  readonly aspects: Aspects[]
  readonly results: Results[]
  readonly flashcubes: Flashcube[]
  reveal: Reveal | undefined
  verdict: Verdict | undefined
  /** Sequence number of each message by key (`setup`, `aspects:3`, ...). */
  readonly seqs: Map<string, number>
}

export function emptySideLog(role: Role): SideLog {
  return { role, hello: undefined, refuse: undefined, setup: undefined, commits: [], aspects: [], results: [], flashcubes: [], reveal: undefined, verdict: undefined, seqs: new Map() }
}

/** The turn after which the game ended by the claims in both logs (SPEC §6.4), if it has. */
export function endTurn(a: SideLog, b: SideLog, maxTurns: number): { turn: number; reason: 'fleet-destroyed' | 'no-actions' | 'turn-limit' } | undefined {
  const n = Math.min(a.results.length, b.results.length)
  for (let t = 1; t <= n; t++) {
    const ra = a.results[t - 1]
    const rb = b.results[t - 1]
    if (ra?.fleetDestroyed === true || rb?.fleetDestroyed === true) return { turn: t, reason: 'fleet-destroyed' }
    if (a.aspects[t - 1]?.idle === true || b.aspects[t - 1]?.idle === true) return { turn: t, reason: 'no-actions' }
    if (t === maxTurns) return { turn: t, reason: 'turn-limit' }
  }
  return undefined
}

/** SPEC §6.3: what a sender may send next, given what it has sent. */
export function expectedNext(log: SideLog): string {
  if (log.verdict !== undefined || log.refuse !== undefined) return 'nothing'
  if (log.reveal !== undefined) return 'verdict'
  if (log.hello === undefined) return 'hello'
  if (log.setup === undefined) return 'setup or refuse'
  const n = log.commits.length
  if (log.aspects.length < n) return `aspects of turn ${n} or reveal`
  if (log.results.length < n) return `results of turn ${n} or reveal`
  if (log.flashcubes.length < n) return `flashcube of turn ${n} or reveal`
  return `commit of turn ${n + 1} or reveal`
}

/** Appends a body in protocol order; returns what was wrong when it is out of order. */
export function appendBody(log: SideLog, body: import('../transcript/messages.js').Body, seq: number): string | undefined {
  const expected = expectedNext(log)
  const n = log.commits.length
  const wrong = `${body.t}${'turn' in body ? ` of turn ${body.turn}` : ''} sent where ${expected} was due`
  const put = (key: string): string | undefined => {
    log.seqs.set(key, seq)
    return undefined
  }
  switch (body.t) {
    case 'hello':
      if (expected !== 'hello') return wrong
      log.hello = body
      return put('hello')
    case 'refuse':
      if (log.hello === undefined || log.setup !== undefined || log.refuse !== undefined || log.reveal !== undefined) return wrong
      log.refuse = body
      return put('refuse')
    case 'setup':
      if (!expected.startsWith('setup')) return wrong
      log.setup = body
      return put('setup')
    case 'commit':
      if (!expected.startsWith('commit') || body.turn !== n + 1) return wrong
      log.commits.push(body)
      return put(`commit:${body.turn}`)
    case 'aspects':
      if (!expected.startsWith('aspects') || body.turn !== n) return wrong
      log.aspects.push(body)
      return put(`aspects:${body.turn}`)
    case 'results':
      if (!expected.startsWith('results') || body.turn !== n) return wrong
      log.results.push(body)
      return put(`results:${body.turn}`)
    case 'flashcube':
      if (!expected.startsWith('flashcube') || body.turn !== n) return wrong
      log.flashcubes.push(body)
      return put(`flashcube:${body.turn}`)
    case 'reveal':
      if (log.setup === undefined || log.reveal !== undefined || log.verdict !== undefined) return wrong
      log.reveal = body
      return put('reveal')
    case 'verdict':
      if (expected !== 'verdict') return wrong
      log.verdict = body
      return put('verdict')
  }
}
