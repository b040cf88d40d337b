/**
 * The mesh's frames (protocol/SPAAACE-PEERS.md §8, SPAAACE-PEERS-REVIEW.md R3): one type byte, then
 * the body. Decoding never throws; every frame is at most `maxFrame` bytes.
 *
 * ```
 * 0x00 envelope  envelope bytes
 * 0x01 genesis   genesis bytes (the game's; never evidence here)
 * 0x03 resume    u8 n ‖ u16 held × n      how many of each author's envelopes the sender holds contiguously
 * 0x04 control   u8 kind ‖ body, never evidence (the mesh's kind 7: peer-records.ts)
 * 0x05 want      u8 author ‖ u16 seq ‖ hash[32]
 * ```
 */
import { HASH_BYTES } from '../commit/hash.js'
import type { MeshRef } from './codec.js'

export const FRAME = { envelope: 0x00, genesis: 0x01, resume: 0x03, control: 0x04, want: 0x05 } as const

export type MeshFrame =
  | { readonly kind: 'envelope'; readonly bytes: Uint8Array }
  | { readonly kind: 'genesis'; readonly bytes: Uint8Array }
  | { readonly kind: 'resume'; readonly held: readonly number[] }
  | { readonly kind: 'control'; readonly bytes: Uint8Array }
  | { readonly kind: 'want'; readonly ref: MeshRef }

export const WANT_FRAME_BYTES = 1 + 1 + 2 + HASH_BYTES

/** Why a frame was refused before anything in it was read. */
export type FrameErrorCode = 'frame.too-large' | 'frame.empty' | 'frame.type' | 'frame.length' | 'frame.range'

export type FrameDecoded =
  | { readonly ok: true; readonly frame: MeshFrame }
  | { readonly ok: false; readonly code: FrameErrorCode; readonly detail: string }

function withType(type: number, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(1 + body.length)
  out[0] = type
  out.set(body, 1)
  return out
}

export function envelopeFrame(envelope: Uint8Array): Uint8Array {
  return withType(FRAME.envelope, envelope)
}

export function genesisFrame(genesis: Uint8Array): Uint8Array {
  return withType(FRAME.genesis, genesis)
}

export function controlFrame(control: Uint8Array): Uint8Array {
  return withType(FRAME.control, control)
}

export function resumeFrame(held: readonly number[]): Uint8Array {
  if (held.length > 255) throw new Error('a resume frame counts at most 255 authors')
  const out = new Uint8Array(2 + 2 * held.length)
  out[0] = FRAME.resume
  out[1] = held.length
  held.forEach((k, i) => {
    const v = Math.min(Math.max(0, Math.trunc(k)), 0xffff)
    out[2 + 2 * i] = v >>> 8
    out[3 + 2 * i] = v & 0xff
  })
  return out
}

export function wantFrame(ref: MeshRef): Uint8Array {
  if (ref.hash.length !== HASH_BYTES) throw new Error('a want names a 32-byte hash')
  const out = new Uint8Array(WANT_FRAME_BYTES)
  out[0] = FRAME.want
  out[1] = ref.author
  out[2] = ref.seq >>> 8
  out[3] = ref.seq & 0xff
  out.set(ref.hash, 4)
  return out
}

/** Reads a frame of a game with `authors` authors; envelopes and the game's frames stay opaque here. */
export function decodeFrame(bytes: Uint8Array, authors: number, maxFrame: number): FrameDecoded {
  if (bytes.length > maxFrame) return { ok: false, code: 'frame.too-large', detail: `${bytes.length} bytes` }
  const type = bytes[0]
  if (type === undefined) return { ok: false, code: 'frame.empty', detail: 'no type byte' }
  const body = bytes.subarray(1)
  switch (type) {
    case FRAME.envelope:
      return { ok: true, frame: { kind: 'envelope', bytes: body } }
    case FRAME.genesis:
      return { ok: true, frame: { kind: 'genesis', bytes: body } }
    case FRAME.control:
      return { ok: true, frame: { kind: 'control', bytes: body } }
    case FRAME.resume: {
      const n = body[0]
      if (n === undefined || body.length !== 1 + 2 * n)
        return { ok: false, code: 'frame.length', detail: 'resume: u8 n then n u16 counts' }
      if (n !== authors) return { ok: false, code: 'frame.range', detail: `resume counts ${n} authors, not ${authors}` }
      const held: number[] = []
      for (let i = 0; i < n; i++) held.push(((body[1 + 2 * i] ?? 0) << 8) | (body[2 + 2 * i] ?? 0))
      return { ok: true, frame: { kind: 'resume', held } }
    }
    case FRAME.want: {
      if (bytes.length !== WANT_FRAME_BYTES) return { ok: false, code: 'frame.length', detail: 'want: 35 bytes' }
      const author = body[0] ?? 0
      if (author >= authors) return { ok: false, code: 'frame.range', detail: `want names author ${author}` }
      const seq = ((body[1] ?? 0) << 8) | (body[2] ?? 0)
      return { ok: true, frame: { kind: 'want', ref: { author, seq, hash: body.slice(3) } } }
    }
    default:
      return { ok: false, code: 'frame.type', detail: `type ${type}` }
  }
}
