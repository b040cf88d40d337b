/**
 * `spaaace host --notary` and `spaaace join` of a witnessed game (protocol/SPAAACE-WITNESSED.md): the
 * genesis names a notary, whose receipts are the cut of every tick, so ticks may last minutes or
 * days and nobody need stay online. The accepts travel over the players' mesh until some node holds
 * them all and registers the game (§3); from then on every node of this process (the player's and
 * the host's bots') checks in with the notary when its plan says (§8), and `join --check-in` checks
 * in once and exits: the way to play a move a day.
 */
import type { Libp2p } from '@libp2p/interface'
import { multiaddr } from '@multiformats/multiaddr'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { toHex } from '../core/commit/bytes.js'
import { systemSecrets } from '../core/commit/secrets.js'
import type { Identity } from '../core/net/identity.js'
import { NotaryClient, libp2pTransport } from '../core/notary-net/client.js'
import { systemClock } from '../core/session/clock.js'
import { randomBot } from '../games/spaaace/bot/random.js'
import { sensibleBot } from '../games/spaaace/bot/sensible.js'
import { botChooser, personChooser } from '../games/spaaace/node/choosers.js'
import { type SpaaaceInvite, formatSpaaaceInvite } from '../games/spaaace/node/invite.js'
import type { ChoiceView, Chooser } from '../games/spaaace/node/peer.js'
import { fileFetchJournal } from '../games/spaaace/node/fetches.js'
import { fileSecrets } from '../games/spaaace/node/secrets.js'
import { spaaaceFileStore } from '../games/spaaace/node/store.js'
import { type CheckinResult, WitnessedSeat } from '../games/spaaace/node/witnessed.js'
import type { WitnessedDecision } from '../games/spaaace/witness/decide.js'
import { acceptsHeld, exchangeAccepts, runWitnessedSeat, seatDone } from '../games/spaaace/node/witnessed-net.js'
import { type SealedGenesis, signAccept } from '../games/spaaace/peers/genesis.js'
import { seededRng } from '../games/spaaace/referee/random.js'
import {
  SCREEN_COLUMNS,
  type Seat,
  orderGuide,
  renderScreen,
  standingsLines,
  tellTick,
  timeText,
  wrapLine,
} from '../games/spaaace/ui/screen.js'
import { witnessedEndLine, witnessedLines } from '../games/spaaace/verify/witnessed-report.js'
import { revealGuard } from '../games/spaaace/witness/checkin.js'
import { complaintWindowEnd, cutTime } from '../games/spaaace/witness/times.js'
import { SPAAACE_NOTARY_DOMAIN, SPAAACE_NOTARY_PROTOCOL } from '../games/spaaace/witness/domain.js'
import { identityFor } from './identity.js'
import { CHECK_IN_WINDOW_MS } from './spaaace-games.js'
import { type CliIo, EXIT, UserError, commandName } from './io.js'
import { DEFAULT_LISTEN } from './net.js'
import { peerNamesFor } from './peer-names.js'
import { lockGame } from './games.js'
import {
  type SpaaaceJoinFlags,
  keepConnected,
  listenOn,
  relayIdsOf,
  relaysOfInvite,
  rosterIds,
  rosterLine,
  seatsFor,
  spaaaceGameDir,
  startNode,
  storedBots,
} from './spaaace-net.js'

const env = (io: CliIo): NodeJS.ProcessEnv => io.env ?? process.env
const when = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
/** A time to come back at, to the second, never before `ms` (a check-in a moment early finds nothing due). */
const after = (ms: number): string => when(Math.ceil(ms / 1000) * 1000)

interface SeatRig {
  readonly identity: Identity
  readonly index: number
  readonly node: Libp2p
  readonly seat: WitnessedSeat
  readonly store: ReturnType<typeof spaaaceFileStore>
  readonly person: boolean
}

