/**
 * protocol/SPAAACE-PEERS.md §2: transcript files. The line `spaaace-transcript 1`, then one line
 * per item in base64url (SPEC §3.4): the genesis (first byte `0x47`), envelopes (`0x01`), notary
 * receipts (`0x84`, witnessed games only). Other lines are set aside, each with its coded error;
 * two lines with one envelope's bytes are one line (BD-13). Nothing here checks a signature: what
 * authenticates is the verifier's (§4.1, SPEC §5.4).
 */
import { fromBase64url, toBase64url } from '../../../core/commit/bytes.js'
import { type Decoded, type ProtocolError, protocolError } from '../../../core/wire/errors.js'
import { LINE_KIND, MAX_FILE_BYTES, TRANSCRIPT_HEADER } from './domain.js'
import { type ReadEnvelope, readEnvelope } from './envelope.js'
import { type SealedGenesis, decodeGenesis } from './genesis.js'

/** A line set aside, 1-based after the header line (line 1 is the genesis). */
export interface SetAside {
  readonly line: number
  readonly error: ProtocolError
}

export interface PeersTranscript {
  readonly genesis: SealedGenesis
  /** Envelopes whose header decodes for this game (§4.1), distinct byte strings in file order. */
  readonly envelopes: readonly ReadEnvelope[]
  /** Receipt lines of a witnessed game (§11), distinct, in file order; read by the notary's codecs. */
  readonly receipts: readonly Uint8Array[]
  readonly setAside: readonly SetAside[]
}

/** §2: a transcript of `genesis`, then `items` (envelopes, receipts) in the order given. */
export function formatPeersTranscript(genesis: Uint8Array, items: readonly Uint8Array[]): string {
  return [TRANSCRIPT_HEADER, toBase64url(genesis), ...items.map((b) => toBase64url(b))].map((l) => `${l}\n`).join('')
}

const RULE = '§2'

/**
 * §2, BD-13: reads a transcript (its text one character a byte, as latin1 decodes it). The file
 * fails (no game) if it is over `MAX_FILE_BYTES`, if its first line is not the header or its second
 * line is not a genesis that decodes; every later line is kept or set aside.
 */
export function readPeersTranscript(text: string): Decoded<PeersTranscript> {
  if (text.length > MAX_FILE_BYTES)
    return {
      ok: false,
      error: protocolError('file.too-large', '', '§10', `at most ${MAX_FILE_BYTES} bytes, got ${text.length}`),
    }
  const lines = text.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  if (lines[0] !== TRANSCRIPT_HEADER)
    return { ok: false, error: protocolError('file.header', '', RULE, `the first line is "${TRANSCRIPT_HEADER}"`) }
  const first = fromBase64url(lines[1] ?? '')
  if (first === undefined || first.length === 0)
    return {
      ok: false,
      error: protocolError('wire.base64', 'line 2', RULE, 'the genesis line is not strict base64url'),
    }
  const g = decodeGenesis(first)
  if (!g.ok) return g
  const game = { players: g.value.genesis.keys.length, game: g.value.game }
  const witnessed = g.value.genesis.notaryKey !== null
  const envelopes: ReadEnvelope[] = []
  const receipts: Uint8Array[] = []
  const setAside: SetAside[] = []
  const seen = new Set<string>([lines[1] ?? ''])
  const aside = (line: number, code: ProtocolError['code'], message: string): void => {
    // The field names the file's line (the header is line 1), as every report of it does.
    setAside.push({ line, error: protocolError(code, `line ${line + 1}`, RULE, message) })
  }
  for (let i = 2; i < lines.length; i++) {
    const row = lines[i] ?? ''
    const b = fromBase64url(row)
    if (b === undefined || b.length === 0) {
      aside(i, 'wire.base64', row === '' ? 'an empty line' : 'not strict base64url')
      continue
    }
    if (seen.has(row)) continue
    seen.add(row)
    if (b[0] === LINE_KIND.envelope) {
      const r = readEnvelope(b, game)
      if (r.ok) envelopes.push(r.value)
      else setAside.push({ line: i, error: r.error })
    } else if (b[0] === LINE_KIND.receipt && witnessed) receipts.push(b)
    else if (b[0] === LINE_KIND.genesis) aside(i, 'file.line', 'a second genesis line')
    else aside(i, 'file.line', `no item of this game starts with 0x${(b[0] ?? 0).toString(16).padStart(2, '0')}`)
  }
  return { ok: true, value: { genesis: g.value, envelopes, receipts, setAside } }
}
