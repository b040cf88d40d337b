/**
 * HPKE (RFC 9180), base mode, one suite: DHKEM(X25519, HKDF-SHA256) 0x0020, HKDF-SHA256 0x0001,
 * ChaCha20-Poly1305 0x0003: what a witnessed game's deposits are encrypted with, to their
 * recipient and to their sender (protocol/PROTOCOL-4.md §5.2). Single-shot: each context seals
 * one message (sequence number 0), which is all a deposit needs.
 *
 * Built from noble's primitives (HKDF, ChaCha20-Poly1305), which this project already trusts for
 * keys and hashes, rather than a second library; the RFC's labelled key schedule is a few lines,
 * and the RFC's own vectors check it (test/core/hpke.test.ts). X25519 itself is OpenSSL's, through
 * `node:crypto`: noble's pure-JS ladder cost a witnessed game's sender about 8 ms of CPU a deposit
 * (four ladders), OpenSSL's about a twentieth of that (src/bench/witnessed.ts measured it), and
 * both are RFC 7748 X25519 (clamped scalar, the top bit of u masked, an all-zero result refused),
 * which the RFC's vectors hold them to.
 */
import { createPrivateKey, createPublicKey, diffieHellman } from 'node:crypto'
import { chacha20poly1305 } from '@noble/ciphers/chacha.js'
import { expand, extract } from '@noble/hashes/hkdf.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { concatBytes, utf8 } from './bytes.js'

/** DER prefixes of an X25519 private key (PKCS #8) and public key (SPKI), RFC 8410: the raw 32 bytes follow. */
const PKCS8_X25519 = Buffer.from('302e020100300506032b656e04220420', 'hex')
const SPKI_X25519 = Buffer.from('302a300506032b656e032100', 'hex')

const privateKeyOf = (secret: Uint8Array) =>
  createPrivateKey({ key: Buffer.concat([PKCS8_X25519, secret]), format: 'der', type: 'pkcs8' })

/** RFC 7748: X25519(secret, 9), the public key of an X25519 secret. */
export function x25519Public(secret: Uint8Array): Uint8Array {
  if (secret.length !== 32) throw new RangeError('an X25519 secret is 32 bytes')
  const der = createPublicKey(privateKeyOf(secret)).export({ format: 'der', type: 'spki' })
  return new Uint8Array(der.subarray(der.length - 32))
}

/** RFC 7748: X25519(secret, u); throws on an all-zero result (RFC 9180 §7.1.4: DH failure). */
export function x25519Shared(secret: Uint8Array, u: Uint8Array): Uint8Array {
  if (secret.length !== 32 || u.length !== 32) throw new RangeError('X25519 takes 32-byte inputs')
  const publicKey = createPublicKey({ key: Buffer.concat([SPKI_X25519, u]), format: 'der', type: 'spki' })
  const out = diffieHellman({ privateKey: privateKeyOf(secret), publicKey })
  if (out.every((b) => b === 0)) throw new Error('X25519: an all-zero shared secret')
  return new Uint8Array(out)
}

/** RFC 9180 §7: the suite's identifiers. */
export const HPKE_SUITE = { kem: 0x0020, kdf: 0x0001, aead: 0x0003 } as const

const N_SECRET = 32
const N_K = 32
const N_N = 12
const N_H = 32
const MODE_BASE = 0x00

function i2osp(n: number, bytes: number): Uint8Array {
  const out = new Uint8Array(bytes)
  for (let i = bytes - 1, v = n; i >= 0; i--, v >>>= 8) out[i] = v & 0xff
  return out
}

const VERSION = utf8('HPKE-v1')
const KEM_ID = concatBytes(utf8('KEM'), i2osp(HPKE_SUITE.kem, 2))
const HPKE_ID = concatBytes(utf8('HPKE'), i2osp(HPKE_SUITE.kem, 2), i2osp(HPKE_SUITE.kdf, 2), i2osp(HPKE_SUITE.aead, 2))

/** RFC 9180 §4: `LabeledExtract(salt, label, ikm)`. */
function labeledExtract(suite: Uint8Array, salt: Uint8Array, label: string, ikm: Uint8Array): Uint8Array {
  return extract(sha256, concatBytes(VERSION, suite, utf8(label), ikm), salt)
}