/** The person's screen: the galaxy before each choice, what happened in each decided tick, the end. */
export function witnessedScreen(io: CliIo, self: number, seats: readonly Seat[]) {
  const columns = Math.min(SCREEN_COLUMNS, io.columns ?? SCREEN_COLUMNS)
  const say = (l: string): void => {
    io.stdout(`${l}\n`)
  }
  const tell = (l: string): void => {
    for (const x of wrapLine(l, columns)) say(x)
  }
  let told = 0
  return {
    say,
    tell,
    columns,
    /** The deadline of orders a check-in without a terminal could not ask for. */
    ordersDue: undefined as number | undefined,
    /** Before the person chooses: the galaxy and the time left (§8.2: until `G_t`). */
    show(view: ChoiceView): void {
      say('')
      const left = Math.max(0, view.deadline - Date.now())
      for (const l of renderScreen({
        state: view.state,
        seats,
        viewer: self,
        columns,
        timeLeftMs: left,
        dueAt: view.deadline,
      }))
        say(l)
    },
    /** The last tick told in words (a check-in tells only what the last did not). */
    get told(): number {
      return told
    },
    set told(t: number) {
      told = t
    },
    /** Each tick decided since the last call (provisional or final), in words. */
    ticks(d: WitnessedDecision, signed?: (type: 'commit' | 'reveal', t: number) => boolean): void {
      for (const t of d.ticks) {
        if (t.t <= told || t.outcome === undefined) continue
        say('')
        for (const l of tellTick(t.outcome, seats, self, columns)) say(l)
        // S-61, S-62, SPAAACE-WITNESSED §7.1: a commitment counts only if receipted by the tick's
        // commit cut, a reveal by its reveal cut. A person whose node signed them must hear why
        // they count as nothing, and that the notary, not the person, was late.
        const events = t.outcome.events
        const silent = events.some((e) => e.kind === 'silent' && e.player === self)
        const withheld = events.some((e) => e.kind === 'penalty' && e.cause === 'withheld' && e.player === self)
        if (signed?.('commit', t.t) === true && silent)
          tell(
            `Your orders for tick ${t.t} were signed, but the notary did not receipt them by the tick's commit cut (it was not answering, or they reached it late): they count as not committed (S-61).`,
          )
        else if (signed?.('reveal', t.t) === true && withheld)
          tell(
            `Your reveal for tick ${t.t} was signed, but the notary did not receipt it by the tick's reveal cut (it was not answering, or it reached it late): your orders count as withheld (S-62).`,
          )
        told = t.t
      }
    },
  }
}

/** The last tick a check-in told in words, in a file of its own (0 when there is none or it does not read). */
function toldFile(path: string): { read(): number; write(t: number): void } {
  return {
    read: () => {
      try {
        const t = Number(readFileSync(path, 'utf8').trim())
        return Number.isSafeInteger(t) && t >= 0 ? t : 0
      } catch {
        return 0
      }
    },
    write: (t) => {
      try {
        writeFileSync(path, `${t}\n`)
      } catch {
        // A note for the screen: a tick told twice is no reason to stop a check-in.
      }
    },
  }
}

