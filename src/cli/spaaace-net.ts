/**
 * `spaceships spaaace host` and `spaaace join`: Spaaace! among people on different machines
 * (protocol/SPAAACE-PEERS.md). The host names the players by their PeerIds (each runs
 * `spaceships id`), may fill seats with bots that run in its own process, each a node with its own
 * key, and composes the genesis; the invite carries it and the addresses of the host and its bots.
 * Every player joins with the invite: its node accepts the genesis (§3.2), keeps a stream to every
 * peer it can reach, and plays each tick on its own clock (§6), persisting every envelope first.
 * Running `join` again with the same invite resumes the game where its transcript stands (§6.8).
 *
 * Links: every node dials the addresses the invite gives (the host's and its bots'); players who
 * join learn each other's from the signed peer records the nodes pass on (§8 Addresses) and dial
 * each other directly, or through a relay (`--relay`, whose circuit addresses the invite then
 * carries for everyone); failing both, they reach each other through the host's nodes, which
 * forward every envelope (§8).
 */
import type { Libp2p } from '@libp2p/interface'
import { peerIdFromString } from '@libp2p/peer-id'
import { multiaddr } from '@multiformats/multiaddr'
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fromHex, toHex } from '../core/commit/bytes.js'
import { systemSecrets } from '../core/commit/secrets.js'
import { publicKeyFromRaw } from '@libp2p/crypto/keys'
import { peerIdFromPublicKey } from '@libp2p/peer-id'
import { type Identity, identityFromSecret } from '../core/net/identity.js'
import { createPeerNode, dialRelays } from '../core/net/node.js'
import { type Clock, systemClock } from '../core/session/clock.js'
import { randomBot } from '../games/spaaace/bot/random.js'
import { sensibleBot } from '../games/spaaace/bot/sensible.js'
import { botChooser, personChooser } from '../games/spaaace/node/choosers.js'
import { formatSpaaaceInvite, parseSpaaaceInvite } from '../games/spaaace/node/invite.js'
import { composeGenesis, defaultPeersTerms } from '../games/spaaace/node/local.js'
import { runNetPeer } from '../games/spaaace/node/net.js'
import type { Chooser, PeerEvents } from '../games/spaaace/node/peer.js'
import { fileSecrets } from '../games/spaaace/node/secrets.js'
import { spaaaceFileStore } from '../games/spaaace/node/store.js'
import { type Decision, type End, decide } from '../games/spaaace/peers/decide.js'
import {
  MAX_MARGIN_MS,
  MIN_MARGIN_MS,
  SKEW_MS,
  THINK_MS,
  commitMsFloor,
  revealMsFloor,
  stallMs,
} from '../games/spaaace/peers/domain.js'
import { type SealedGenesis, type Timing, tickTimes } from '../games/spaaace/peers/genesis.js'
import { readPeersTranscript } from '../games/spaaace/peers/transcript.js'
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
import { decisionLines, endLine } from '../games/spaaace/verify/report.js'
import { RelayError } from '../games/spaceships/net/options.js'
import { identityFor } from './identity.js'
import { type PeerNames, peerNamesFor } from './peer-names.js'
import { lockGame, spaaaceRoot } from './games.js'
import { unfinishedNote } from './spaaace-games.js'
import { type CliIo, EXIT, UserError, commandName, fileReason } from './io.js'
import { DEFAULT_LISTEN } from './net.js'
import { notaryKeyOf } from '../games/spaceships/net/invite.js'
import { playWitnessedInvite } from './spaaace-witnessed.js'
import { acceptsHeld } from '../games/spaaace/node/witnessed-net.js'

export interface SpaaaceHostFlags {
  readonly player?: string[]
  readonly bots: number
  readonly bot: string
  readonly ticks: number
  readonly marginMs: number
  readonly startIn: number
  readonly identity?: string
  readonly listen?: string[]
  readonly relay?: string[]
  readonly autoplay: boolean
  readonly inviteFile?: string
  /** A witnessed game (SPAAACE-WITNESSED): the notary's multiaddr, ending with its PeerId. */
  readonly notary?: string
  /** The commit and reveal windows in seconds (witnessed games: a move a day is 86400). */
  readonly commitS?: number
  readonly revealS?: number
}

export interface SpaaaceJoinFlags {
  readonly identity?: string
  readonly listen?: string[]
  readonly relay?: string[]
  readonly autoplay: boolean
  /** A witnessed game: check in once with the notary, play what is due, and exit. */
  readonly checkIn?: boolean
}

const env = (io: CliIo): NodeJS.ProcessEnv => io.env ?? process.env

/** `$XDG_STATE_HOME/spaceships/spaaace/<game id>`: the transcript, secrets, invite and the host's bots' keys. */
export function spaaaceGameDir(genesis: SealedGenesis, e: NodeJS.ProcessEnv): string {
  return join(spaaaceRoot(e), genesis.id.slice(0, 16))
}

