/**
 * One player's parts of a game, in schedule order (protocol/SPEC.md §6.3), with the `seq` of the
 * envelope that carried each, so an offence can name its envelope (SPEC §12.6).
 */
import type {
  Aspects,
  Flashcube,
  Hello,
  Part,
  RecordCommit,
  Refuse,
  Results,
  Reveal,
  Role,
  SetupCommit,
  Stop,
  VerdictPart,
} from '../protocol/messages.js'

export interface SideLog {
  readonly role: Role
  hello: Hello | undefined
  refuse: Refuse | undefined
  setup: SetupCommit | undefined
  /** Index t - 1 holds turn t. */
  readonly commits: RecordCommit[]
  readonly aspects: Aspects[]
  readonly results: Results[]
  /** By turn: flashcube data is sent only in turns where the other side reported a destruction. */
  readonly flashcubes: Map<number, Flashcube>
  reveal: Reveal | undefined
  stop: Stop | undefined
  verdict: VerdictPart | undefined
  /** The `seq` of the envelope of each part, by key (`setup`, `aspects:3`, `reveal`, ...). */
  readonly seqs: Map<string, number>
}

export function emptySideLog(role: Role): SideLog {
  return {
    role,
    hello: undefined,
    refuse: undefined,
    setup: undefined,
    commits: [],
    aspects: [],
    results: [],
    flashcubes: new Map(),
    reveal: undefined,
    stop: undefined,
    verdict: undefined,
    seqs: new Map(),
  }
}

export function partKey(p: Part): string {
  return 'turn' in p ? `${p.t}:${p.turn}` : p.t
}

/** Records a part the schedule has admitted. */
export function logPart(log: SideLog, p: Part, seq: number): void {
  log.seqs.set(partKey(p), seq)
  switch (p.t) {
    case 'hello':
      log.hello = p
      return
    case 'refuse':
      log.refuse = p
      return
    case 'setup':
      log.setup = p
      return
    case 'commit':
      log.commits.push(p)
      return
    case 'aspects':
      log.aspects.push(p)
      return
    case 'results':
      log.results.push(p)
      return
    case 'flashcube':
      log.flashcubes.set(p.turn, p)
      return
    case 'reveal':
      log.reveal = p
      return
    case 'stop':
      log.stop = p
      return
    case 'verdict':
      log.verdict = p
      return
  }
}