/** Plays (or resumes, or checks in once on) the witnessed game of `invite` with this identity and its stored bots. */
export async function playWitnessedInvite(
  io: CliIo,
  invite: SpaaaceInvite,
  f: SpaaaceJoinFlags & { readonly checkIn?: boolean },
  started?: ReadonlyMap<string, Libp2p>,
): Promise<number> {
  const { genesis, addresses } = invite
  const notaryKey = genesis.genesis.notaryKey
  const notaryAddrs = invite.notary ?? []
  if (notaryKey === null || notaryAddrs.length === 0) throw new UserError('the invite names no notary')
  const identity = await identityFor({ ...f, bot: 'sensible' }, io)
  const self = genesis.genesis.keys.findIndex((k) => toHex(k) === toHex(identity.keys.publicKey))
  if (self < 0)
    throw new UserError(
      `your key (${identity.peerId.toString()}) is not in this game's roster: the host names each player with --player PEERID`,
    )
  const dir = spaaaceGameDir(genesis, env(io))
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  // One process a game: two would each sign at the places the other signs (a fork, S-80), and
  // keep journals the other does not read.
  const release = lockGame(dir, genesis.id.slice(0, 16))
  try {
    const text = formatSpaaaceInvite(genesis, addresses, notaryAddrs)
    writeFileSync(join(dir, 'invite'), `${text}\n`)
    const cmd = commandName(env(io))
    const resume = `${cmd} spaaace join @${join(dir, 'invite')}`
    const bots = await storedBots(dir, genesis)
    const names = peerNamesFor(io)
    const { seats, labels } = seatsFor(genesis, self, new Map(bots.map((b) => [b.index, b.kind])), names)
    const s = witnessedScreen(io, self, seats)
    const quit = new AbortController()
    const signal = quit.signal
    if (f.checkIn !== true)
      s.say(
        `Spaaace! game ${genesis.id.slice(0, 16)}, ${genesis.genesis.keys.length} players, witnessed by the notary ${notaryAddrs[0] ?? ''}; you are p${self + 1}${
          bots.length > 0 ? `, ${bots.length} ${bots.length === 1 ? 'bot runs' : 'bots run'} here` : ''
        }${
          // The host, which made the game, sends the invite; a player who joined by it, or anyone
          // resuming, is told where it is kept instead of being shown it as if it had to send it.
          started !== undefined
            ? `. Invite (each player runs: ${cmd} spaaace join <invite>):\n\n${text}\n\n`
            : ` (the invite is kept in ${join(dir, 'invite')}).\n`
        }${rosterLine(genesis, self, seats, names)}Tick 1 starts at ${when(genesis.genesis.timing.start)}. ${
          Math.min(genesis.genesis.timing.commitMs, genesis.genesis.timing.revealMs) >= CHECK_IN_WINDOW_MS
            ? `You need not stay online: ${resume} --check-in plays what is due and exits.`
            : `Its windows are live (${Math.round(genesis.genesis.timing.revealMs / 1000)} s to reveal): stay online, or resume with ${resume}.`
        }`,
      )

    const personChooserOf = (): Chooser => {
      if (f.autoplay) return botChooser(sensibleBot(), seededRng(`${genesis.id}/${self}`))
      const prompter = io.prompter?.()
      // A check-in run from a script (no terminal) still marks, reveals and seals; it only cannot ask
      // for orders, and says so.
      if (prompter === undefined && f.checkIn === true)
        return {
          choose: (view) => {
            s.ordersDue = view.deadline
            s.tell(
              `Tick ${view.tick}: your orders are due by ${when(view.deadline)}; check in on a terminal to give them.`,
            )
            return null
          },
        }
      if (prompter === undefined)
        throw new UserError(
          'Spaaace! asks for your orders on a terminal, and standard input is not one; --autoplay lets a sensible bot play your seat',
        )
      return personChooser({
        prompter,
        labels,
        guide: () => orderGuide(s.columns),
        print: s.say,
        onQuit: () => {
          quit.abort()
        },
        // The commit guard G_t is on the wall clock here: the prompt counts down to it (§6.1).
        timeLeft: (view) => `${timeText(Math.max(0, view.deadline - Date.now()))} left`,
        clock: systemClock,
      })
    }
    const inner = personChooserOf()
    // What happened in the ticks decided so far is told before the galaxy the person chooses on.
    const narrate = { before: (): void => undefined }
    const person: Chooser = {
      choose(view, sig) {
        narrate.before()
        s.show(view)
        return inner.choose(view, sig)
      },
    }

    const relays = [...new Set([...(f.relay ?? []), ...relaysOfInvite(addresses)])]
    const roster = rosterIds(genesis)
    // The notary is dialled too (its PeerId ends each of its addresses).
    const admitted = new Set([...roster, ...relayIdsOf(relays), ...relayIdsOf(notaryAddrs)])
    const ownListen = (i: number): string[] => {
      const fromInvite = listenOn(addresses[i] ?? [])
      return fromInvite.length > 0 ? fromInvite : (f.listen ?? DEFAULT_LISTEN)
    }
    const members = [
      { identity, index: self, chooser: person, person: true },
      ...bots.map((b) => ({
        identity: b.identity,
        index: b.index,
        chooser: botChooser(
          b.kind === 'random' ? randomBot : sensibleBot(),
          seededRng(`${toHex(b.identity.keys.publicKey)}/${genesis.id}`),
        ),
        person: false,
      })),
    ]
    let retried = false
    // `--check-in`: when the request being retried first failed, and the end of a check-in the notary does not answer.
    let unreachableSince = 0
    const unreachable = new AbortController()
    const rigs: SeatRig[] = []
    for (const m of members) {
      const node =
        started?.get(m.identity.peerId.toString()) ??
        (await startNode(
          m.identity,
          m.person ? (f.listen ?? ownListen(m.index)) : ownListen(m.index),
          relays,
          () => admitted,
        ))
      const store = spaaaceFileStore(join(dir, `p${m.index + 1}.transcript`), genesis, m.index)
      if (acceptsHeld(genesis, store)[m.index] === undefined)
        store.append(signAccept(m.identity.keys, genesis.game, m.index).bytes)
      const toNotary = libp2pTransport(
        node,
        notaryAddrs.map((a) => multiaddr(a)),
        SPAAACE_NOTARY_PROTOCOL.id,
      )
      const client = new NotaryClient({
        // After "not answering", the person hears when it answers again.
        transport: async (request, sig) => {
          const answer = await toNotary(request, sig)
          if (m.person && retried) {
            retried = false
            s.tell('The notary answers again.')
          }
          return answer
        },
        clock: systemClock,
        domain: SPAAACE_NOTARY_DOMAIN,
        notaryKey,
        protocol: SPAAACE_NOTARY_PROTOCOL,
        onRetry: (e) => {
          if (m.person && !retried) {
            retried = true
            s.tell(`The notary is not answering (${e.why}); your node keeps trying.`)
          }
          // §8.2: in a check-in one seat asks for all of this process's seats (the others never get
          // to ask before it ends), so what it finds is each seat's failed fetch too.
          if (f.checkIn === true) for (const r of rigs) if (r.index !== m.index) r.seat.away()
          // A check-in is one visit, not a vigil: a notary silent for CHECK_IN_UNREACHABLE_MS ends it.
          if (e.attempt === 1) unreachableSince = systemClock.now()
          if (f.checkIn === true && systemClock.now() - unreachableSince >= CHECK_IN_UNREACHABLE_MS) unreachable.abort()
        },
      })
      rigs.push({
        identity: m.identity,
        index: m.index,
        node,
        store,
        person: m.person,
        seat: new WitnessedSeat({
          genesis,
          keys: m.identity.keys,
          self: m.index,
          client,
          store,
          secrets: fileSecrets(join(dir, `p${m.index + 1}.secrets`), systemSecrets),
          fetches: fileFetchJournal(join(dir, `p${m.index + 1}.fetches`)),
          random: systemSecrets,
          chooser: m.chooser,
          clock: systemClock,
          accepts: () => allAccepts(genesis, rigs),
          ...(m.person ? { say: s.tell } : {}),
        }),
      })
    }
    const first = rigs[0] as SeatRig
    narrate.before = () => {
      s.ticks(first.seat.decide().decision, (type, t) => first.seat.hasSigned(type, t))
    }
    // A check-in's every wait on the notary ends once it has not answered for CHECK_IN_UNREACHABLE_MS.
    const visit = f.checkIn === true ? AbortSignal.any([signal, unreachable.signal]) : signal
    try {
      // §3: until the notary holds the game, the accepts go round the players' mesh (the person's node
      // carries this process's bots' accepts too).
      const registered = async (): Promise<boolean> => {
        const got = await first.seat.isRegistered(visit)
        return got
      }
      if (!(await registered())) {
        for (const r of rigs.slice(1)) {
          const a = acceptsHeld(genesis, r.store)[r.index]
          if (a !== undefined && acceptsHeld(genesis, first.store)[r.index] === undefined) first.store.append(a)
        }
        s.tell('Waiting for every player to accept (their nodes reach each other, then one registers the game)...')
        keepConnected(
          first.node,
          roster.flatMap((id, i) => (i === self ? [] : [{ id, addrs: addresses[i] ?? [] }])),
          visit,
          systemClock,
        )
        await exchangeAccepts({
          node: first.node,
          genesis,
          self,
          roster,
          addresses,
          store: first.store,
          clock: systemClock,
          registered,
          signal: visit,
        })
        for (const r of rigs.slice(1))
          for (const a of acceptsHeld(genesis, first.store))
            if (a !== undefined && !r.store.envelopes().some((b) => toHex(b) === toHex(a))) r.store.append(a)
      }
      const file = join(dir, `p${self + 1}.transcript`)
      const toldNote = toldFile(join(dir, `p${self + 1}.told`))
      if (f.checkIn === true)
        return await checkInOnce(rigs, s, labels, resume, visit, toldNote, (r) =>
          finish(io, r, s, labels, seats, self, file, cmd),
        )
      // The end decided provisionally, said once: it becomes final only at C_{T+1} (§7.4), a while
      // in which the screen would otherwise say nothing.
      let endTold = false
      const results = await Promise.all(
        rigs.map((r) =>
          runWitnessedSeat(r.seat, r.index, systemClock, signal, (x) => {
            if (!r.person) return
            const d = x.witnessed.decision
            s.ticks(d, (type, t) => r.seat.hasSigned(type, t))
            toldNote.write(s.told)
            if (!endTold && d.end.kind === 'complete' && d.end.provisional) {
              endTold = true
              s.tell(
                `The game ends after tick ${d.end.tick}, provisionally: it is final once the notary's log passes ${when(complaintWindowEnd(genesis.genesis.timing, d.end.tick))} (the window for complaints, SPAAACE-WITNESSED §7.4); then the seeds are revealed and the log sealed. Your node waits for it.`,
              )
            }
          }),
        ),
      )
      const mine = results[0]
      if (signal.aborted || mine === undefined) {
        s.say(`You left the game; your node signed nothing more. Check in again with: ${resume} --check-in`)
        return EXIT.abandoned
      }
      return finish(io, mine, s, labels, seats, self, file, cmd)
    } catch (e) {
      if (f.checkIn !== true || !unreachable.signal.aborted || signal.aborted) throw e
      s.tell(
        `The notary did not answer for ${CHECK_IN_UNREACHABLE_MS / 1000} s: this check-in ends. What your node signed is kept in its file and goes to the notary at your next check-in; orders not receipted by their tick's commit cut count as not committed (S-61).`,
      )
      s.say(`Check in again soon:\n  ${resume} --check-in`)
      return EXIT.unavailable
    } finally {
      quit.abort()
      for (const r of rigs) await r.node.stop()
    }
  } finally {
    release()
  }
}