/** §3.1, §10: the live timing: Δ as given, `commitMs` at the SHOULD value (so a vote that then settles never costs a tick), `revealMs` at its floor. */
export function liveTiming(start: number, marginMs: number): Timing {
  const commitMs = Math.max(commitMsFloor(marginMs), stallMs(marginMs) + 2 * SKEW_MS + THINK_MS)
  return { start, commitMs, revealMs: revealMsFloor(marginMs), marginMs }
}

export function publicKeyOf(peer: string): Uint8Array {
  let id
  try {
    id = peerIdFromString(peer)
  } catch {
    throw new UserError(`--player ${peer}: not a PeerId (each player prints theirs with: spaceships id)`)
  }
  if (id.type !== 'Ed25519')
    throw new UserError(`--player ${peer}: not an Ed25519 PeerId (each player prints theirs with: spaceships id)`)
  return id.publicKey.raw
}

/** The same listen addresses with every TCP port left to the system (`/tcp/0`). */
export function anyPort(listen: readonly string[]): string[] {
  return listen.map((a) => a.replace(/\/tcp\/\d+/, '/tcp/0'))
}

/** Where a node listens, and its addresses for an invite (relay circuits when a relay is used). */
export async function startNode(
  identity: Identity,
  listen: readonly string[],
  relays: readonly string[],
  roster: () => Set<string>,
): Promise<Libp2p> {
  const node = await createPeerNode({
    identity,
    listen: relays.length > 0 ? [...listen, '/p2p-circuit'] : listen,
    admission: () => roster(),
  })
  await node.start()
  try {
    await dialRelays(node, relays)
  } catch (e) {
    await node.stop()
    throw new RelayError(
      `cannot reach the relay ${relays.join(' or ')}: ${(e as Error).message} (is it running, and is the address right?)`,
    )
  }
  return node
}

/** The PeerIds of relays: of `--relay` addresses (their last `/p2p/`), and of circuit addresses (the relay's). */
export function relayIdsOf(addrs: readonly string[]): string[] {
  const out: string[] = []
  for (const a of addrs) {
    const circuit = /\/p2p\/([^/]+)\/p2p-circuit/.exec(a)
    if (circuit?.[1] !== undefined) out.push(circuit[1])
    else if (!a.includes('/p2p-circuit')) {
      const last = /\/p2p\/([^/]+)$/.exec(a)
      if (last?.[1] !== undefined) out.push(last[1])
    }
  }
  return out
}

/** The relays an invite's circuit addresses name (the part before `/p2p-circuit`). */
export function relaysOfInvite(addresses: readonly (readonly string[])[]): string[] {
  const out = new Set<string>()
  for (const list of addresses)
    for (const a of list) if (a.includes('/p2p-circuit')) out.add(a.slice(0, a.indexOf('/p2p-circuit')))
  return [...out]
}

export function addressesOf(node: Libp2p, relays: readonly string[]): string[] {
  const id = node.peerId.toString()
  const own = node
    .getMultiaddrs()
    .map((a) => a.toString())
    .filter((a) => !a.includes('/p2p-circuit'))
  const circuits = relays.map((r) => `${r}/p2p-circuit/p2p/${id}`)
  // Loopback last: another machine cannot use it, this one can.
  const rank = (a: string): number => (a.includes('/127.0.0.1/') || a.includes('/::1/') ? 1 : 0)
  return [...circuits, ...own.sort((x, y) => rank(x) - rank(y))].slice(0, 8)
}

/**
 * Keeps a libp2p connection to each peer whose addresses are known (the invite's): the mesh opens
 * its streams on whatever connection exists, so a peer that cannot dial this node (it has no
 * address for it) still gets a stream once this node has connected to it.
 */
export function keepConnected(
  node: Libp2p,
  targets: readonly { id: string; addrs: readonly string[] }[],
  signal: AbortSignal,
  clock: Clock,
): void {
  for (const t of targets) {
    if (t.addrs.length === 0) continue
    const peer = peerIdFromString(t.id)
    void (async () => {
      let wait = 250
      while (!signal.aborted) {
        if (node.getConnections(peer).length === 0) {
          try {
            await node.peerStore.merge(peer, { multiaddrs: t.addrs.map((a) => multiaddr(a)) })
            await node.dial(peer, { signal: AbortSignal.any([signal, AbortSignal.timeout(10_000)]) })
            wait = 250
          } catch {
            wait = Math.min(10_000, wait * 2)
          }
        }
        await clock.sleep(wait, signal)
        if (node.getConnections(peer).length > 0) wait = 2000
      }
    })()
  }
}

interface SeatRun {
  readonly identity: Identity
  readonly chooser: Chooser
  readonly events?: PeerEvents
  /** Where it listens: the ports the invite names for it, or fresh ones. */
  readonly listen: readonly string[]
  /** A node already started on them (the host's first run, which had to know its ports for the invite). */
  readonly node?: Libp2p
}

