/**
 * Who the opponent is, as a game command shows it (SPEC §2.4 kind 6): one tracker per command,
 * shared by its screens (the panel, chat lines, a rematch's), holding the address book and the
 * names peers sent, and this player's own name to send.
 */
import {
  type AddressBook,
  EMPTY_BOOK,
  describePeer,
  nameArrivedLine,
  pinnedName,
} from '../games/spaceships/ui/names.js'
import { PEER_ID, checkedName, readBook, readOwnName } from './address-book.js'
import { type CliIo, commandName } from './io.js'

const env = (io: CliIo): NodeJS.ProcessEnv => io.env ?? process.env

export class PeerNames {
  /** The names peers sent, by PeerId: this command's, and those its games' records kept. */
  private readonly claimed = new Map<string, string>()
  /** What the player was told of each peer's name, so a name repeated on each new stream is said once. */
  private readonly said = new Map<string, string>()

  constructor(
    private readonly book: AddressBook,
    /** The command's name, as its lines tell the player to run it. */
    readonly command = 'spaceships',
  ) {}

  /** A name `peer` sent earlier (a game's record), shown until it sends one now. */
  remember(peer: string | undefined, name: string | undefined): void {
    if (peer !== undefined && name !== undefined && !this.claimed.has(peer)) this.claimed.set(peer, name)
  }

  /** The name the player pinned to `peer`, if any. */
  pinnedAs(peer: string): string | undefined {
    return pinnedName(this.book, peer)
  }

  /** The name `peer` gave itself, if it sent one. */
  claimedBy(peer: string): string | undefined {
    return this.claimed.get(peer)
  }

  /**
   * How to show `who`: a PeerId by its pinned or claimed name (`claimed`, else the last it sent)
   * and its tail; anything else (a bot) as it is.
   */
  label(who: string | undefined, claimed?: string): string | undefined {
    if (who === undefined || !PEER_ID.test(who)) return who
    return describePeer(who, claimed ?? this.claimed.get(who), this.book).label
  }

  /** The name `peer` sent on a stream now: kept, and a line for the player the first time it is said. */
  heard(peer: string, name: string): string | undefined {
    this.claimed.set(peer, name)
    if (this.said.get(peer) === name) return undefined
    this.said.set(peer, name)
    return nameArrivedLine(
      peer,
      name,
      this.book,
      `${this.command} names pin ${peer} ${/^[\w.-]+$/.test(name) ? name : JSON.stringify(name)}`,
    )
  }
}

const TRACKERS = new WeakMap<CliIo, PeerNames>()

/**
 * The command's tracker. An address book that cannot be read is said once and then left out: the
 * game goes on, showing names as the peers' own claims, never as pinned.
 */
export function peerNamesFor(io: CliIo): PeerNames {
  let t = TRACKERS.get(io)
  if (t !== undefined) return t
  let book = EMPTY_BOOK
  try {
    book = readBook(env(io))
  } catch (e) {
    io.stderr(
      `warning: your address book is unusable (${(e as Error).message}); names are shown as your opponents' own claims until it is fixed\n`,
    )
  }
  TRACKERS.set(io, (t = new PeerNames(book, commandName(env(io)))))
  return t
}

/**
 * The name this player sends (SPEC §2.4 kind 6): `--name`, else the one `spaceships name` set.
 * Checked before a game is written or a node dialled, so a bad one is a usage error, not a game
 * that stops.
 */
export function ownNameFor(f: { readonly name?: string }, io: CliIo): string | undefined {
  return f.name === undefined ? readOwnName(env(io)) : checkedName(f.name, '--name')
}
