import { sha256 } from '@noble/hashes/sha2.js'
import { createHash } from 'node:crypto'
import { deflateRawSync, inflateRawSync } from 'node:zlib'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { utf8 } from '../../src/core/commit/bytes.js'
import {
  type CellValue,
  SPACE_CELLS,
  SideCommitments,
  SideSecrets,
  deriveSalt,
  detailCommitment,
  occupancyCommitment,
  recordCommitment,
} from '../../src/games/spaceships/protocol/commitments.js'
import { BlockHash, SaltPrf, domainBlock, sha256 as sha256Parts, taggedHash } from '../../src/core/commit/hash.js'
import { DOMAIN } from '../../src/games/spaceships/protocol/domain.js'
import { sha256Reference } from '../../src/core/commit/reference.js'
import { Sha256 } from '../../src/core/commit/sha256.js'
import { sha256x4, sha256x4Module } from '../../src/core/commit/sha256x4.js'
import { SHA256X4_WASM_DEFLATED } from '../../src/core/commit/sha256x4-module.js'

const tags = Object.values(DOMAIN)
const bytes32 = fc.uint8Array({ minLength: 32, maxLength: 32 })
const role = fc.constantFrom<0 | 1>(0, 1)

describe('hashing (SPEC §3.3)', () => {
  it('Sha256 is SHA-256 for any input split across any updates, and a clone continues independently', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.array(fc.nat(300), { maxLength: 6 }),
        fc.uint8Array({ maxLength: 130 }),
        (data, cuts, tail) => {
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
        },
      ),
      { numRuns: 500 },
    )
  })

  it('Sha256 matches FIPS 180-4 on the standard vectors, including the two-block padding edge', () => {
    const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')
    expect(hex(new Sha256().digest())).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
    expect(hex(new Sha256().update(utf8('abc')).digest())).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    )
    expect(hex(new Sha256().update(utf8('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).digest())).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    )
    for (const n of [55, 56, 63, 64, 65, 119, 120])
      expect(new Sha256().update(new Uint8Array(n).fill(0x61)).digest()).toEqual(sha256(new Uint8Array(n).fill(0x61)))
  })

  it('the compression is SHA-256 on long inputs too: many blocks, every byte value, against node:crypto', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 2000 }), (data) => {
        expect(Buffer.from(new Sha256().update(data).digest())).toEqual(createHash('sha256').update(data).digest())
      }),
      { numRuns: 200 },
    )
  })

  it('a tail block after a block boundary finishes as SHA-256 for every length it allows, and the state stays as it was', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3 }), fc.uint8Array({ maxLength: 55 }), fc.nat(40), (blocks, raw, at) => {
        const prefix = Uint8Array.from({ length: 64 * blocks }, (_, i) => (i * 31 + blocks) & 0xff)
        const s = new Sha256().update(prefix)
        const tail = s.tailBlock(raw.length)
        tail.set(raw)
        const out = new Uint8Array(at + 32 + 5).fill(0xaa)
        s.digestTail(tail, out, at)
        expect(out.subarray(at, at + 32)).toEqual(sha256(new Uint8Array([...prefix, ...raw])))
        expect(out.subarray(0, at).every((b) => b === 0xaa) && out.subarray(at + 32).every((b) => b === 0xaa)).toBe(
          true,
        )
        expect(s.digest()).toEqual(sha256(prefix))
      }),
      { numRuns: 300 },
    )
    expect(() => new Sha256().update(new Uint8Array(3)).tailBlock(1)).toThrow(/boundary/)
    expect(() => new Sha256().tailBlock(56)).toThrow(/boundary/)
  })

  it("sha256x4's module bytes, kept made, are what its generator writes", () => {
    const made = Buffer.from(sha256x4Module())
    const kept = inflateRawSync(Buffer.from(SHA256X4_WASM_DEFLATED, 'base64'))
    expect(
      kept.equals(made),
      `write SHA256X4_WASM_DEFLATED in src/core/commit/sha256x4-module.ts anew: '${deflateRawSync(made, { level: 9 }).toString('base64')}'`,
    ).toBe(true)
  })

  it('the four lanes of sha256x4 are four SHA-256 compressions: any midstates, any last blocks, against node:crypto', () => {
    const lanes = sha256x4()
    if (lanes === undefined) throw new Error('WebAssembly SIMD is expected under Node')
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.uint8Array({ maxLength: 55 })), {
          minLength: 4,
          maxLength: 4,
        }),
        (cases) => {
          const states = cases.map(([blocks, raw]) => {
            const prefix = Uint8Array.from({ length: 64 * blocks }, (_, i) => (i * 17 + raw.length) & 0xff)
            const s = new Sha256().update(prefix)
            const tail = s.tailBlock(raw.length)
            tail.set(raw)
            return { prefix, raw, state: s.midstate(), tail }
          })
          states.forEach(({ state, tail }, j) => {
            for (let i = 0; i < 8; i++) lanes.words[4 * i + j] = state[i] ?? 0
            for (let i = 0; i < 16; i++)
              lanes.words[32 + 4 * i + j] =
                ((tail[4 * i] ?? 0) << 24) |
                ((tail[4 * i + 1] ?? 0) << 16) |
                ((tail[4 * i + 2] ?? 0) << 8) |
                (tail[4 * i + 3] ?? 0)
          })
          const before = lanes.words.slice(0, 96)
          lanes.compress()
          states.forEach(({ prefix, raw }, j) => {
            const out = Buffer.alloc(32)
            for (let i = 0; i < 8; i++) out.writeInt32BE(lanes.words[96 + 4 * i + j] ?? 0, 4 * i)
            expect(out).toEqual(createHash('sha256').update(prefix).update(raw).digest())
          })
          // States and blocks are left as they were: a batch writes what its blocks share once.
          expect(lanes.words.slice(0, 96)).toEqual(before)
        },
      ),
      { numRuns: 300 },
    )
  })

  it('sha256 of parts, in JS below 96 bytes and native from there, is SHA-256 of their concatenation', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 4 }), (parts) => {
        const whole = Buffer.concat(parts)
        expect(Buffer.from(sha256Parts(...parts))).toEqual(createHash('sha256').update(whole).digest())
      }),
      { numRuns: 300 },
    )
    const big = new Uint8Array(40_000).fill(3)
    expect(Buffer.from(sha256Parts(big, big))).toEqual(createHash('sha256').update(big).update(big).digest())
  })

  it('a finished state refuses any further use, so a digest is never taken twice from one state', () => {
    const h = new Sha256().update(utf8('abc'))
    h.digest()
    expect(() => h.digest()).toThrow(/finished/)
    expect(() => h.update(utf8('more'))).toThrow(/finished/)
    expect(() => h.clone()).toThrow(/finished/)
    expect(() => h.digestWithBytes(utf8('x'))).toThrow(/finished/)
  })

  it('digestWithBytes finishes from a state without changing it, on both sides of the one-block fast path', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 130 }), fc.uint8Array({ maxLength: 70 }), (prefix, raw) => {
        const s = new Sha256().update(prefix)
        expect(s.digestWithBytes(raw)).toEqual(sha256(new Uint8Array([...prefix, ...raw])))
        expect(s.digestWithBytes(raw)).toEqual(sha256(new Uint8Array([...prefix, ...raw])))
        expect(s.digest()).toEqual(sha256(prefix))
      }),
      { numRuns: 500 },
    )
  })

  it('domain blocks are exactly 64 bytes: the tag, the game id, the role, zero fill (SPEC §3.3)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...tags), bytes32, role, (t, game, r) => {
        const b = domainBlock(t, game, r)
        const tb = utf8(t)
        expect(b.length).toBe(64)
        expect([...b]).toEqual([tb.length, ...tb, ...game, r, ...new Array<number>(64 - 1 - tb.length - 33).fill(0)])
      }),
      { numRuns: 100 },
    )
    expect(taggedHash(DOMAIN.gameId, utf8('x'))).toEqual(
      sha256Reference(Uint8Array.of(utf8(DOMAIN.gameId).length), utf8(DOMAIN.gameId), utf8('x')),
    )
  })

  it('BlockHash and SaltPrf equal the plain definitions over @noble/hashes, and SaltPrf does not follow changes to its seed (SPEC §3.3, §4.1)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...tags),
        bytes32,
        role,
        fc.uint8Array({ maxLength: 120 }),
        bytes32,
        fc.integer({ min: 1, max: 32 }),
        (t, game, r, rest, seed, length) => {
          const block = domainBlock(t, game, r)
          expect(new BlockHash(t, game, r).of(rest)).toEqual(sha256Reference(block, rest))
          const copy = seed.slice()
          const prf = new SaltPrf(DOMAIN.salt, seed, game, r)
          seed.fill(0x5a)
          const plain = sha256Reference(domainBlock(DOMAIN.salt, game, r), copy, new Uint8Array(32), rest).slice(
            0,
            length,
          )
          expect(prf.of(rest, length)).toEqual(plain)
          expect(prf.of(rest, length)).toEqual(plain)
        },
      ),
      { numRuns: 300 },
    )
  })
})