const hexOf = (k: Uint8Array): string => toHex(k)

/** §2: the roster's PeerIds, from the genesis keys. */
export function rosterIds(genesis: SealedGenesis): string[] {
  return genesis.genesis.keys.map((k) => peerIdFromPublicKey(publicKeyFromRaw(k)).toString())
}

/** Listen addresses on the TCP ports of an invite's addresses for one peer (a resumed node keeps its ports). */
export function listenOn(addrs: readonly string[]): string[] {
  const out = new Set<string>()
  for (const a of addrs) {
    if (a.includes('/p2p-circuit')) continue
    const m = /\/tcp\/(\d+)(\/ws)?/.exec(a)
    if (m !== null) out.add(`/ip4/0.0.0.0/tcp/${m[1] ?? '0'}${m[2] ?? ''}`)
  }
  return [...out]
}

/** Runs this process's seats (the player's and, for the host, its bots) until each has ended or the player quits. */
async function runSeats(
  genesis: SealedGenesis,
  addresses: readonly (readonly string[])[],
  seats: readonly SeatRun[],
  dir: string,
  relays: readonly string[],
  signal: AbortSignal,
  onAlone: () => void,
  onReach?: (peer: number, reachable: boolean, standing: Standing) => void,
): Promise<{ decisions: (Decision | undefined)[]; quit: boolean }> {
  const clock = systemClock
  const roster = rosterIds(genesis)
  // Relays are let through the gate too (SPEC §2.3's relay rules): the flag's and the invite's.
  const admitted = new Set([...roster, ...relayIdsOf(relays)])
  // Every roster peer can be dialled through each relay once it holds a slot there (§8 "through
  // relays where needed"): players who joined reach each other directly, not only through the host.
  const hints = roster.map((id, i) =>
    [...(addresses[i] ?? []), ...relays.map((r) => `${r}/p2p-circuit/p2p/${id}`)].slice(0, 12),
  )
  const runs = await Promise.all(
    seats.map(async (s) => {
      const self = genesis.genesis.keys.findIndex((k) => hexOf(k) === hexOf(s.identity.keys.publicKey))
      let node = s.node
      if (node === undefined) {
        try {
          node = await startNode(s.identity, s.listen, relays, () => admitted)
        } catch {
          // The ports are taken: fresh ones; the others reach this node by its connections to them.
          node = await startNode(s.identity, DEFAULT_LISTEN, relays, () => admitted)
        }
      }
      const path = join(dir, `p${self + 1}.transcript`)
      const store = spaaaceFileStore(path, genesis, self)
      const secrets = fileSecrets(join(dir, `p${self + 1}.secrets`), systemSecrets)
      keepConnected(
        node,
        roster.flatMap((id, i) => (i === self ? [] : [{ id, addrs: hints[i] ?? [] }])),
        signal,
        clock,
      )
      const net = await runNetPeer({
        node,
        genesis,
        self,
        keys: s.identity.keys,
        roster,
        addresses: hints,
        store,
        secrets,
        chooser: s.chooser,
        ...(s.events === undefined ? {} : { events: s.events }),
        clock,
        signal,
      })
      return { node, net, path, self }
    }),
  )
  const first = runs[0]
  const check =
    first === undefined
      ? undefined
      : reachWatch(
          roster.length,
          first.self,
          (i) => first.net.reaches(i),
          onAlone,
          (i, reachable) => {
            // §5.1: the players of the tick in play this node reaches with itself, against its majority.
            const view = first.net.peer.decision().ticks.at(-1)
            const active = view?.active ?? roster.map((_, k) => k)
            const reached = active.filter((p) => p === first.self || first.net.reaches(p)).length
            onReach?.(i, reachable, {
              reached,
              active: active.length,
              majority: view?.majority ?? Math.floor(roster.length / 2) + 1,
            })
          },
        )
  const watch = setInterval(() => {
    if (first !== undefined && first.net.peer.ended === undefined) check?.()
  }, 5000)
  await Promise.all(runs.map((r) => r.net.done))
  clearInterval(watch)
  for (const r of runs) await r.node.stop()
  const decisions = runs.map((r) => {
    const read = readPeersTranscript(readFileSync(r.path, 'latin1'))
    return read.ok ? decide(read.value.genesis, read.value.envelopes) : undefined
  })
  return { decisions, quit: signal.aborted }
}

/**
 * One check of who this node reaches, every few seconds: a node that reaches nobody for three
 * checks says so once, so its player is not left guessing (it keeps trying); a player it had
 * reached, lost for two checks while others are still reached, is named, and named again once back
 * (a host killed with its bots left the others told nothing for as long as the game went on).
 */