/** RFC 9180 §4: `LabeledExpand(prk, label, info, L)`. */
function labeledExpand(
  suite: Uint8Array,
  prk: Uint8Array,
  label: string,
  info: Uint8Array,
  length: number,
): Uint8Array {
  return expand(sha256, prk, concatBytes(i2osp(length, 2), VERSION, suite, utf8(label), info), length)
}

/** RFC 9180 §4.1: the KEM's shared secret from the DH output and `enc ‖ pkR`. */
function extractAndExpand(dh: Uint8Array, kemContext: Uint8Array): Uint8Array {
  const prk = labeledExtract(KEM_ID, new Uint8Array(), 'eae_prk', dh)
  return labeledExpand(KEM_ID, prk, 'shared_secret', kemContext, N_SECRET)
}

/** A context's key material (RFC 9180 §5.1, base mode). */
export interface HpkeContext {
  readonly key: Uint8Array
  readonly baseNonce: Uint8Array
  readonly exporterSecret: Uint8Array
}

/** RFC 9180 §5.1: `KeySchedule(mode_base, shared_secret, info, "", "")`. */
function keySchedule(sharedSecret: Uint8Array, info: Uint8Array): HpkeContext {
  const empty = new Uint8Array()
  const pskIdHash = labeledExtract(HPKE_ID, empty, 'psk_id_hash', empty)
  const infoHash = labeledExtract(HPKE_ID, empty, 'info_hash', info)
  const context = concatBytes(Uint8Array.of(MODE_BASE), pskIdHash, infoHash)
  const secret = labeledExtract(HPKE_ID, sharedSecret, 'secret', empty)
  return {
    key: labeledExpand(HPKE_ID, secret, 'key', context, N_K),
    baseNonce: labeledExpand(HPKE_ID, secret, 'base_nonce', context, N_N),
    exporterSecret: labeledExpand(HPKE_ID, secret, 'exp', context, N_H),
  }
}

/**
 * RFC 9180 §5.1.1 `SetupBaseS`: the sender's context for `pkR` and the encapsulated key `enc`.
 * `ephemeralSecret` is the sender's fresh X25519 secret (32 random bytes from the caller's
 * secret source; the RFC's vectors give theirs).
 */
export function setupBaseSender(
  pkR: Uint8Array,
  info: Uint8Array,
  ephemeralSecret: Uint8Array,
): { readonly enc: Uint8Array; readonly context: HpkeContext } {
  const enc = x25519Public(ephemeralSecret)
  const dh = x25519Shared(ephemeralSecret, pkR)
  return { enc, context: keySchedule(extractAndExpand(dh, concatBytes(enc, pkR)), info) }
}

/** RFC 9180 §5.1.1 `SetupBaseR`: the recipient's context from `enc` and its X25519 secret. */
export function setupBaseRecipient(enc: Uint8Array, skR: Uint8Array, info: Uint8Array): HpkeContext {
  return setupBaseRecipientWithDh(enc, x25519Public(skR), x25519Shared(skR, enc), info)
}

/**
 * `SetupBaseR` from the Diffie-Hellman value itself (`dh = X25519(skR, enc)`) and the recipient's
 * public key: what anyone can compute once a recipient discloses `dh` (a complaint, PROTOCOL-4.md
 * §5.3), without the recipient's secret.
 */
export function setupBaseRecipientWithDh(
  enc: Uint8Array,
  pkR: Uint8Array,
  dh: Uint8Array,
  info: Uint8Array,
): HpkeContext {
  return keySchedule(extractAndExpand(dh, concatBytes(enc, pkR)), info)
}

/** RFC 9180 §5.2: the context's first message (sequence number 0, so the nonce is `base_nonce`). */
export function sealFirst(context: HpkeContext, aad: Uint8Array, plaintext: Uint8Array): Uint8Array {
  return chacha20poly1305(context.key, context.baseNonce, aad).encrypt(plaintext)
}

/** RFC 9180 §5.2: opens the context's first message, or undefined when it does not authenticate. */
export function openFirst(context: HpkeContext, aad: Uint8Array, ciphertext: Uint8Array): Uint8Array | undefined {
  try {
    return chacha20poly1305(context.key, context.baseNonce, aad).decrypt(ciphertext)
  } catch {
    return undefined
  }
}