describe('commitments (SPEC §4)', () => {
  const cellValue = fc.oneof(
    fc.constant<CellValue>({ occupied: false, type: 0, id: 0 }),
    fc.record({
      occupied: fc.constant(true),
      type: fc.integer({ min: 1, max: 10 }),
      id: fc.integer({ min: 1, max: 4 }),
    }),
  )

  it("a side's salts and commitments are the plain definitions, cell by cell, and its setup vector their concatenation", () => {
    fc.assert(
      fc.property(
        bytes32,
        bytes32,
        role,
        fc.array(cellValue, { minLength: SPACE_CELLS, maxLength: SPACE_CELLS }),
        fc.constantFrom<3 | 4>(3, 4),
        (seed, game, r, cells, version) => {
          const s = new SideSecrets(seed, game, r, version)
          seed.fill(0) // the side keeps its own copy
          const original = s.seed
          // Every cell: the vector is built on padded tail blocks, the plain definitions on whole inputs.
          const vector = s.setupVector(cells)
          // Four cells a lane in WebAssembly SIMD (Node runs it), and one after another in JS: the same bytes.
          expect(sha256x4()).toBeDefined()
          expect(s.setupVector(cells, null)).toEqual(vector)
          for (let c = 0; c < SPACE_CELLS; c++) {
            const v = cells[c] ?? { occupied: false, type: 0, id: 0 }
            const so = deriveSalt(original, game, r, 'occupancy', c, version)
            const sd = deriveSalt(original, game, r, 'detail', c, version)
            expect(s.salt('occupancy', c)).toEqual(so)
            expect(s.salt('detail', c)).toEqual(sd)
            expect(vector.subarray(64 * c, 64 * c + 32)).toEqual(
              occupancyCommitment(game, r, c, v.occupied, so, version),
            )
            expect(vector.subarray(64 * c + 32, 64 * c + 64)).toEqual(
              detailCommitment(game, r, c, v.type, v.id, sd, version),
            )
            expect(s.opensOccupancy(vector, c, v.occupied, so)).toBe(true)
            expect(s.opensOccupancy(vector, c, !v.occupied, so)).toBe(false)
            expect(s.opensDetail(vector, c, v.type, v.id, sd)).toBe(true)
          }
          expect(s.recordCommitment(7, 'Rv1 sOx3')).toEqual(
            recordCommitment(game, r, 7, deriveSalt(original, game, r, 'record', 7, version), 'Rv1 sOx3', version),
          )
        },
      ),
      { numRuns: 20 },
    )
  })

  it('occupancy openings hashed ahead four at a time open exactly what they open hashed one by one', () => {
    const salt16 = fc.uint8Array({ minLength: 16, maxLength: 16 })
    const opening = fc.record({
      cell: fc.integer({ min: 0, max: SPACE_CELLS - 1 }),
      occupied: fc.boolean(),
      salt: salt16,
    })
    fc.assert(
      fc.property(
        bytes32,
        bytes32,
        role,
        fc.array(opening, { maxLength: 11 }),
        fc.constantFrom<3 | 4>(3, 4),
        (seed, game, r, list, version) => {
          const s = new SideSecrets(seed, game, r, version)
          const plain = new SideCommitments(game, r, version)
          // A vector where some of the listed openings hold: each listed cell committed to its opening.
          const vector = new Uint8Array(SPACE_CELLS * 64)
          list.forEach((o, i) => {
            if (i % 2 === 0) vector.set(occupancyCommitment(game, r, o.cell, o.occupied, o.salt, version), 64 * o.cell)
          })
          s.prepareOccupancy(list)
          for (const o of list) {
            expect(s.opensOccupancy(vector, o.cell, o.occupied, o.salt)).toBe(
              plain.opensOccupancy(vector, o.cell, o.occupied, o.salt),
            )
            // Asked with the other value, or of another cell: hashed then, not taken from the cache.
            expect(s.opensOccupancy(vector, o.cell, !o.occupied, o.salt)).toBe(
              plain.opensOccupancy(vector, o.cell, !o.occupied, o.salt),
            )
            const other = (o.cell + 1) % SPACE_CELLS
            expect(s.opensOccupancy(vector, other, o.occupied, o.salt)).toBe(
              plain.opensOccupancy(vector, other, o.occupied, o.salt),
            )
          }
          // The opening committed last in each cell holds.
          const last = new Map(list.flatMap((o, i) => (i % 2 === 0 ? [[o.cell, o] as const] : [])))
          for (const o of last.values()) expect(s.opensOccupancy(vector, o.cell, o.occupied, o.salt)).toBe(true)
        },
      ),
      { numRuns: 100 },
    )
  })

  it('detail openings hashed ahead four at a time open exactly what they open hashed one by one', () => {
    const salt16 = fc.uint8Array({ minLength: 16, maxLength: 16 })
    const opening = fc.record({
      cell: fc.integer({ min: 0, max: SPACE_CELLS - 1 }),
      type: fc.integer({ min: 0, max: 10 }),
      id: fc.integer({ min: 0, max: 4 }),
      salt: salt16,
    })
    fc.assert(
      fc.property(
        bytes32,
        bytes32,
        role,
        fc.array(opening, { maxLength: 11 }),
        fc.constantFrom<3 | 4>(3, 4),
        (seed, game, r, list, version) => {
          const s = new SideSecrets(seed, game, r, version)
          const plain = new SideCommitments(game, r, version)
          const vector = new Uint8Array(SPACE_CELLS * 64)
          list.forEach((o, i) => {
            if (i % 2 === 0)
              vector.set(detailCommitment(game, r, o.cell, o.type, o.id, o.salt, version), 64 * o.cell + 32)
          })
          s.prepareDetail(list)
          for (const o of list) {
            expect(s.opensDetail(vector, o.cell, o.type, o.id, o.salt)).toBe(
              plain.opensDetail(vector, o.cell, o.type, o.id, o.salt),
            )
            expect(s.opensDetail(vector, o.cell, o.type, o.id + 1, o.salt)).toBe(
              plain.opensDetail(vector, o.cell, o.type, o.id + 1, o.salt),
            )
          }
          const last = new Map(list.flatMap((o, i) => (i % 2 === 0 ? [[o.cell, o] as const] : [])))
          for (const o of last.values()) expect(s.opensDetail(vector, o.cell, o.type, o.id, o.salt)).toBe(true)
        },
      ),
      { numRuns: 100 },
    )
  })

  it("a replay's record commitments four turns a lane are each turn's commitment, short records and long", () => {
    const text = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.string({ minLength: 30, maxLength: 80 }),
      fc.constant('Rv1 sOx3 é'),
    )
    fc.assert(
      fc.property(
        bytes32,
        bytes32,
        role,
        fc.array(text, { maxLength: 13 }),
        fc.constantFrom<3 | 4>(3, 4),
        (seed, game, r, texts, version) => {
          const s = new SideSecrets(seed, game, r, version)
          const one = texts.map((t, i) => s.recordCommitment(i + 1, t))
          expect(s.recordCommitments(texts)).toEqual(one)
          expect(s.recordCommitments(texts, null)).toEqual(one)
        },
      ),
      { numRuns: 100 },
    )
  })

  it('the plain definitions are the layouts of SPEC §4 over @noble/hashes', () => {
    const game = new Uint8Array(32).fill(7)
    const seed = new Uint8Array(32).fill(9)
    // SPEC §4.1: the seed fills the second block; k = 2 (detail), i = 45; the first 16 bytes.
    const salt = sha256Reference(
      domainBlock(DOMAIN.salt, game, 1),
      seed,
      new Uint8Array(32),
      Uint8Array.of(2, 0, 45),
    ).slice(0, 16)
    expect(salt.length).toBe(16)
    expect(deriveSalt(seed, game, 1, 'detail', 45)).toEqual(salt)
    expect(occupancyCommitment(game, 1, 45, true, salt)).toEqual(
      sha256Reference(domainBlock(DOMAIN.occupancy, game, 1), Uint8Array.of(45, 1), salt),
    )
    expect(detailCommitment(game, 1, 45, 4, 2, salt)).toEqual(
      sha256Reference(domainBlock(DOMAIN.detail, game, 1), Uint8Array.of(45, 4, 2), salt),
    )
    expect(recordCommitment(game, 1, 300, salt, 'Rv1')).toEqual(
      sha256Reference(
        domainBlock(DOMAIN.record, game, 1),
        Uint8Array.of(1, 44),
        salt,
        Uint8Array.of(0, 3),
        utf8('Rv1'),
      ),
    )
    // Any text, ASCII (written byte by byte) or not (encoded as UTF-8), any turn.
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.integer({ min: 1, max: 1000 }), (text, turn) => {
        const t = utf8(text)
        expect(recordCommitment(game, 0, turn, salt, text)).toEqual(
          sha256Reference(
            domainBlock(DOMAIN.record, game, 0),
            Uint8Array.of(turn >> 8, turn & 0xff),
            salt,
            Uint8Array.of(t.length >> 8, t.length & 0xff),
            t,
          ),
        )
      }),
      { numRuns: 300 },
    )
  })
})
