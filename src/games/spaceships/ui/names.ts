/**
 * How an opponent is shown (SPEC §2.4 kind 6, PROTOCOL-4.md §9): by the name the player pinned to
 * its key in the address book, else by the name it gave itself, marked as its own claim, always
 * beside its PeerId's tail, since only the key proves who it is. A peer that claims a name pinned
 * to another key is flagged: that is what an impersonator does. Pure: the CLI reads and writes the
 * address book file.
 */
import { sameName } from '../protocol/name.js'
import { shortId } from './panel.js'

/** The player's address book: names pinned to PeerIds. */
export interface AddressBook {
  /** PeerId (as a string) → the name the player pinned to it. */
  readonly pins: Readonly<Record<string, string>>
}

export const EMPTY_BOOK: AddressBook = { pins: {} }

/** How to show one peer: a short label, and a warning when it claims a name pinned to another key. */
export interface PeerView {
  /** "alice (…kSzYFiDD)", "“alice”? (…kSzYFiDD)" or "…kSzYFiDD". */
  readonly label: string
  /** "…kSzYFiDD claims to be alice, whom you pinned to …Xy12AbCd: not the same key". */
  readonly warning?: string
}

/** The name pinned to `peer`, if any. */
export function pinnedName(book: AddressBook, peer: string): string | undefined {
  return Object.hasOwn(book.pins, peer) ? book.pins[peer] : undefined
}

/** The keys pinned under `name` (names compared as a person would, `sameName`). */
export function keysPinnedAs(book: AddressBook, name: string): string[] {
  return Object.entries(book.pins).flatMap(([peer, pinned]) => (sameName(pinned, name) ? [peer] : []))
}

/**
 * How to show `peer`, which gave itself the name `claimed` (undefined if it sent none). A pinned
 * name wins: a peer cannot rename itself on this player's screen. A claim that is not pinned is
 * quoted and questioned, and one pinned to other keys only is flagged, in the label and at length.
 * The quotes “ ” and the ellipsis are not ASCII, so a sent name (printable ASCII, SPEC §2.4) can
 * never close its own quotes or draw a tail of its own: no claim can look like a pinned name.
 */
export function describePeer(peer: string, claimed: string | undefined, book: AddressBook): PeerView {
  const tail = shortId(peer)
  const pinned = pinnedName(book, peer)
  const others = claimed === undefined ? [] : keysPinnedAs(book, claimed).filter((k) => k !== peer)
  const mine = claimed !== undefined && pinned !== undefined && sameName(pinned, claimed)
  const impostor = others.length > 0 && !mine
  const label =
    pinned !== undefined
      ? `${pinned} (${tail})`
      : claimed !== undefined
        ? `“${claimed}”? (${tail}${impostor ? `; not the ${claimed} you pinned` : ''})`
        : tail
  if (!impostor || claimed === undefined) return { label }
  const whom = others.map(shortId).join(', ')
  return {
    label,
    warning: `${pinned === undefined ? tail : label} claims to be ${claimed}, whom you pinned to ${whom}: not the same key`,
  }
}

/**
 * What a player is told when a peer's name arrives: nothing if the pinned name already says who it
 * is, the warning if it claims another's name, else the claim and how to pin it.
 */
export function nameArrivedLine(peer: string, claimed: string, book: AddressBook, pinCommand: string): string {
  const v = describePeer(peer, claimed, book)
  if (v.warning !== undefined) return `Warning: ${v.warning}.`
  const pinned = pinnedName(book, peer)
  if (pinned !== undefined)
    return sameName(pinned, claimed)
      ? `Your opponent is ${v.label}.`
      : `Your opponent ${v.label} calls itself “${claimed}”.`
  return `Your opponent ${shortId(peer)} calls itself “${claimed}” (its own claim; to pin it to this key: ${pinCommand}).`
}