function allAccepts(genesis: SealedGenesis, rigs: readonly SeatRig[]): Uint8Array[] | undefined {
  const n = genesis.genesis.keys.length
  const out: (Uint8Array | undefined)[] = Array.from({ length: n }, () => undefined)
  for (const r of rigs) acceptsHeld(genesis, r.store).forEach((a, i) => (out[i] ??= a))
  return out.every((a) => a !== undefined) ? out : undefined
}

/** `--check-in`: each seat of this process checks in once; what is due now and when to come back. */
async function checkInOnce(
  rigs: readonly SeatRig[],
  s: ReturnType<typeof witnessedScreen>,
  labels: readonly string[],
  resume: string,
  signal: AbortSignal,
  told: { read(): number; write(t: number): void },
  /** The game over for this seat: the standings and the transcript, as a live game ends. */
  done: (r: CheckinResult) => number,
): Promise<number> {
  const me = rigs[0]
  if (me === undefined) return EXIT.unreadable
  // Only what the last check-in did not tell is told: its last tick is kept beside the transcript
  // (a note for the screen, no evidence), since a tick is often decided after a check-in exits.
  s.told = told.read()
  let mine: CheckinResult | undefined
  for (const r of rigs) {
    const x = await r.seat.checkIn(signal)
    if (r.person) mine = x
  }
  if (mine === undefined) return EXIT.unreadable
  // Decided again after this check-in's own steps: its reveal may have completed a tick, which the
  // next check-in would otherwise count as told before telling it.
  const d = me.seat.decide().decision
  s.ticks(d, (type, t) => me.seat.hasSigned(type, t))
  told.write(s.told)
  const did = mine.did.flatMap((x) =>
    x.kind === 'commit'
      ? [`committed your orders for tick ${x.t}`]
      : x.kind === 'reveal'
        ? [`revealed your orders for tick ${x.t}`]
        : x.kind === 'seed'
          ? ['revealed your seed, the game being over (§8.2)']
          : x.kind === 'vote'
            ? [`signed an outage vote for tick ${x.t} (§8.2)`]
            : [],
  )
  if (did.length > 0) s.tell(`This check-in ${did.join(', ')}.`)
  if (seatDone(mine, me.index)) return done(mine)
  s.tell(`Decided from the notary's receipts: ${witnessedEndLine(d.end, labels)}.`)
  const w = mine.plan.window
  if (w !== undefined) {
    const committed = me.seat.hasSigned('commit', w.t)
    s.tell(
      w.phase === 'commit' && !committed
        ? `Tick ${w.t}: your orders are due by ${when(w.until)}.`
        : committed && !me.seat.hasSigned('reveal', w.t)
          ? `Tick ${w.t}: your orders are committed; check in between ${when(cutTime(me.seat.genesis.genesis.timing, w.t, 0))} (its commit cut) and ${when(revealGuard(me.seat.genesis, w.t))} to reveal them (S-62).${revealWindowWarning(revealGuard(me.seat.genesis, w.t) - cutTime(me.seat.genesis.genesis.timing, w.t, 0))}`
          : `Tick ${w.t}: waiting for its ${w.phase === 'commit' ? 'commit' : 'reveal'} cut at ${when(w.until)}.`,
    )
  }
  // The command on a line of its own, never wrapped: it is copied as it stands. Orders this
  // check-in could not ask for (no terminal) are due before the plan's next time.
  const due = s.ordersDue
  if (due !== undefined && (mine.plan.next === undefined || mine.plan.next > due))
    s.say(`Check in on a terminal before ${when(due)} to give your orders:\n  ${resume} --check-in`)
  else if (mine.plan.next !== undefined)
    s.say(
      // A time already past (the step it waits for is due, but the notary's log does not show it
      // yet) is never given as the time to come back.
      mine.plan.next <= Date.now()
        ? `Check in again in a minute (what comes next was due at ${when(mine.plan.next)}; the notary's log does not show it yet):\n  ${resume} --check-in`
        : `Check in again after ${after(mine.plan.next)}:\n  ${resume} --check-in`,
    )
  return EXIT.incomplete
}