export function reachWatch(
  players: number,
  self: number,
  isConnected: (peer: number) => boolean,
  onAlone: () => void,
  onReach?: (peer: number, reachable: boolean) => void,
): () => void {
  let alone = 0
  const peers = Array.from({ length: players }, () => ({ seen: false, down: 0, told: false }))
  return () => {
    const up = peers.map((_, i) => i !== self && isConnected(i))
    alone = up.some((u) => u) ? 0 : alone + 1
    if (alone === 3) {
      onAlone()
      // Each one reached before is named once back.
      for (const p of peers) if (p.seen) p.told = true
    }
    peers.forEach((p, i) => {
      if (i === self) return
      if (up[i] === true) {
        if (p.told) onReach?.(i, true)
        Object.assign(p, { seen: true, down: 0, told: false })
      } else if (p.seen && ++p.down === 2 && alone === 0) {
        p.told = true
        onReach?.(i, false)
      }
    })
  }
}

/** What this node reaches of the tick in play (§5.1): active players with itself, of how many, against the majority. */
export interface Standing {
  readonly reached: number
  readonly active: number
  readonly majority: number
}

/**
 * What the screen says of a player lost or back. Lost, it says whether this node still reaches a
 * majority of the active players with itself (§5.1): a host killed with its bots can take the
 * majority with it, and "the game goes on" had been said while nothing could settle.
 */
export function reachLine(who: string, reachable: boolean, standing: Standing, now: Date): string {
  if (reachable) return `${who} is reachable again.`
  const { reached, active, majority } = standing
  const after =
    reached >= majority
      ? 'The game goes on while a majority of the players play (SPAAACE-PEERS.md §7.3); a player away long enough is removed (S-81).'
      : `Your node reaches ${reached} of the ${active} active players with itself, and a tick needs ${majority}: none settles until enough of the others are back (SPAAACE-PEERS.md §5.1); it waits for them.`
  return `${who} is unreachable since ${now.toISOString().slice(11, 19)} UTC; your node keeps trying. ${after}`
}

/** The person's screen: the galaxy each tick, what happened, the end. */
export function personSeat(
  io: CliIo,
  genesis: SealedGenesis,
  self: number,
  labels: readonly string[],
  seats: readonly Seat[],
  autoplay: boolean,
  quit: AbortController,
): { chooser: Chooser; events: PeerEvents } {
  const columns = Math.min(SCREEN_COLUMNS, io.columns ?? SCREEN_COLUMNS)
  const say = (l: string): void => {
    io.stdout(`${l}\n`)
  }
  const tell = (l: string): void => {
    for (const x of wrapLine(l, columns)) say(x)
  }
  const events: PeerEvents = {
    onReady(t, state, plays) {
      const due = tickTimes(genesis.genesis.timing, t).guard
      say('')
      for (const l of renderScreen({
        state,
        seats,
        viewer: self,
        columns,
        timeLeftMs: Math.max(0, due - Date.now()),
        dueAt: due,
      }))
        say(l)
      // A removed player orders nothing more (S-03), which its screen says; §6.0 is for one still playing.
      if (!plays && state.players[self]?.status === 'active')
        tell(`Tick ${t} came too late to choose (§6.0): your node skips it and commits nothing.`)
    },
    onLateChoice(t) {
      tell(`Your orders for tick ${t} came after its deadline: nothing was committed (S-61).`)
    },
    onRecovering(held, signed) {
      tell(
        `Your transcript holds ${held} of the ${signed} envelopes your node signed: it was lost or replaced by an older copy. Your node signs nothing until the other players send them back, since signing again where it has signed would be a fork you would be convicted of (§6.8). If the last one never left this machine, nobody can send it, and you sit out the rest of the game.`,
      )
    },
    onRecovered(signed) {
      tell(`Your ${signed} envelopes are back from the other players: your node plays on.`)
    },
    onSeedLost(held) {
      tell(
        `Your node signed ${held} envelopes in this game, but its secrets file (p${self + 1}.secrets, beside the transcript) was made afresh: the seed that salted its commitments is gone, so it can open none of them, and it signs nothing more (§6.8). You will be counted missing (S-61). If you have the old file, stop (Ctrl-C), put it back, and join again.`,
      )
    },
    onSettled(view) {
      if (view.outcome === undefined) return
      say('')
      for (const l of tellTick(view.outcome, seats, self, columns)) say(l)
      // S-62 is the rules' word for a commitment never opened, whatever the cause; a player whose
      // node was stopped or cut off between its commit and its reveal hears that this is the cause.
      if (view.outcome.events.some((e) => e.kind === 'penalty' && e.cause === 'withheld' && e.player === self))
        tell(
          `Your node committed your orders for tick ${view.t}, but its reveal was not among those the tick counted by its reveal cut (your node was stopped or cut off in between, or it reached the others late): the rules count them as withheld (S-62), a penalty, not an offence.`,
        )
    },
    onEnd(_end, d) {
      const last = d.ticks.filter((v) => v.outcome !== undefined).at(-1)?.outcome?.state
      say('')
      if (last !== undefined) for (const l of standingsLines(last, seats, self, columns)) say(l)
      for (const l of decisionLines(d, labels)) tell(l)
    },
  }
  if (autoplay) return { chooser: botChooser(sensibleBot(), seededRng(`${genesis.id}/${self}`)), events }
  const prompter = io.prompter?.()
  if (prompter === undefined)
    throw new UserError(
      'Spaaace! asks for your orders on a terminal, and standard input is not one; --autoplay lets a sensible bot play your seat',
    )
  return {
    chooser: personChooser({
      prompter,
      labels,
      guide: () => orderGuide(columns),
      print: say,
      onQuit: () => {
        quit.abort()
      },
      // The commit guard G_t is on the wall clock here: the prompt counts down to it (§6.1).
      timeLeft: (view) => `${timeText(Math.max(0, view.deadline - Date.now()))} left`,
      clock: systemClock,
    }),
    events,
  }
}

