/**
 * A tiny game for the notary's tests (NOTARY.md §7.5's Registrar): hellos are
 * `"A" ‖ keyA[32] ‖ notaryKey[32] ‖ nonce` and `"B" ‖ keyB[32] ‖ H(helloA)`, the game id the hash
 * of both; envelopes are `envelopeAt` of helpers.ts. The game is over when each side has an end
 * receipt, or a stop's answer time (ANSWER_MS) has passed or the other side answered it.
 */
import { concatBytes, constantTimeEqual, toHex, utf8 } from '../../../src/core/commit/bytes.js'
import { taggedHash } from '../../../src/core/commit/hash.js'
import { FLAG } from '../../../src/core/notary/header.js'
import type { Receipt } from '../../../src/core/notary/receipt.js'
import type { Registrar } from '../../../src/core/notary-service/registrar.js'
import { DOMAIN, envelopeAt, envelopeHashOf } from './helpers.js'

export const ANSWER_MS = 60_000

export function hellos(
  keyA: Uint8Array,
  keyB: Uint8Array,
  notaryKey: Uint8Array,
  nonce = 'n',
): { helloA: Uint8Array; helloB: Uint8Array; game: Uint8Array } {
  const helloA = concatBytes(utf8('A'), keyA, notaryKey, utf8(nonce))
  const helloB = concatBytes(utf8('B'), keyB, taggedHash('test/hello', helloA))
  return { helloA, helloB, game: taggedHash('test/game-id', helloA, helloB) }
}

const envelopes = (log: readonly Receipt[]) => log.flatMap((r) => (r.kind === 'envelope' ? [{ r, h: r.header }] : []))

export const testRegistrar: Registrar = {
  domain: DOMAIN,
  register(helloA, helloB) {
    if (helloA.length < 66 || helloA[0] !== 0x41) return { ok: false, reason: "A's hello does not decode" }
    if (helloB.length !== 65 || helloB[0] !== 0x42) return { ok: false, reason: "B's hello does not decode" }
    if (!constantTimeEqual(helloB.subarray(33), taggedHash('test/hello', helloA)))
      return { ok: false, reason: "B's hello does not acknowledge A's" }
    const game = taggedHash('test/game-id', helloA, helloB)
    return {
      ok: true,
      game: {
        game,
        keys: [helloA.slice(1, 33), helloB.slice(1, 33)],
        notaryKey: helloA.slice(33, 65),
        paddingFloor: () => 256,
        envelopeMatches: (e, h) =>
          toHex(e) === toHex(envelopeAt(h.game, h.sender, h.seq, e.length)) &&
          toHex(envelopeHashOf(e)) === toHex(h.envelopeHash),
        sealWhen(log) {
          const all = envelopes(log)
          const ends = [0, 1].map((side) => all.find(({ h }) => h.sender === side && (h.flags & FLAG.end) !== 0))
          if (ends[0] !== undefined && ends[1] !== undefined) return Math.max(ends[0].r.time, ends[1].r.time)
          const stop = all.find(({ h }) => (h.flags & FLAG.stop) !== 0)
          if (stop === undefined) return undefined
          const answer = all.find(({ r, h }) => h.sender !== stop.h.sender && r.index > stop.r.index)
          return answer === undefined ? stop.r.time + ANSWER_MS : answer.r.time
        },
      },
    }
  },
}
