import { generateKeyPairFromSeed } from '@libp2p/crypto/keys'
import { peerIdFromPrivateKey } from '@libp2p/peer-id'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { identityFromSecret } from '../../src/core/net/identity.js'

describe('peer identity (SPEC §2: the PeerId key is the signing key)', () => {
  it('the PeerId, the libp2p key and the transcript key come from one seed, exactly as libp2p derives them', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 32, maxLength: 32 }), async (seed) => {
        const id = await identityFromSecret(seed)
        const reference = await generateKeyPairFromSeed('Ed25519', seed)
        expect(id.peerId.toString()).toBe(peerIdFromPrivateKey(reference).toString())
        expect(id.privateKey.raw).toEqual(reference.raw)
        expect(id.peerId.publicKey?.raw).toEqual(id.keys.publicKey)
        // A libp2p signature (the Noise handshake's) verifies under the reference key.
        const message = new TextEncoder().encode('noise static key')
        expect(await reference.publicKey.verify(message, await id.privateKey.sign(message))).toBe(true)
      }),
      { numRuns: 20 },
    )
  })
})