/**
 * The seats as this player's screen shows them: "you", the bots this process runs, and every other
 * player by its label and the name this player pinned to its PeerId, if any (the labels stay p1..pN:
 * orders name players by them).
 */
export function seatsFor(
  genesis: SealedGenesis,
  self: number,
  bots: ReadonlyMap<number, string>,
  names?: PeerNames,
): { seats: Seat[]; labels: string[] } {
  const ids = rosterIds(genesis)
  const seats: Seat[] = ids.map((id, i) => {
    const bot = bots.get(i)
    const name = bot === undefined ? names?.pinnedAs(id) : undefined
    return i === self
      ? { label: 'you' }
      : { label: `p${i + 1}`, ...(bot === undefined ? {} : { bot }), ...(name === undefined ? {} : { name }) }
  })
  return { seats, labels: seats.map((s) => s.label) }
}

/**
 * Who plays which seat, for the start screen: each other player by the name this player pinned to
 * its PeerId (and its tail), else by its whole PeerId, which `names pin` takes; the bots this
 * process runs. One line a seat.
 */
export function rosterLine(genesis: SealedGenesis, self: number, seats: readonly Seat[], names: PeerNames): string {
  const ids = rosterIds(genesis)
  const who = ids.map((id, i) => {
    const bot = seats[i]?.bot
    if (i === self) return `  p${i + 1} you`
    if (bot !== undefined) return `  p${i + 1} a ${bot} bot run here`
    return `  p${i + 1} ${names.pinnedAs(id) === undefined ? id : (names.label(id) ?? id)}`
  })
  const unnamed = ids.some((id, i) => i !== self && seats[i]?.bot === undefined && names.pinnedAs(id) === undefined)
  return `Players:\n${who.join('\n')}\n${unnamed ? `Name a player with: ${names.command} names pin PEERID NAME\n` : ''}`
}

const BOT_FILE = /^bot-p(\d+)\.key$/

/** The bots this process runs for a game it hosts: their keys are in the game's directory. */
export async function storedBots(
  dir: string,
  genesis: SealedGenesis,
): Promise<{ index: number; identity: Identity; kind: string }[]> {
  if (!existsSync(dir)) return []
  const out: { index: number; identity: Identity; kind: string }[] = []
  for (const f of readdirSync(dir)) {
    const m = BOT_FILE.exec(f)
    if (m === null) continue
    const [hex, kind] = readFileSync(join(dir, f), 'utf8').trim().split(' ')
    const secret = fromHex(hex ?? '')
    if (secret.length !== 32) continue
    const identity = await identityFromSecret(secret)
    const index = genesis.genesis.keys.findIndex((k) => toHex(k) === toHex(identity.keys.publicKey))
    if (index >= 0) out.push({ index, identity, kind: kind ?? 'sensible' })
  }
  return out
}

