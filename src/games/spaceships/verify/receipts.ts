/**
 * The receipt lines of a witnessed game's file (PROTOCOL-4.md §2, §4.1): bytes whose first byte is
 * 0x84 are a notary's receipts, read as one log by `prev` from the genesis, ordered by index, never
 * by line position; the core's checker finds the notary's faults and the log's gaps (witnessed.ts
 * reads the log; here its report becomes the verdict's notes).
 */
import type { ReceiptLogReport } from '../../../core/notary/log.js'

/** PROTOCOL-4.md §2: the first byte of a receipt line. */
export const RECEIPT_BYTE = 0x84

export function isReceiptLine(bytes: Uint8Array): boolean {
  return bytes[0] === RECEIPT_BYTE
}

/** What the files' receipts say of a game witnessed by `notaryKey` (the checker's report), in lines for the verdict's notes. */
export function witnessNotes(report: ReceiptLogReport, notaryKey: Uint8Array): string[] {
  const out: string[] = []
  const notary = Buffer.from(notaryKey).toString('base64url').slice(0, 8)
  if (report.chain.length > 0)
    out.push(
      `witnessed by notary ${notary}…: ${report.chain.length} receipts from the genesis${report.sealed ? ', sealed' : ''} (PROTOCOL-4.md §4.1)`,
    )
  for (const f of report.faults)
    out.push(
      `notary fault at receipt ${f.index} (${f.kind}): ${f.detail}; proof against the notary, never against a player (PROTOCOL-4.md §4.1)`,
    )
  for (const g of report.gaps) out.push(`missing: the notary's receipt ${g.index} (PROTOCOL-4.md §4.1: a gap)`)
  if (report.setAside.length > 0)
    out.push(
      `${report.setAside.length} receipt lines set aside (not of this game, not signed by its notary, or carrying a player's signature that fails)`,
    )
  return out
}
