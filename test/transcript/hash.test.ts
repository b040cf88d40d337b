import { hmac } from '@noble/hashes/hmac.js'
import { sha256 } from '@noble/hashes/sha2.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fromBase64url, isBase64url, u16, u8, utf8 } from '../../src/commit/bytes.js'
import { type CellValue, SPACE_CELLS, cellCommitment, commitSetup, deriveSalt } from '../../src/commit/commitments.js'
import { DOMAIN, HASH_BYTES, TaggedPrefix, taggedHash, taggedMac } from '../../src/commit/hash.js'
import { taggedHashReference, taggedMacReference } from '../../src/commit/reference.js'
import { HmacSha256, Sha256 } from '../../src/commit/sha256.js'

const tags = Object.values(DOMAIN)

describe('domain-tagged hashing (SPEC §3.1, §3.3)', () => {
  it('taggedHash and taggedMac give exactly the reference (@noble/hashes) bytes for any fields, on both sides of the native threshold', () => {
    fc.assert(
      fc.property(fc.constantFrom(...tags), fc.array(fc.uint8Array({ maxLength: 600 }), { maxLength: 5 }), fc.uint8Array({ minLength: 1, maxLength: 100 }), (tag, fields, key) => {
        expect(taggedHash(tag, ...fields)).toEqual(taggedHashReference(tag, ...fields))
        expect(taggedMac(key, tag, ...fields)).toEqual(taggedMacReference(key, tag, ...fields))
        // A second MAC under the same key object reuses its keyed pads and must not drift.
        expect(taggedMac(key, tag, ...fields)).toEqual(taggedMacReference(key, tag, ...fields))
      }),
      { numRuns: 500 },
    )
  })

  it('Sha256 is SHA-256 for any input split across any updates, and a clone continues independently', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.array(fc.nat(300), { maxLength: 6 }), fc.uint8Array({ maxLength: 130 }), (data, cuts, tail) => {
        const points = [...new Set(cuts.map((c) => c % (data.length + 1)))].sort((a, b) => a - b)
        const h = new Sha256()
        let from = 0
        for (const p of points) {
          h.update(data.subarray(from, p))
          from = p
        }
        h.update(data.subarray(from))
        const fork = h.clone()
        expect(h.digest()).toEqual(sha256(data))
        expect(fork.update(tail).digest()).toEqual(sha256(new Uint8Array([...data, ...tail])))
      }),
      { numRuns: 500 },
    )
  })

  it('Sha256 matches FIPS 180-4 on the standard vectors, including the two-block padding edge', () => {
    const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')
    expect(hex(new Sha256().digest())).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
    expect(hex(new Sha256().update(utf8('abc')).digest())).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
    expect(hex(new Sha256().update(utf8('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).digest())).toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1')
    for (const n of [55, 56, 63, 64, 65, 119, 120]) expect(new Sha256().update(new Uint8Array(n).fill(0x61)).digest()).toEqual(sha256(new Uint8Array(n).fill(0x61)))
  })

  it('digestWithFields and digestWithBytes finish from a state without changing it, on both sides of the one-block fast path', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 130 }), fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 3 }), fc.uint8Array({ maxLength: 70 }), (prefix, fields, raw) => {
        const s = new Sha256().update(prefix)
        const prefixed = fields.flatMap((f) => [...Uint8Array.of(f.length >>> 24, f.length >>> 16, f.length >>> 8, f.length), ...f])
        const expected = sha256(new Uint8Array([...prefix, ...prefixed]))
        expect(s.digestWithFields(fields)).toEqual(expected)
        expect(s.digestWithFields(fields)).toEqual(expected)
        expect(s.digestWithBytes(raw)).toEqual(sha256(new Uint8Array([...prefix, ...raw])))
        expect(s.digest()).toEqual(sha256(prefix))
      }),
      { numRuns: 500 },
    )
  })

  it('HmacSha256 is RFC 2104 HMAC-SHA256 for any key length, including keys longer than a block', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 150 }), fc.uint8Array({ maxLength: 200 }), (key, data) => {
        const m = new HmacSha256(key)
        expect(m.finish(m.start().update(data))).toEqual(hmac(sha256, key, data))
        expect(m.finish(m.start().update(data))).toEqual(hmac(sha256, key, data))
      }),
      { numRuns: 300 },
    )
  })

  it('a TaggedPrefix gives the tagged hash or MAC of its fixed fields followed by the rest', () => {
    fc.assert(
      fc.property(fc.constantFrom(...tags), fc.array(fc.uint8Array({ maxLength: 90 }), { maxLength: 4 }), fc.array(fc.uint8Array({ maxLength: 90 }), { maxLength: 4 }), fc.uint8Array({ minLength: 32, maxLength: 32 }), (tag, fixed, rest, key) => {
        expect(TaggedPrefix.hash(tag, ...fixed).of(...rest)).toEqual(taggedHashReference(tag, ...fixed, ...rest))
        const mac = TaggedPrefix.mac(key, tag, ...fixed)
        expect(mac.of(...rest)).toEqual(taggedMacReference(key, tag, ...fixed, ...rest))
        expect(mac.of(...rest)).toEqual(taggedMacReference(key, tag, ...fixed, ...rest))
      }),
      { numRuns: 300 },
    )
  })

  it('commitSetup is the definition of SPEC §4.1 and §4.2 over the reference hash, cell by cell', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.constantFrom(0 as const, 1 as const), fc.array(fc.constantFrom('-', 'PC1', 'DS12', 'F3'), { minLength: SPACE_CELLS, maxLength: SPACE_CELLS }), (seed, gameId, player, details) => {
        const ctx = { gameId, player }
        const cells: CellValue[] = details.map((d) => ({ occupied: d !== '-', detail: d }))
        const vector = commitSetup(ctx, cells, seed)
        cells.forEach((v, cell) => {
          const occupancySalt = taggedMacReference(seed, DOMAIN.salt, gameId, u8(player), u8(1), u16(cell))
          const detailSalt = taggedMacReference(seed, DOMAIN.salt, gameId, u8(player), u8(2), u16(cell))
          expect(deriveSalt(seed, ctx, 'occupancy', cell)).toEqual(occupancySalt)
          const occupancy = taggedHashReference(DOMAIN.occupancy, gameId, u8(player), u8(cell), u8(v.occupied ? 1 : 0), occupancySalt)
          const detail = taggedHashReference(DOMAIN.detail, gameId, u8(player), u8(cell), utf8(v.detail), detailSalt)
          expect(vector.subarray(2 * cell * HASH_BYTES, (2 * cell + 1) * HASH_BYTES)).toEqual(occupancy)
          expect(vector.subarray((2 * cell + 1) * HASH_BYTES, (2 * cell + 2) * HASH_BYTES)).toEqual(detail)
          expect(cellCommitment('detail', ctx, cell, utf8(v.detail), detailSalt)).toEqual(detail)
        })
      }),
      { numRuns: 20 },
    )
  })
})

