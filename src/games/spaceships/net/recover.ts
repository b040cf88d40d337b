/**
 * A witnessed game's envelopes fetched back from its notary (PROTOCOL-4.md §5.2, §6): the genesis
 * holds both hellos, and every receipted envelope's deposit opens for this side, its own by its
 * own wrap and the other side's by the recipient's. A node whose transcript was lost or cut back
 * rebuilds it from them, so it never signs again at a place it signed (SPEC §2.2).
 */
import { multiaddr } from '@multiformats/multiaddr'
import { toBase64url } from '../../../core/commit/bytes.js'
import type { Identity } from '../../../core/net/identity.js'
import { createPeerNode } from '../../../core/net/node.js'
import { decodeReceipt } from '../../../core/notary/receipt.js'
import { NotaryClient, libp2pTransport } from '../../../core/notary-net/client.js'
import { systemClock } from '../../../core/session/clock.js'
import { NOTARY_DOMAIN } from '../protocol/domain.js'
import { type SealedEnvelope, decodeEnvelope } from '../protocol/envelope.js'
import { LIMITS, ROLE_INDEX, type Role } from '../protocol/messages.js'
import { openHeaderDeposit } from '../witness/submission.js'
import { peerIdsOf, settledWithin } from './plumbing.js'

/** How long a recovery waits for the notary before it gives up (the node then refuses to sign, as without one). */
export const RECOVERY_TIMEOUT_MS = 30_000

export type Recovery =
  | {
      readonly ok: true
      /** Every envelope held or fetched, in an order each one's `prev` and `ack` come before it. */
      readonly envelopes: readonly Uint8Array[]
      /** The notary's receipts of the game, for the transcript (PROTOCOL-4.md §2). */
      readonly receipts: readonly Uint8Array[]
    }
  | { readonly ok: false; readonly why: string }

export async function recoverFromNotary(o: {
  readonly identity: Identity
  readonly role: Role
  readonly game: Uint8Array
  readonly notary: { readonly key: Uint8Array; readonly addrs: readonly string[] }
  /** What the transcript still holds. */
  readonly held: readonly Uint8Array[]
  readonly signal?: AbortSignal
}): Promise<Recovery> {
  const node = await createPeerNode({
    identity: o.identity,
    listen: [],
    admission: () => new Set(peerIdsOf(o.notary.addrs)),
  })
  await node.start()
  const timeout = AbortSignal.timeout(RECOVERY_TIMEOUT_MS)
  const signal = o.signal === undefined ? timeout : AbortSignal.any([o.signal, timeout])
  try {
    const client = new NotaryClient({
      transport: libp2pTransport(
        node,
        o.notary.addrs.map((a) => multiaddr(a)),
      ),
      clock: systemClock,
      domain: NOTARY_DOMAIN,
      notaryKey: o.notary.key,
    })
    let items
    try {
      items = await client.fetch(o.game, 0, signal, LIMITS.fileLinesV4)
    } catch (e) {
      return { ok: false, why: `the notary could not be reached: ${(e as Error).message}` }
    }
    if (!Array.isArray(items)) return { ok: false, why: `the notary answered ${items.kind}` }
    const me = ROLE_INDEX[o.role]
    const found = new Map<string, { sealed: SealedEnvelope; at: number }>()
    const add = (bytes: Uint8Array, at: number): void => {
      const d = decodeEnvelope(bytes)
      if (d.ok && !found.has(d.value.id)) found.set(d.value.id, { sealed: d.value, at })
    }
    o.held.forEach((b, i) => {
      add(b, -o.held.length + i)
    })
    const receipts: Uint8Array[] = []
    for (const [i, it] of items.entries()) {
      const r = decodeReceipt(it.receipt)
      if (!r.ok) continue
      receipts.push(it.receipt)
      if (r.value.kind === 'genesis') {
        add(r.value.helloA, i)
        add(r.value.helloB, i)
      }
      if (r.value.kind !== 'envelope' || it.deposit.length === 0) continue
      const h = r.value.header
      const opened = openHeaderDeposit(it.deposit, h, h.sender === me ? 1 : 0, o.identity.keys.secretKey)
      if (opened.ok) add(opened.value, i)
    }
    return { ok: true, envelopes: causalOrder([...found.values()]), receipts }
  } finally {
    // A short-lived client node: its stop is bounded (settledWithin), the envelopes are in hand.
    await settledWithin(Promise.resolve(node.stop()), 3000)
  }
}

/**
 * The envelopes in an order in which each one's `prev` (its sender's previous envelope) and `ack`
 * (the other side's envelope it acknowledges), when held, come before it: an order a node could
 * have persisted them in (SPEC §11). Ties go to the earlier receipt (or the transcript's order).
 */
function causalOrder(all: readonly { sealed: SealedEnvelope; at: number }[]): Uint8Array[] {
  const byId = new Map(all.map((x) => [x.sealed.id, x]))
  const bySeq = new Map(all.map((x) => [`${x.sealed.envelope.sender}/${x.sealed.envelope.seq}`, x]))
  const deps = (x: { sealed: SealedEnvelope }): string[] => {
    const e = x.sealed.envelope
    const out: string[] = []
    const prev = bySeq.get(`${e.sender}/${e.seq - 1}`)
    if (e.seq > 0 && prev !== undefined) out.push(prev.sealed.id)
    const acked = e.ack === undefined ? undefined : byId.get(toBase64url(e.ack))
    if (acked !== undefined) out.push(acked.sealed.id)
    return out
  }
  const done = new Set<string>()
  const out: Uint8Array[] = []
  const pending = [...all].sort((a, b) => a.at - b.at)
  while (pending.length > 0) {
    const i = pending.findIndex((x) => deps(x).every((d) => done.has(d)))
    // A cycle cannot be signed (hashes); were one forged into a file, the rest keep their order.
    const [next] = pending.splice(i < 0 ? 0 : i, 1)
    if (next === undefined) break
    done.add(next.sealed.id)
    out.push(next.sealed.bytes)
  }
  return out
}
