/**
 * SPEC §2.4: chat is conversation, not evidence. Control frames reach the player as events, are
 * never persisted or acknowledged, change no deadline or verdict, and beyond `chatPerSecond` a
 * second they are dropped, so a peer cannot flood the other player's screen.
 */
import { describe, expect, it } from 'vitest'
import type { MemoryPair } from '../../src/core/session/channel.js'
import { FRAME, encodeControl } from '../../src/games/spaceships/protocol/frame.js'
import { seededRandom } from '../../src/games/spaceships/rules/rng.js'
import { randomStrategy } from '../../src/games/spaceships/session/strategy.js'
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

  it('a garbled line of a known kind, sent while its sender owes the next envelope, is dropped and noted: never a claim (SPEC §2.1, §2.4)', async () => {
    const plain = await playInMemory('chat/garbled')
    let link: MemoryPair | undefined
    // B's own bot, as playInMemory draws it: the same game, with the frames sent while A waits for B.
    const inner = randomStrategy(seededRandom('chat/garbled/B/bot'))
    const garbled = [
      [FRAME.control, 1, 0x61, 0x07], // chat with a control character
      [FRAME.control, 1, 0xc3], // chat that is not UTF-8
      [FRAME.control, 2, 0x61], // a rematch offer with text
    ]
    const later = await playInMemory('chat/garbled', {
      onLink: (pair) => {
        link = pair
      },
      strategies: [
        undefined,
        {
          setup: (r) => inner.setup(r),
          record: (ctx) => {
            // Turn 1's step 2 is B's: A, waiting for it, must not stop the game over conversation.
            if (ctx.turn === 1) for (const f of garbled) link?.inject(0, Uint8Array.from(f))
            return inner.record(ctx)
          },
        },
      ],
    })
    const noted = later.events[0].flatMap((e) => (e.kind === 'ignored' ? [e.detail] : []))
    expect(noted).toEqual([
      'a chat frame, dropped: field.text at text (SPEC §2.4): control text holds control characters',
      'a chat frame, dropped: field.text at text (SPEC §2.4): control text is not UTF-8',
      'a rematch-offer frame, dropped: field.text at text (SPEC §2.4): only chat frames carry text',
    ])
    expect(later.a.verdict).toEqual(plain.a.verdict)
    expect(later.a.transcript).toEqual(plain.a.transcript)
    expect(later.b.transcript).toEqual(plain.b.transcript)
  })
})
