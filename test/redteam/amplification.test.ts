/**
 * Red team, SPEC §2.2: a peer that makes the other side work or send far more than it sends.
 * Found by the trust issue on protocol 3: three-byte resume frames made the honest side resend its
 * whole history each time, up to 2 MiB per reply period (about 1,400 times the bytes received, 200
 * times what an honest resume needs); a 2.8 KB deflated copy of a 1 MiB reveal cost an inflate and
 * a hash before it was dropped. Now one resume frame per stream is answered, from as far as the
 * peer's own acks prove it holds, and a frame carrying a held envelope's seq and signature is
 * dropped before its parts are read.
 */
import { describe, expect, it } from 'vitest'
import type { MemoryPair } from '../../src/core/session/channel.js'
import { FRAME, encodeResume } from '../../src/games/spaceships/protocol/frame.js'
import { TERMS, playInMemory } from '../session/helpers.js'
import { summary } from './helpers.js'

const terms = { ...TERMS, maxTurns: 6 }
const SIG = 64

/** The seq and signature a full or compact frame carries (SPEC §2.1). */
function seqAndSig(frame: Uint8Array): { seq: number; sig: Uint8Array } {
  if (frame[0] === FRAME.full) return { seq: ((frame[3] ?? 0) << 8) | (frame[4] ?? 0), sig: frame.slice(-SIG) }
  let at = 3
  while (((frame[at] ?? 0) & 0x80) !== 0) at++
  return { seq: ((frame[1] ?? 0) << 8) | (frame[2] ?? 0), sig: frame.slice(at + 1, at + 1 + SIG) }
}

describe('red team: amplification (SPEC §2.2)', () => {
  it('fifty resume frames asking for everything get one answer with at most the envelopes the peer has not acknowledged', async () => {
    const seed = 'redteam/amplify/resume'
    const plain = await playInMemory(seed, { terms })
    let pair: MemoryPair | undefined
    const flooded = await playInMemory(seed, {
      terms,
      onLink: (p) => (pair = p),
      // Once B has sent six frames (turn 1 under way), "B" asks A fifty times for its whole chain.
      fault: (_frame, from, index) => {
        if (from === 1 && index === 5) for (let i = 0; i < 50; i++) pair?.inject(0, encodeResume(0))
        return 'deliver'
      },
    })
    expect(summary(flooded.a.verdict)).toBe(summary(plain.a.verdict))
    const sent = (p: MemoryPair | undefined): number => p?.sent[0].length ?? 0
    const plainFrames = plain.events[0].filter((e) => e.kind === 'envelope' && e.direction === 'sent').length
    const extra = sent(pair) - plainFrames
    // A's frames are its envelopes (no chat, no resume of its own on this link) plus the answer.
    expect(extra).toBeGreaterThanOrEqual(0)
    expect(extra).toBeLessThanOrEqual(2)
  })

  it('copies of held envelopes with garbage where their parts or header should be are dropped unread: no malformed frame, no claim', async () => {
    const seed = 'redteam/amplify/copy'
    // A link of 300 ms each way, so that the game lasts long enough for a copy every virtual second.
    const fault = (): { delay: number } => ({ delay: 300 })
    const plain = await playInMemory(seed, { terms, fault })
    let pair: MemoryPair | undefined
    let n = 0
    const copied = await playInMemory(seed, {
      terms,
      fault,
      onLink: (p) => (pair = p),
      duplicates: () => {
        const frames = pair?.sent[1] ?? []
        // B's frames A has surely taken: all but the last two.
        const held = frames.slice(0, Math.max(0, frames.length - 2))
        const source = held[n++ % Math.max(1, held.length)]
        if (source === undefined) return undefined
        const { seq, sig } = seqAndSig(source)
        if (n % 2 === 0 && source[0] === FRAME.full) {
          // A full copy with its header and parts altered, its signature kept: not the envelope held,
          // and not validly signed either, so before this it was "fails its signature" and a claim.
          const copy = source.slice()
          copy.fill(0x5a, 8, copy.length - SIG)
          return copy
        }
        // A compact deflated copy whose parts are not DEFLATE at all.
        return Uint8Array.from([FRAME.deflated, seq >> 8, seq & 0xff, 0x01, ...sig, ...new Uint8Array(100).fill(0xff)])
      },
    })
    expect(n).toBeGreaterThan(4)
    expect(copied.events[0].filter((e) => e.kind === 'ignored')).toEqual([])
    expect(summary(copied.a.verdict)).toBe(summary(plain.a.verdict))
    expect(summary(copied.b.verdict)).toBe(summary(plain.b.verdict))
  })
})
