/**
 * Names at the command line (SPEC §2.4 kind 6): `spaceships name` sets the name this player sends,
 * `spaceships names` lists the address book and pins or unpins a name to a player's key.
 * address-book.ts keeps the files; ui/names.ts decides how a peer is shown.
 */
import { shortId } from '../games/spaceships/ui/panel.js'
import { type AddressBook, keysPinnedAs, pinnedName } from '../games/spaceships/ui/names.js'
import {
  PEER_ID,
  bookPath,
  checkedName,
  peerIdProblem,
  readBook,
  readOwnName,
  writeBook,
  writeOwnName,
} from './address-book.js'
import { existsSync } from 'node:fs'
import { defaultIdentityPath, loadOrCreateIdentity } from '../core/net/identity.js'
import { findGame } from './games.js'
import { type CliIo, EXIT, UserError, commandName } from './io.js'

const env = (io: CliIo): NodeJS.ProcessEnv => io.env ?? process.env

/** `spaceships name [NAME]`: shows, sets or (`--clear`) clears the name this player sends. */
export function nameCommand(io: CliIo, name: string | undefined, f: { clear?: boolean; json?: boolean }): number {
  const cmd = commandName(env(io))
  if (name !== undefined && f.clear === true) throw new UserError('give a name or --clear, not both')
  if (name !== undefined) writeOwnName(checkedName(name), env(io))
  if (f.clear === true) writeOwnName(undefined, env(io))
  const now = readOwnName(env(io))
  if (f.json === true) {
    io.stdout(`${JSON.stringify({ name: now ?? null })}\n`)
    return EXIT.ok
  }
  const what =
    name !== undefined ? `Your name is now ${now ?? ''}` : now === undefined ? undefined : `Your name is ${now}`
  io.stdout(
    what === undefined
      ? `You have no name set: your opponents see only your PeerId's tail. Set one: ${cmd} name NAME\n`
      : `${what}: sent to your opponent at the start of each game of protocol version 4 (never signed, never in a transcript; they see it beside your PeerId's tail, as your own claim unless they pinned it). Change it: ${cmd} name NAME, or give --name for one game\n`,
  )
  return EXIT.ok
}

/** `spaceships names`: the address book, one pin a line, sorted by name. */
export function namesListCommand(io: CliIo, f: { json?: boolean }): number {
  const book = readBook(env(io))
  const pins = Object.entries(book.pins).sort(([pa, a], [pb, b]) => a.localeCompare(b) || pa.localeCompare(pb))
  if (f.json === true) {
    io.stdout(
      `${JSON.stringify(
        pins.map(([peer, name]) => ({ name, peer })),
        null,
        2,
      )}\n`,
    )
    return EXIT.ok
  }
  const cmd = commandName(env(io))
  if (pins.length === 0) {
    io.stdout(
      `Your address book is empty. Pin a name to a player's key: ${cmd} names pin ID NAME (ID: their PeerId, or the id of a game against them, as ${cmd} games prints it)\n`,
    )
    return EXIT.ok
  }
  const width = Math.max(...pins.map(([, n]) => n.length))
  for (const [peer, name] of pins) io.stdout(`${name.padEnd(width)}  ${peer}\n`)
  io.stdout(`\n${bookPath(env(io))}; a pinned name is shown whatever name that key sends\n`)
  return EXIT.ok
}

/** A player named on the command line: a PeerId, or a game (id or its first characters) against them. */
async function playerOf(io: CliIo, ref: string): Promise<{ peer: string; claimed?: string }> {
  if (PEER_ID.test(ref)) {
    const problem = await peerIdProblem(ref)
    if (problem !== undefined) throw new UserError(`${ref}: ${problem}`)
    return { peer: ref }
  }
  if (!/^[0-9a-f]{4,32}$/.test(ref))
    throw new UserError(
      `${JSON.stringify(ref)} is neither a PeerId (12D3KooW...) nor a game id (see: ${commandName(env(io))} games)`,
    )
  const meta = findGame(ref, env(io))
  if (meta.against !== undefined) throw new UserError(`game ${meta.id.slice(0, 8)} was against the ${meta.against} bot`)
  if (meta.opponent === undefined) throw new UserError(`game ${meta.id.slice(0, 8)} has no opponent yet`)
  return { peer: meta.opponent, ...(meta.opponentName === undefined ? {} : { claimed: meta.opponentName }) }
}

/**
 * This player's PeerId when its identity exists (never created here: pinning needs no key), or
 * undefined when there is none or it cannot be read (a game command reports that, not a pin).
 */
async function ownPeerId(io: CliIo): Promise<string | undefined> {
  const path = defaultIdentityPath(env(io))
  if (!existsSync(path)) return undefined
  try {
    return (await loadOrCreateIdentity(path)).identity.peerId.toString()
  } catch {
    return undefined
  }
}

/** `spaceships names pin ID [NAME]`: NAME defaults to the name the game's opponent sent. */
export async function namesPinCommand(io: CliIo, ref: string, name: string | undefined): Promise<number> {
  const { peer, claimed } = await playerOf(io, ref)
  if ((await ownPeerId(io)) === peer)
    throw new UserError(
      `${peer} is your own PeerId: a pin names another player's key. Set the name you send with: ${commandName(env(io))} name NAME`,
    )
  const given = name ?? claimed
  if (given === undefined) throw new UserError(`give the name to pin to ${peer}`)
  const chosen = checkedName(given)
  const book = readBook(env(io))
  const before = pinnedName(book, peer)
  const others = keysPinnedAs(book, chosen).filter((k) => k !== peer)
  if (before === chosen) {
    io.stdout(`${peer} is already pinned as ${chosen}\n`)
    return EXIT.ok
  }
  const next: AddressBook = { pins: { ...book.pins, [peer]: chosen } }
  writeBook(next, env(io))
  io.stdout(
    `Pinned ${chosen} to ${peer}${before === undefined ? '' : ` (it was ${before})`}: shown as ${chosen} (${shortId(peer)}) from now on, whatever name it sends\n`,
  )
  if (others.length > 0)
    io.stdout(
      `The same name is also pinned to ${others.join(', ')}: a peer with any of these keys is taken for ${chosen} (two keys of one player?), and no other key is\n`,
    )
  return EXIT.ok
}

/** `spaceships names unpin ID`. */
export async function namesUnpinCommand(io: CliIo, ref: string): Promise<number> {
  const { peer } = await playerOf(io, ref)
  const book = readBook(env(io))
  const before = pinnedName(book, peer)
  if (before === undefined)
    throw new UserError(`${peer} is not in your address book (see: ${commandName(env(io))} names)`)
  writeBook({ pins: Object.fromEntries(Object.entries(book.pins).filter(([k]) => k !== peer)) }, env(io))
  io.stdout(`Unpinned ${before} from ${peer}: it is shown by the name it sends, as its own claim\n`)
  return EXIT.ok
}