/** How long a check-in waits on a notary that does not answer before it ends and says so. */
const CHECK_IN_UNREACHABLE_MS = 15_000

/** A reveal window too short to meet by checking in by hand: whoever misses it withholds (S-62), and pays. */
const SHORT_REVEAL_WINDOW_MS = 120_000

export function revealWindowWarning(ms: number): string {
  return ms >= SHORT_REVEAL_WINDOW_MS
    ? ''
    : ` That window is only ${Math.max(0, Math.round(ms / 1000))} s: a check-in by hand is likely to miss it, and orders not revealed are withheld and fined (S-62). Keep your node running (join without --check-in) to reveal on time.`
}

function finish(
  io: CliIo,
  r: CheckinResult,
  s: ReturnType<typeof witnessedScreen>,
  labels: readonly string[],
  seats: readonly Seat[],
  self: number,
  file: string,
  cmd: string,
): number {
  const d = r.witnessed.decision
  const last = d.ticks.filter((t) => t.outcome !== undefined).at(-1)?.outcome?.state
  s.say('')
  if (last !== undefined) for (const l of standingsLines(last, seats, self, s.columns)) s.say(l)
  for (const l of witnessedLines(d, labels)) s.tell(l)
  io.stdout(
    `Your transcript: ${file} (check it: ${cmd} verify ${/^[\w./:@+-]+$/.test(file) ? file : JSON.stringify(file)})\n`,
  )
  // As verify exits on this file: a proven offence first, a complete game with one included.
  return d.offences.length > 0 ? EXIT.illegal : d.end.kind === 'complete' ? EXIT.ok : EXIT.incomplete
}