/** Plays (or resumes) the game of `invite` with this identity, and the bots stored for it. */
async function playInvite(
  io: CliIo,
  inviteText: string,
  f: SpaaaceJoinFlags,
  started?: ReadonlyMap<string, Libp2p>,
): Promise<number> {
  const parsed = parseSpaaaceInvite(inviteText)
  if (!parsed.ok) throw new UserError(`the invite: ${parsed.reason}`)
  if (parsed.invite.genesis.genesis.notaryKey !== null) return playWitnessedInvite(io, parsed.invite, f, started)
  if (f.checkIn === true) throw new UserError('--check-in is for witnessed games (an invite naming a notary)')
  const { genesis, addresses } = parsed.invite
  const identity = await identityFor({ ...f, bot: 'sensible' }, io)
  const self = genesis.genesis.keys.findIndex((k) => hexOf(k) === hexOf(identity.keys.publicKey))
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
    const invite = formatSpaaaceInvite(genesis, addresses)
    writeFileSync(join(dir, 'invite'), `${invite}\n`)
    const bots = await storedBots(dir, genesis)
    const names = peerNamesFor(io)
    const { seats, labels } = seatsFor(genesis, self, new Map(bots.map((b) => [b.index, b.kind])), names)
    const quit = new AbortController()
    // A game its own file already decides over asks nothing more (no tick is left to choose): run
    // again, it needs no terminal, and says its end at once.
    const over = overInFile(join(dir, `p${self + 1}.transcript`), genesis, self)
    const person = personSeat(io, genesis, self, labels, seats, f.autoplay || over !== undefined, quit)
    // SPAAACE-PEERS §3: the game begins only once every player has accepted. Past tick 1's start
    // with no tick begun, who has not accepted is said, and what then (a new game without them).
    let begun = false
    const events: PeerEvents = {
      ...person.events,
      onReady: (t, state, plays) => {
        begun = true
        person.events.onReady?.(t, state, plays)
      },
    }
    const acceptNote = setTimeout(
      () => {
        if (begun) return
        const missing = missingAccepts(join(dir, `p${self + 1}.transcript`), genesis)
        if (missing.length === 0) return
        io.stdout(
          `${wrapLine(
            `Tick 1 was due at ${new Date(genesis.genesis.timing.start).toISOString()}, and ${missing.map((i) => (labels[i] === undefined || labels[i] === `p${i + 1}` ? `p${i + 1}` : `p${i + 1} (${labels[i]})`)).join(', ')} ${missing.length === 1 ? 'has' : 'have'} not accepted yet: the game begins once every player has (SPAAACE-PEERS.md §3). If they never come, leave (Ctrl-C) and host a new game without them.`,
            Math.min(SCREEN_COLUMNS, io.columns ?? SCREEN_COLUMNS),
          ).join('\n')}\n`,
        )
      },
      // A node started after tick 1's start (a resumed one) first gives the others' resends time
      // to bring the accepts its file lacks (a transcript restored from a copy): said at once, the
      // note named players who had long accepted, in a game at tick 4.
      Math.max(0, genesis.genesis.timing.start - Date.now()) + ACCEPT_NOTE_MS,
    )
    acceptNote.unref()
    const cmd = commandName(env(io))
    const t1 = genesis.genesis.timing.start
    const tickSeconds = Math.round((tickTimes(genesis.genesis.timing, 2).start - t1) / 1000)
    // Resumed past tick 1's start, it catches up whatever its file holds (a file restored from a
    // copy may lack accepts the others hold); the note above says who has not accepted, if anyone.
    const accepted =
      started === undefined &&
      (missingAccepts(join(dir, `p${self + 1}.transcript`), genesis).length === 0 || t1 < Date.now())
    io.stdout(
      `Spaaace! game ${genesis.id.slice(0, 16)}, ${genesis.genesis.keys.length} players, you are p${self + 1}${
        bots.length > 0 ? `, ${bots.length} ${bots.length === 1 ? 'bot runs' : 'bots run'} here` : ''
      }${
        // The host sends the invite (DESIGN §7); a joiner or a resumed node is told where it is kept.
        started !== undefined
          ? `. Invite (each player runs: ${cmd} spaaace join <invite>):\n\n${invite}\n\n`
          : ` (the invite is kept in ${join(dir, 'invite')}).\n`
      }${rosterLine(genesis, self, seats, names)}${
        // A node resumed after every accept is held: the game began (or is over); said so, not
        // "Waiting for every player to accept" again.
        over !== undefined
          ? `This game is over in your transcript: ${endLine(over, labels)}. Your node stays online a few seconds, so that a player still catching up can get what it holds...\n`
          : accepted
            ? `Tick 1 started at ${new Date(t1).toISOString()}; a tick lasts ${tickSeconds} s. Resuming: your node catches up with the others...\n`
            : `Tick 1 starts at ${new Date(t1).toISOString()}; a tick lasts ${tickSeconds} s. Waiting for every player to accept...\n`
      }`,
    )
    const ownListen = (i: number): string[] => {
      const fromInvite = listenOn(addresses[i] ?? [])
      return fromInvite.length > 0 ? fromInvite : (f.listen ?? DEFAULT_LISTEN)
    }
    const nodeOf = (id: Identity): { node?: Libp2p } => {
      const node = started?.get(id.peerId.toString())
      return node === undefined ? {} : { node }
    }
    const runs: SeatRun[] = [
      {
        identity,
        chooser: person.chooser,
        events,
        listen: f.listen ?? ownListen(self),
        ...nodeOf(identity),
      },
      ...bots.map((b) => ({
        identity: b.identity,
        chooser: botChooser(
          b.kind === 'random' ? randomBot : sensibleBot(),
          seededRng(`${hexOf(b.identity.keys.publicKey)}/${genesis.id}`),
        ),
        listen: ownListen(b.index),
        ...nodeOf(b.identity),
      })),
    ]
    const relays = [...new Set([...(f.relay ?? []), ...relaysOfInvite(addresses)])]
    const columns = Math.min(SCREEN_COLUMNS, io.columns ?? SCREEN_COLUMNS)
    // Ctrl-C while no prompt is open (waiting, or --autoplay) leaves as `quit` does: the nodes stop
    // signing and the player is told how to resume (it had ended the process with 130, saying nothing).
    const onSigint = (): void => {
      quit.abort()
    }
    process.once('SIGINT', onSigint)
    const result = await runSeats(
      genesis,
      addresses,
      runs,
      dir,
      relays,
      quit.signal,
      () => {
        io.stdout(
          `No other player is reachable now; your node keeps trying. Ctrl-C leaves (the game is kept: ${cmd} spaaace join @${join(dir, 'invite')} resumes it).\n`,
        )
      },
      (i, reachable, standing) => {
        const who = `p${i + 1}${labels[i] === `p${i + 1}` || labels[i] === undefined ? '' : ` (${labels[i]})`}`
        const line = reachLine(who, reachable, standing, new Date())
        io.stdout(`${wrapLine(line, columns).join('\n')}\n`)
      },
    )
    process.removeListener('SIGINT', onSigint)
    clearTimeout(acceptNote)
    const mine = result.decisions[0]
    if (result.quit) {
      io.stdout(
        `You left the game; your node signed nothing more. Resume it with: ${cmd} spaaace join @${join(dir, 'invite')}\n`,
      )
      return EXIT.abandoned
    }
    const file = join(dir, `p${self + 1}.transcript`)
    io.stdout(
      `Your transcript: ${file} (check it: ${cmd} verify ${/^[\w./:@+-]+$/.test(file) ? file : JSON.stringify(file)})\n`,
    )
    if (mine === undefined) return EXIT.unreadable
    // As verify exits on these files (verify-spaaace.ts): a proven offence first, a complete game with one included.
    return mine.offences.length > 0 ? EXIT.illegal : mine.end.kind === 'complete' ? EXIT.ok : EXIT.incomplete
  } finally {
    release()
  }
}

