/**
 * SPEC §2.4: chat is conversation, not evidence. Control frames reach the player as events, are
 * never persisted or acknowledged, change no deadline or verdict, and beyond `chatPerSecond` a
 * second they are dropped, so a peer cannot flood the other player's screen.
 */
import { describe, expect, it } from 'vitest'
import { encodeControl } from '../../src/games/spaceships/protocol/frame.js'
import { LIMITS } from '../../src/games/spaceships/protocol/messages.js'
import { playInMemory } from './helpers.js'

describe('chat over a session (SPEC §2.4)', () => {
  it('thirty lines in one instant: the first ten are shown, the game and both transcripts are as without them', async () => {
    const plain = await playInMemory('chat/flood')
    const chatty = await playInMemory('chat/flood', {
      onLink: (pair) => {
        for (let i = 0; i < 30; i++) pair.inject(0, encodeControl('chat', `line ${i}`))
      },
    })
    const shown = chatty.events[0].flatMap((e) => (e.kind === 'chat' ? [e.text] : []))
    expect(shown).toEqual(Array.from({ length: LIMITS.chatPerSecond }, (_, i) => `line ${i}`))
    expect(chatty.a.verdict).toEqual(plain.a.verdict)
    expect(chatty.a.transcript).toEqual(plain.a.transcript)
    expect(chatty.b.transcript).toEqual(plain.b.transcript)
  })

  it('a control frame of a kind this side does not know is ignored, whatever its text: no claim, the same game', async () => {
    const plain = await playInMemory('chat/unknown')
    const later = await playInMemory('chat/unknown', {
      onLink: (pair) => {
        for (const kind of [7, 200]) pair.inject(0, Uint8Array.from([0x04, kind, 0x00, 0x07, 0xff]))
      },
    })
    expect(later.events[0].filter((e) => e.kind === 'ignored' || e.kind === 'chat')).toEqual([])
    expect(later.a.verdict).toEqual(plain.a.verdict)
    expect(later.a.transcript).toEqual(plain.a.transcript)
  })
})
