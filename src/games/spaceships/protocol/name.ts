/**
 * A player's chosen name (SPEC §2.4, control kind 6; PROTOCOL-4.md §9): conversation, not
 * evidence. It is never signed, persisted in a transcript or bound into anything, so it proves
 * nothing about who sent it: only the connection's PeerId does (SPEC §2). A node shows it beside
 * the PeerId's tail, and a name the player pinned to a key wins over the one a peer sends.
 */
import { type ProtocolError, protocolError } from '../../../core/wire/errors.js'

/** SPEC §2.4: a name is 1 to 32 bytes. */
export const NAME_MAX_BYTES = 32

/**
 * What breaks SPEC §2.4's rule for a name (printable ASCII, 0x20 to 0x7E, of 1 to 32 bytes), or
 * undefined for a name that keeps it. Printable ASCII only, so a name can neither carry terminal
 * escapes nor look like another by Unicode confusables or direction overrides.
 */
export function nameProblem(name: string): ProtocolError | undefined {
  const bytes = Buffer.byteLength(name, 'utf8')
  if (bytes === 0) return protocolError('field.length', 'name', '§2.4', 'a name is at least 1 byte')
  if (bytes > NAME_MAX_BYTES)
    return protocolError('field.length', 'name', '§2.4', `${bytes} bytes; a name is at most ${NAME_MAX_BYTES}`)
  const bad = /[^\x20-\x7e]/u.exec(name)
  if (bad !== null) {
    const code = bad[0].codePointAt(0) ?? 0
    return protocolError(
      'field.text',
      'name',
      '§2.4',
      `a name is printable ASCII; it holds U+${code.toString(16).toUpperCase().padStart(4, '0')}`,
    )
  }
  return undefined
}

/**
 * Names that a person would take for the same: letters in either case, spaces at the ends or in
 * runs. A claimed name is checked against the address book this way, so "Alice " does not slip
 * past a pin of "alice" (the wire rule itself stays byte for byte, SPEC §2.4).
 */
export function sameName(a: string, b: string): boolean {
  return nameKey(a) === nameKey(b)
}

function nameKey(name: string): string {
  return name.trim().replace(/ +/g, ' ').toLowerCase()
}
