/**
 * Builds protocol/vectors/ deterministically from seeds: crypto vectors (hashes, salts,
 * commitments, signatures, Ed25519 edge cases) and transcripts (one honest game and one per
 * cheat class). `UPDATE_VECTORS=1 npx vitest run test/protocol` rewrites them; the test checks
 * that the files on disk are exactly what this builds and that each transcript gets its verdict.
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { sha512 } from '@noble/hashes/sha2.js'
import {
  DOMAIN, SEED_BYTES, cellCommitment, commitSetup, concatBytes, deriveSalt, detailValue, keyPairFromSecret, occupancyValue, recordCommitment, recordSalt, sign, taggedHash, toBase64url, toHex, utf8,
} from '../../src/commit/index.js'
import { seededRandom } from '../../src/rules/rng.js'
import { DEFAULT_RULESET } from '../../src/rules/ruleset.js'
import { type Setup, readSetup } from '../../src/rules/setup.js'
import { formatRecord } from '../../src/rules/record.js'
import { randomRecord } from '../../src/rules/enumerate.js'
import type { Action } from '../../src/rules/record.js'
import type { Deviation, PlayerStrategy } from '../../src/session/index.js'
import { formatTranscript, parseTranscript } from '../../src/transcript/file.js'
import { encodeFrame } from '../../src/transcript/frame.js'
import { cellValues } from '../../src/verify/replay.js'
import { SETUP_A, SETUP_B } from '../helpers.js'
import { playInMemory } from '../session/helpers.js'

const L = 2n ** 252n + 27742317777372353535851937790883648493n

function le(n: bigint, bytes = 32): Uint8Array {
  const out = new Uint8Array(bytes)
  for (let i = 0; i < bytes; i++) out[i] = Number((n >> BigInt(8 * i)) & 0xffn)
  return out
}
function fromLe(b: Uint8Array): bigint {
  let n = 0n
  for (let i = b.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(b[i] ?? 0)
  return n
}
const challenge = (r: Uint8Array, a: Uint8Array, m: Uint8Array): bigint => fromLe(sha512(concatBytes(r, a, m))) % L

function setupOf(text: string): Setup {
  const s = readSetup(text, DEFAULT_RULESET)
  if (!s.ok) throw new Error('bad setup')
  return s.value
}

export function cryptoVectors(): unknown {
  const secret = new Uint8Array(32).map((_, i) => i + 1)
  const kp = keyPairFromSecret(secret)
  const message = utf8('spaceships edge-case message')
  const sig = sign(kp, message)
  const R = sig.slice(0, 32)
  const S = fromLe(sig.slice(32))
  const a = ed25519.utils.getExtendedPublicKey(secret).scalar
  const identity = le(1n)
  const pPlus1 = le(2n ** 255n - 19n + 1n)
  // Small-order A (the identity): R = rB, S = r satisfies the equation for every message.
  const r = 12345n
  const rB = ed25519.Point.BASE.multiply(r).toBytes()
  // Non-canonical R (identity written as y = p + 1): S = k·a makes [S]B = R + [k]A.
  const kNonCanonical = challenge(pPlus1, kp.publicKey, message)
  // Mixed-order R = rB + T (T of order 8): valid under the cofactored rule, not under cofactorless ones.
  const T = ed25519.Point.fromHex('26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05')
  const Rmixed = ed25519.Point.BASE.multiply(r).add(T).toBytes()
  const kMixed = challenge(Rmixed, kp.publicKey, message)
  const sMixed = (r + kMixed * a) % L
  const edge = [
    { name: 'valid', publicKey: kp.publicKey, signature: sig, valid: true },
    { name: 'S not reduced (S + L)', publicKey: kp.publicKey, signature: concatBytes(R, le(S + L)), valid: false },
    { name: 'small-order public key (identity)', publicKey: identity, signature: concatBytes(rB, le(r)), valid: false },
    { name: 'non-canonical public key (y = p + 1)', publicKey: pPlus1, signature: concatBytes(rB, le(r)), valid: false },
    { name: 'non-canonical R (y = p + 1)', publicKey: kp.publicKey, signature: concatBytes(pPlus1, le((kNonCanonical * a) % L)), valid: false },
    { name: 'mixed-order R (cofactored equation holds, cofactorless does not)', publicKey: kp.publicKey, signature: concatBytes(Rmixed, le(sMixed)), valid: true },
  ].map((v) => ({ name: v.name, publicKey: toHex(v.publicKey), message: toHex(message), signature: toHex(v.signature), valid: v.valid }))
  const gameId = taggedHash(DOMAIN.gameId, new Uint8Array(32).fill(0xaa), new Uint8Array(32).fill(0xbb))
  const ctx = { gameId, player: 1 as const }
  const seed = new Uint8Array(SEED_BYTES).fill(0x42)
  const occSalt = deriveSalt(seed, ctx, 'occupancy', 7)
  const detSalt = deriveSalt(seed, ctx, 'detail', 7)
  const record = 'Rv1 Rv2 sOx3'
  const setupVector = commitSetup(ctx, cellValues(setupOf(SETUP_B)), seed)
  return {
    description: 'protocol/SPEC.md §3-§5 test vectors. Byte strings in lowercase hex.',
    taggedHash: { tag: DOMAIN.gameId, fields: ['aa'.repeat(32), 'bb'.repeat(32)], output: toHex(gameId) },
    salts: { seed: toHex(seed), gameId: toHex(gameId), player: 1, occupancyCell7: toHex(occSalt), detailCell7: toHex(detSalt), recordTurn3: toHex(recordSalt(seed, ctx, 3)) },
    commitments: {
      occupancyCell7Occupied: toHex(cellCommitment('occupancy', ctx, 7, occupancyValue(true), occSalt)),
      occupancyCell7Empty: toHex(cellCommitment('occupancy', ctx, 7, occupancyValue(false), occSalt)),
      detailCell7PC2: toHex(cellCommitment('detail', ctx, 7, detailValue('PC2'), detSalt)),
      detailCell7Empty: toHex(cellCommitment('detail', ctx, 7, detailValue('-'), detSalt)),
      recordTurn3: { text: record, commitment: toHex(recordCommitment(ctx, 3, record, recordSalt(seed, ctx, 3))) },
      setup: { setup: SETUP_B.trim(), vectorSha256: toHex(taggedHash(DOMAIN.secrets, setupVector)), note: 'vectorSha256 = taggedHash("spaceships/1/seeded-secrets", vector): a digest of the 8000-byte vector for comparison' },
    },
    signing: { secretKey: toHex(secret), publicKey: toHex(kp.publicKey), message: toHex(message), signature: toHex(sig) },
    ed25519: edge,
  }
}

function fixed(text: string, seed: string): PlayerStrategy {
  const setup = setupOf(text)
  const rng = seededRandom(seed)
  return { setup: () => setup, record: (ctx) => formatRecord(randomRecord(ctx.ruleset, ctx.state, ctx.turn, rng).actions) }
}

function once(pick: (b: import('../../src/transcript/messages.js').Body) => import('../../src/transcript/messages.js').Body | undefined): Deviation {
  let done = false
  return {
    outgoing(body, seal) {
      const changed = done ? undefined : pick(body)
      if (changed === undefined) return [seal(body)]
      done = true
      return [seal(changed)]
    },
  }
}

export interface TranscriptVector {
  readonly file: string
  readonly description: string
  readonly expect: Record<string, unknown>
}

/** The transcripts and their expected verdicts. */
export async function transcriptVectors(): Promise<{ files: Record<string, string>; manifest: TranscriptVector[] }> {
  const files: Record<string, string> = {}
  const manifest: TranscriptVector[] = []
  const game = async (name: string, description: string, deviation: Deviation | undefined, expectV: Record<string, unknown>, terms?: import('../../src/transcript/messages.js').Terms): Promise<string[]> => {
    const g = await playInMemory(`vector/${name}`, { strategies: [fixed(SETUP_A, `v/${name}/a`), fixed(SETUP_B, `v/${name}/b`)], deviations: [undefined, deviation], ...(terms === undefined ? {} : { terms }) })
    files[`${name}.transcript`] = formatTranscript(g.a.transcript)
    manifest.push({ file: `${name}.transcript`, description, expect: expectV })
    return [...g.a.transcript]
  }
  const honest = await game('honest', 'A whole honest game (2.6.1, standard fleets), as written by A.', undefined, { status: 'complete' })
  await game('false-visible-result', 'B answers a hit as a miss; its occupancy opening shows the ship.', once((b) => (b.t === 'results' && b.strikes.some((s) => s.result === 'hit' && s.explosions.length === 0) ? { ...b, strikes: b.strikes.map((s) => (s.result === 'hit' && s.explosions.length === 0 ? { ...s, result: 'miss' as const } : s)) } : undefined)), { status: 'offence', offender: 'B', class: 'false-visible-result' })
  await game('illegal-record', 'B fires more conventional strikes than its pool in turn 2.', {
    record(ctx, honestRecord) {
      if (ctx.turn !== 2) return { text: formatRecord(honestRecord.actions), record: honestRecord }
      const extra: Action[] = Array.from({ length: honestRecord.entitlements.conventionalPool + 1 }, (_, i) => ({ kind: 'strike', target: i }))
      return { text: formatRecord([...honestRecord.actions, ...extra]), record: { ...honestRecord, strikes: [...honestRecord.strikes, ...extra.map((_, i) => i)] } }
    },
  }, { status: 'offence', offender: 'B', class: 'illegal-record', turn: 2 })
  await game('commitment-mismatch', 'B reveals a setup other than the one it committed to.', once((b) => (b.t === 'reveal' ? { ...b, setup: b.setup.replace('HS Yx1 Yx2', 'HS Yx1 Yx2'.replace('Yx2', 'Yy1')) } : undefined)), { status: 'offence', offender: 'B', class: 'commitment-mismatch', turn: 0 })
  await game('false-destruction-report', 'B hides the destruction of one of its ships.', once((b) => (b.t === 'results' && b.destroyed.length > 0 ? { ...b, destroyed: [], fleetDestroyed: false } : undefined)), { status: 'offence', offender: 'B', class: 'false-destruction-report' })
  await game('false-flashcube-data', 'B reports a flashcube entry with the wrong destroyed state.', once((b) => (b.t === 'flashcube' && b.reports.some((r) => r.some((x) => x.kind === 'ship')) ? { ...b, reports: b.reports.map((r) => r.map((x) => (x.kind === 'ship' ? { ...x, destroyed: !x.destroyed } : x))) } : undefined)), { status: 'offence', offender: 'B', class: 'false-flashcube-data' })
  await game('equivocation', 'B signs two different results at one sequence number.', { outgoing: (body, seal) => (body.t === 'results' && body.turn === 2 ? [seal(body), seal({ ...body, fleetDestroyed: !body.fleetDestroyed })] : [seal(body)]) }, { status: 'offence', offender: 'B', class: 'equivocation', turn: 2 })
  await game('protocol-violation', 'B sends a commitment signed for another game.', { outgoing: (body, seal) => [body.t === 'commit' && body.turn === 2 ? seal(body, toBase64url(new Uint8Array(32).fill(7))) : seal(body)] }, { status: 'offence', offender: 'B', class: 'protocol-violation', turn: 2 })
  let silent = false
  await game('abandonment', 'B stops answering in turn 3; A reveals and records the abandonment.', {
    outgoing(body, seal) {
      silent ||= body.t === 'results' && body.turn === 3
      return silent ? [] : [seal(body)]
    },
  }, { status: 'incomplete', stoppedBy: 'B', honest: ['A'] }, { ruleset: '2.6.1 fleet=standard', maxTurns: 1000, setupMs: 1000, turnMs: 1000, replyMs: 1000, sanction: 'forfeit' })
  // Hand-tampered copies of the honest transcript.
  const line = honest.findIndex((l) => l.includes('"t":"results"') && l.includes('"from":"B"'))
  const bad = [...honest]
  bad[line] = (bad[line] ?? '').replace(/"sig":"(.)/, (_m, c: string) => `"sig":"${c === 'A' ? 'B' : 'A'}`)
  files['invalid-signature.transcript'] = formatTranscript(bad)
  manifest.push({ file: 'invalid-signature.transcript', description: "The honest game with one of B's signatures altered.", expect: { status: 'offence', offender: 'B', class: 'invalid-signature' } })
  files['truncated.transcript'] = formatTranscript(honest.slice(0, 40))
  manifest.push({ file: 'truncated.transcript', description: 'The honest game cut after 40 envelopes: nobody revealed.', expect: { status: 'incomplete', honest: [] } })
  files['garbage.transcript'] = formatTranscript([...honest.slice(0, 5), '{"v":1,"game":"not base64!"}'])
  manifest.push({ file: 'garbage.transcript', description: 'A line that is not an envelope.', expect: { status: 'unreadable' } })
  return { files, manifest }
}

/**
 * frames.json (SPEC §2.1): envelopes of the honest transcript as compact frames, with what the
 * receiver must hold to rebuild them (the game id, the sender's previous envelope hash, the hash
 * `ack` names) and the exact line they rebuild to.
 */
export function frameVectors(honestTranscript: string): unknown {
  const sealed = parseTranscript(honestTranscript)
  if (!sealed.ok) throw new Error('honest transcript unreadable')
  const envelopes = sealed.value
  // The setups travel deflated (form 0x02); the rest compact (0x01).
  const wanted = new Set(['setup', 'commit', 'aspects', 'results', 'flashcube', 'verdict'])
  const seen = new Set<string>()
  const out: unknown[] = []
  envelopes.forEach((s, i) => {
    const key = `${s.envelope.from}/${s.envelope.body.t}`
    if (!wanted.has(s.envelope.body.t) || seen.has(key)) return
    seen.add(key)
    const held = envelopes.slice(0, i)
    const ctx = {
      game: s.envelope.game,
      hashAt: (r: 'A' | 'B', at: number) => held.filter((x) => x.envelope.from === r)[at]?.hash,
      positionOf: (hash: string) => held.find((x) => x.hash === hash)?.envelope.seq,
    }
    const frame = encodeFrame(s, ctx)
    out.push({ from: s.envelope.from, body: s.envelope.body.t, game: s.envelope.game, prev: s.envelope.prev, ack: s.envelope.ack, ackSeq: s.envelope.ack === '' ? null : ctx.positionOf(s.envelope.ack), frame: toHex(frame), line: s.line })
  })
  return out
}
