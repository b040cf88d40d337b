/**
 * PROTOCOL-4.md §4.1: a side's envelopes that the notary has not receipted, read from a transcript's
 * lines (its envelopes and receipt lines): signed and kept, but seen by nobody and counting for
 * nothing until a check-in deposits them. Pure: bytes in, seqs out.
 */
import { decodeReceipt } from '../../../core/notary/receipt.js'
import { decodeEnvelope } from '../protocol/envelope.js'
import { ROLE_INDEX, type Role } from '../protocol/messages.js'

/** The seqs of `side`'s envelopes after its hello that no envelope receipt of the store names. */
export function unreceiptedSeqs(store: { envelopes(): readonly Uint8Array[] }, side: Role): number[] {
  const receipted = new Set<number>()
  const own: number[] = []
  for (const bytes of store.envelopes()) {
    const r = decodeReceipt(bytes)
    if (r.ok) {
      if (r.value.kind === 'envelope' && r.value.header.sender === ROLE_INDEX[side]) receipted.add(r.value.header.seq)
      continue
    }
    const d = decodeEnvelope(bytes)
    if (d.ok && d.value.envelope.sender === side && d.value.envelope.seq >= 1) own.push(d.value.envelope.seq)
  }
  return [...new Set(own)].filter((seq) => !receipted.has(seq)).sort((a, b) => a - b)
}
