import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DOMAIN, taggedHash, taggedHashReference, taggedMac, taggedMacReference } from '../../src/commit/hash.js'

const tags = Object.values(DOMAIN)

describe('domain-tagged hashing (SPEC §3.1, §3.3)', () => {
  it('the native SHA-256 and HMAC give exactly the reference (@noble/hashes) bytes for any fields', () => {
    fc.assert(
      fc.property(fc.constantFrom(...tags), fc.array(fc.uint8Array({ maxLength: 600 }), { maxLength: 5 }), fc.uint8Array({ minLength: 1, maxLength: 64 }), (tag, fields, key) => {
        expect(taggedHash(tag, ...fields)).toEqual(taggedHashReference(tag, ...fields))
        expect(taggedMac(key, tag, ...fields)).toEqual(taggedMacReference(key, tag, ...fields))
        // A second MAC under the same key object reuses its imported key and must not drift.
        expect(taggedMac(key, tag, ...fields)).toEqual(taggedMacReference(key, tag, ...fields))
      }),
      { numRuns: 500 },
    )
  })
})