/**
 * §5.1: a tick settles only with a majority of the active players (`⌊n/2⌋ + 1`). The host's bots
 * run in its process, so with enough of them a crash of that one process leaves the others short
 * of it: no tick settles until it is back, and a tick it misses may end the game stalled (§5.7).
 * Said when hosting (a host killed for 7 s in tick 4 of a 4-seat game with one bot stalled it for
 * everyone, told nothing beforehand), undefined when the others are a majority without it.
 */
export function hostMajorityNote(n: number, bots: number): string | undefined {
  const here = 1 + bots
  const majority = Math.floor(n / 2) + 1
  if (n - here >= majority) return undefined
  return `Note: you and your ${bots === 1 ? 'bot' : `${bots} bots`} play ${here} of the ${n} seats, all in this process. Without it the other players are ${n - here}, fewer than the ${majority} a tick needs (SPAAACE-PEERS.md §5.1): if it stops, no tick settles until it is back, and a tick it misses may end the game stalled for everyone (§5.7). Keep it running, or host with fewer bots.`
}

/** The end `self`'s own transcript decides, if it decides one that no more evidence can change (§5.7). */
function overInFile(file: string, genesis: SealedGenesis, self: number): End | undefined {
  let text: string
  try {
    text = readFileSync(file, 'latin1')
  } catch {
    return undefined
  }
  const read = readPeersTranscript(text)
  if (!read.ok) return undefined
  const end = decide(genesis, read.value.envelopes, { self }).end
  return end.kind === 'stalled' || (end.kind === 'complete' && end.provisional !== true) ? end : undefined
}

/** How long after tick 1's start, with no tick begun, a player is told who has not accepted. */
const ACCEPT_NOTE_MS = 20_000

/** The roster indices whose accept (§3) this node's transcript file does not hold. */
export function missingAccepts(file: string, genesis: SealedGenesis): number[] {
  let lines: string[]
  try {
    lines = readFileSync(file, 'latin1').split('\n').slice(2)
  } catch {
    lines = []
  }
  const held = acceptsHeld(genesis, {
    envelopes: () => lines.filter((l) => l !== '').map((l) => new Uint8Array(Buffer.from(l, 'base64url'))),
  })
  return held.flatMap((a, i) => (a === undefined ? [i] : []))
}

export async function spaaaceJoinCommand(io: CliIo, invite: string, f: SpaaaceJoinFlags): Promise<number> {
  let text = invite
  if (invite.startsWith('@')) {
    try {
      text = new TextDecoder().decode(await io.readFile(invite.slice(1)))
    } catch (e) {
      throw new UserError(
        `cannot read the invite ${invite.slice(1)}: ${(e as NodeJS.ErrnoException).code !== undefined ? fileReason((e as NodeJS.ErrnoException).code ?? '') : String(e)}`,
      )
    }
  }
  return playInvite(io, text, f)
}

