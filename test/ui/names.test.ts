/**
 * How an opponent is shown (SPEC §2.4 kind 6): a pinned name wins over the one a peer sends, a
 * name that is not pinned is shown as the peer's own claim, and a peer claiming a name pinned to
 * another key is flagged, in its label and at length.
 */
import { describe, expect, it } from 'vitest'
import { type AddressBook, describePeer, keysPinnedAs, nameArrivedLine } from '../../src/games/spaceships/ui/names.js'

const ALICE = '12D3KooWBd4fSbKhcMcGSAmzuV3prHKp36arKp5LsNZTzLgdGaNZ'
const ALICE_LAPTOP = '12D3KooWHdCLvPkqHmzj2sxKc4Eu5C7Yd2BMcdzzDA2zJBEbShAK'
const MALLORY = '12D3KooWJtTw76rWqgfMy8bZfpDwsw8RHMMYhtqpboxXLi78CQiu'
const BOB = '12D3KooWRSM61XxniSMpTRsKtjYCHnc2QhTZevgTeu3X9d2P378N'
const book: AddressBook = { pins: { [ALICE]: 'alice', [ALICE_LAPTOP]: 'Alice', [BOB]: 'bob' } }

describe('showing an opponent (SPEC §2.4 kind 6)', () => {
  it('a key with no name is its tail; a name it sends is quoted and questioned, as its own claim', () => {
    expect(describePeer(MALLORY, undefined, book)).toEqual({ label: '…Li78CQiu' })
    expect(describePeer(MALLORY, 'carol', book)).toEqual({ label: '“carol”? (…Li78CQiu)' })
  })

  it('a pinned name wins over whatever the key sends, and over no name at all', () => {
    expect(describePeer(ALICE, undefined, book)).toEqual({ label: 'alice (…zLgdGaNZ)' })
    expect(describePeer(ALICE, 'alice', book)).toEqual({ label: 'alice (…zLgdGaNZ)' })
    expect(describePeer(ALICE, 'queen of space', book)).toEqual({ label: 'alice (…zLgdGaNZ)' })
    // The same name pinned to two keys of one player: each is that player, neither flagged.
    expect(describePeer(ALICE_LAPTOP, 'alice', book)).toEqual({ label: 'Alice (…JBEbShAK)' })
  })

  it('a key claiming a name pinned to other keys is flagged, however the name is spelt', () => {
    for (const claim of ['alice', 'ALICE', ' alice '])
      expect(describePeer(MALLORY, claim, book)).toEqual({
        label: `“${claim}”? (…Li78CQiu; not the ${claim} you pinned)`,
        warning: `…Li78CQiu claims to be ${claim}, whom you pinned to …zLgdGaNZ, …JBEbShAK: not the same key`,
      })
  })

  it('a pinned key claiming another pinned name keeps its own name, and is flagged', () => {
    expect(describePeer(BOB, 'alice', book)).toEqual({
      label: 'bob (…9d2P378N)',
      warning: 'bob (…9d2P378N) claims to be alice, whom you pinned to …zLgdGaNZ, …JBEbShAK: not the same key',
    })
  })

  it('keys pinned under a name are found as a person would read it', () => {
    expect(keysPinnedAs(book, 'ALICE')).toEqual([ALICE, ALICE_LAPTOP])
    expect(keysPinnedAs(book, 'alicia')).toEqual([])
  })

  it('the line said when a name arrives: a warning, the pinned name, or the claim and how to pin it', () => {
    const pin = 'spaceships names pin ID NAME'
    expect(nameArrivedLine(MALLORY, 'alice', book, pin)).toBe(
      'Warning: …Li78CQiu claims to be alice, whom you pinned to …zLgdGaNZ, …JBEbShAK: not the same key.',
    )
    expect(nameArrivedLine(ALICE, 'alice', book, pin)).toBe('Your opponent is alice (…zLgdGaNZ).')
    expect(nameArrivedLine(BOB, 'robert', book, pin)).toBe('Your opponent bob (…9d2P378N) calls itself “robert”.')
    expect(nameArrivedLine(MALLORY, 'carol', book, pin)).toBe(
      `Your opponent …Li78CQiu calls itself “carol” (its own claim; to pin it to this key: ${pin}).`,
    )
  })
})