describe('strict base64url (SPEC §3.2)', () => {
  /** The definition: decodes, and re-encodes to exactly the same text with no padding. */
  const byDefinition = (text: string, length?: number): boolean => {
    if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return false
    const bytes = Buffer.from(text, 'base64url')
    return bytes.toString('base64url') === text && (length === undefined || bytes.length === length)
  }
  const alphabet = Array.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/=.é ')

  it('isBase64url accepts exactly the canonical encodings, with and without a byte length', () => {
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 70 }).map((b) => Buffer.from(b).toString('base64url')), fc.array(fc.constantFrom(...alphabet), { maxLength: 90 }).map((cs) => cs.join(''))), fc.option(fc.nat(66), { nil: undefined }), (text, length) => {
        expect(isBase64url(text, length)).toBe(byDefinition(text, length))
        const decoded = fromBase64url(text, length)
        expect(decoded === undefined).toBe(!byDefinition(text, length))
        if (decoded !== undefined) expect(Buffer.from(decoded).toString('base64url')).toBe(text)
      }),
      { numRuns: 3000 },
    )
  })

  it('non-zero unused trailing bits are refused (the one-encoding rule)', () => {
    expect(isBase64url('AA', 1)).toBe(true)
    expect(isBase64url('AB', 1)).toBe(false)
    expect(isBase64url('AAA', 2)).toBe(true)
    expect(isBase64url('AAB', 2)).toBe(false)
    expect(isBase64url('AAAA=', 3)).toBe(false)
  })
})