/** SPAAACE-WITNESSED §2: the windows a witnessed game's host asks for, at least the live floors (P §3.1). */
function windows(live: Timing, f: SpaaaceHostFlags): Timing {
  const commitMs = f.commitS === undefined ? live.commitMs : f.commitS * 1000
  const revealMs = f.revealS === undefined ? live.revealMs : f.revealS * 1000
  if (commitMs < live.commitMs)
    throw new UserError(`--commit-s: at least ${Math.ceil(live.commitMs / 1000)} with this Δ`)
  if (revealMs < live.revealMs)
    throw new UserError(`--reveal-s: at least ${Math.ceil(live.revealMs / 1000)} with this Δ`)
  return { ...live, commitMs, revealMs }
}

export async function spaaaceHostCommand(io: CliIo, f: SpaaaceHostFlags): Promise<number> {
  const identity = await identityFor({ ...f, bot: 'sensible' }, io)
  const players = f.player ?? []
  // Each --player read first: a PeerId mistyped is said as such, not as a wrong number of players.
  const others = players.map(publicKeyOf)
  const n = 1 + players.length + f.bots
  if (n < 3 || n > 16)
    throw new UserError(
      `a game has 3 to 16 players (S-01): you, ${players.length} named with --player and ${f.bots} ${f.bots === 1 ? 'bot' : 'bots'} make ${n}`,
    )
  if (f.marginMs < MIN_MARGIN_MS || f.marginMs > MAX_MARGIN_MS)
    throw new UserError(`--margin-ms: ${MIN_MARGIN_MS} to ${MAX_MARGIN_MS}`)
  const majorityNote = hostMajorityNote(n, f.bots)
  if (majorityNote !== undefined)
    io.stdout(`${wrapLine(majorityNote, Math.min(SCREEN_COLUMNS, io.columns ?? SCREEN_COLUMNS)).join('\n')}\n`)
  // The command run again starts a new game: the player's unfinished ones are named, so that it is
  // a choice (a host coming back after a crash had started a second game, told nothing).
  const note = unfinishedNote(env(io), identity.keys.publicKey, commandName(env(io)))
  if (note !== undefined)
    io.stdout(`${wrapLine(note, Math.min(SCREEN_COLUMNS, io.columns ?? SCREEN_COLUMNS)).join('\n')}\n`)
  const botSecrets = Array.from({ length: f.bots }, () => systemSecrets.bytes(32))
  const botIds = await Promise.all(botSecrets.map((s) => identityFromSecret(s)))
  const keys = [identity.keys.publicKey, ...others, ...botIds.map((b) => b.keys.publicKey)]
  if (new Set(keys.map(hexOf)).size !== keys.length) throw new UserError('a player is named twice (or is you)')
  const relays = f.relay ?? []
  const listen = f.listen ?? DEFAULT_LISTEN
  const admitted = new Set<string>(relayIdsOf(relays))
  // This process's nodes listen first: the invite carries their addresses. The bots listen where
  // the host does, on ports the system chooses: one port cannot serve several nodes.
  const nodes = await Promise.all(
    [identity, ...botIds].map((id, i) => startNode(id, i === 0 ? listen : anyPort(listen), relays, () => admitted)),
  )
  const notary = f.notary === undefined ? undefined : notaryKeyOf(f.notary)
  if (notary !== undefined && !notary.ok) throw new UserError(`--notary: ${notary.message}`)
  if (notary === undefined && (f.commitS !== undefined || f.revealS !== undefined))
    throw new UserError('--commit-s and --reveal-s are for witnessed games (--notary)')
  const timing = windows(liveTiming(Date.now() + f.startIn * 1000, f.marginMs), f)
  const { genesis, rosterIndex } = composeGenesis(
    keys,
    defaultPeersTerms(f.ticks),
    timing,
    systemSecrets.bytes(32),
    notary?.key ?? null,
  )
  for (const id of rosterIds(genesis)) admitted.add(id)
  // A witnessed game's nodes dial its notary (SPAAACE-WITNESSED §9.1).
  if (notary?.ok === true) admitted.add(notary.peer)
  const addresses: string[][] = Array.from({ length: n }, () => [])
  nodes.forEach((node, k) => {
    const drawn = k === 0 ? 0 : 1 + players.length + (k - 1)
    addresses[rosterIndex[drawn] ?? 0] = addressesOf(node, relays)
  })
  const dir = spaaaceGameDir(genesis, env(io))
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  botIds.forEach((b, k) => {
    const index = rosterIndex[1 + players.length + k] ?? 0
    const kind = f.bot === 'mix' ? (k % 2 === 1 ? 'random' : 'sensible') : f.bot
    writeFileSync(join(dir, `bot-p${index + 1}.key`), `${toHex(botSecrets[k] ?? new Uint8Array())} ${kind}\n`, {
      mode: 0o600,
    })
  })
  const invite = formatSpaaaceInvite(genesis, addresses, f.notary === undefined ? undefined : [f.notary])
  if (f.inviteFile !== undefined) await io.writeFile(f.inviteFile, `${invite}\n`)
  const started = new Map([identity, ...botIds].map((id, k) => [id.peerId.toString(), nodes[k] as Libp2p]))
  return playInvite(io, invite, f, started)
}
