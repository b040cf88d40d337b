/**
 * Witnessed Spaaace! (protocol/SPAAACE-WITNESSED.md): the notary's identifiers, domain tags and
 * named constants (§2), the n-player layout the core's notary codecs read with (§5, §6.1), and the
 * notary protocol's message table (§9.1). Every constant cites the section that fixes it.
 */
import { concatBytes, u32 } from '../../../core/commit/bytes.js'
import type { NotaryDomain, NotaryLayout } from '../../../core/notary/domain.js'
import type { NotaryProtocol } from '../../../core/notary/messages.js'
import { type Reader, fail } from '../../../core/wire/binary.js'
import { MAX_PLAYERS, MIN_PLAYERS } from '../peers/domain.js'

/** §2: the notary's libp2p protocol id (Spaceships' `/spaceships-notary/1.0.0` is another). */
export const SPAAACE_NOTARY_PROTOCOL_ID = '/spaaace-notary/1.0.0'

/** §2, §12: every witnessed envelope is padded to exactly this. */
export const PAD_W = 2048
/** §2: the largest envelope a deposit carries (`pad` needs one byte for 0x80). */
export const MAX_ENVELOPE_W = PAD_W - 1
/** §2: `enc[32] ‖ wrapped[48]`. */
export const WRAP_BYTES = 80
/** §2: the AEAD tag of a deposit's body. */
const TAG_BYTES = 16
/** §2: highest `seq` receipted per tick: `SEQ_W(u) = 2 + 4·u`. */
export const SEQ_PER_TICK_W = 4
/** §2, §5.3: complaint receipts per (complainant, author) per game. */
export const COMPLAINTS_PER_PAIR = 2
/** §2: deposits and relays are kept this long after the seal. */
export const RETENTION_MS = 2_592_000_000
/** §2: a notary refuses a game whose horizon is further than this from its now (a deployment limit). */
export const MAX_HORIZON_MS = 34_560_000_000
/** §3: an accept in a genesis receipt: header 68, `h = 0`, `count = 1`, the part 0x01, sig 64. */
export const ACCEPT_BYTES = 135
/** §3: a witnessed genesis is `99 + 32·n` bytes (P §3.1 with `witness = 1`). */
export const GENESIS_FIXED_BYTES = 99

/** §2: `DEP(n) = 80·n + 2,064`, the one deposit size of an `n`-player game. */
export function depositBytesOf(n: number): number {
  return WRAP_BYTES * n + PAD_W + TAG_BYTES
}

/** §2: `SEQ_W(u) = 2 + 4·u`. */
export function seqBoundOf(u: number): number {
  return 2 + SEQ_PER_TICK_W * u
}

/** §3: the bytes of a witnessed genesis of `n` players. */
export function genesisBytesOf(n: number): number {
  return GENESIS_FIXED_BYTES + 32 * n
}

const RULE = 'SPAAACE-WITNESSED §3'

/**
 * §3: reads a genesis receipt's body `u32 g ‖ genesis[g] ‖ accept[135] × n` by its lengths alone
 * (`g = 99 + 32·n`, `n` 3..16): the body's bytes. Whether it gives the game is judged apart
 * (genesis-receipt.ts), so that a body of the right shape that does not is a notary fault
 * (`genesis-invalid`, §6.3) and not a receipt set aside.
 */
export function readGenesisBody(r: Reader): Uint8Array {
  const g = r.u32('body.g', RULE)
  const n = (g - GENESIS_FIXED_BYTES) / 32
  if (!Number.isInteger(n) || n < MIN_PLAYERS || n > MAX_PLAYERS)
    fail('field.range', 'body.g', RULE, `99 + 32·n for n ${MIN_PLAYERS}..${MAX_PLAYERS}, got ${g}`)
  const genesis = r.bytes(g, 'body.genesis', RULE)
  const accepts = r.bytes(ACCEPT_BYTES * n, 'body.accepts', RULE)
  return concatBytes(u32(g), genesis, accepts)
}

/** §5, §6.1: the n-player reading of the core's layouts, with §3's genesis body. */
export const SPAAACE_LAYOUT: NotaryLayout = {
  maxAuthor: 15,
  gameFlags: true,
  wrapsByRoster: true,
  maxKind: 5,
  genesisBody: readGenesisBody,
}

/** §2: the notary domain tags (`claim` declared, never used), the relay tag, and the layout. */
export const SPAAACE_NOTARY_DOMAIN: NotaryDomain = {
  submission: 'spaaace/1/submission',
  receipt: 'spaaace/1/receipt',
  receiptHash: 'spaaace/1/receipt-hash',
  deposit: 'spaaace/1/deposit',
  depositHash: 'spaaace/1/deposit-hash',
  complaint: 'spaaace/1/complaint',
  complaintProof: 'spaaace/1/complaint-proof',
  claim: 'spaaace/1/claim',
  relay: 'spaaace/1/relay',
  layout: SPAAACE_LAYOUT,
}

/** §9.1: requests 1..9 (register with one genesis body), responses 1..6, refusals 1..32. */
export const SPAAACE_NOTARY_PROTOCOL: NotaryProtocol = {
  id: SPAAACE_NOTARY_PROTOCOL_ID,
  maxRequest: 9,
  maxResponse: 6,
  maxRefusal: 32,
  genesisBody: true,
}
