/**
 * The notary's wire messages (NOTARY.md §7): one request and one response per stream, each a
 * length-prefixed message of at most MAX_MESSAGE_BYTES. Requests: register, submit, complain,
 * fetch, seal, and claim (the first of a claim's two steps, PROTOCOL-4.md §4.4). Responses: a
 * receipt, newer receipts (a claim that has not seen the last), "not before" a time, a slice of
 * the log with deposits, or a refusal with its code. Strict decoders, coded errors.
 */
import { HASH_BYTES } from '../commit/hash.js'
import { Reader, Writer, decoded, fail } from '../wire/binary.js'
import type { Decoded } from '../wire/errors.js'
import { CLAIM_BYTES } from './claim.js'
import { COMPLAINT_BYTES } from './complaint.js'
import { MAX_DEPOSIT_BYTES, isDepositSize } from './deposit.js'
import { readU64, writeU64 } from './fields.js'
import { HEADER_BYTES } from './header.js'
import { MAX_HELLO_BYTES, MAX_RECEIPT_BYTES } from './receipt.js'

/** NOTARY.md §7.1: the libp2p protocol id. */
export const NOTARY_PROTOCOL_ID = '/spaceships-notary/1.0.0' as const
/** NOTARY.md §7.1: a fetch answer carries at most this many bytes of receipts and deposits. */
export const FETCH_BUDGET_BYTES = 4 * 1_048_576
/** NOTARY.md §7.1: the largest message either way (the fetch budget and room for framing). */
export const MAX_MESSAGE_BYTES = FETCH_BUDGET_BYTES + 65_536
/** NOTARY.md §7.3: a refusal's message, printable ASCII. */
export const MAX_REFUSAL_TEXT = 1024

/** NOTARY.md §7.4: refusal codes, numbered from 1 on the wire in this order. */
export const REFUSALS = [
  'malformed',
  'unregistered',
  'sealed',
  'signature',
  'place-taken',
  'seq',
  'deposit',
  'claim-seen',
  'registrar',
  'notary-key',
  'player-key',
  'not-a',
  'not-a-player',
  'complaint-target',
  'complaint-repeat',
  /** 16, reserved: no longer sent (PROTOCOL-4.md §5.3: a complaint has no rule of time beyond the seal). */
  'complaint-late',
  'complaint-invalid',
  'not-over',
  'limit-rate',
  'limit-games',
  'limit-bytes',
  'limit-complaints',
  'deposit-gone',
  'claim-unrequested',
] as const

/** SPAAACE-WITNESSED §9.2, §12: codes 25..32, after REFUSALS, sent only under an n-player protocol. */
export const N_PLAYER_REFUSALS = [
  'too-late',
  'limit-horizon',
  'flags',
  'unsupported',
  'seq-bound',
  'mark-range',
  'relay-target',
  'relay-repeat',
] as const
/** Every refusal code, numbered from 1 on the wire in this order (REFUSALS, then N_PLAYER_REFUSALS). */
export const ALL_REFUSALS = [...REFUSALS, ...N_PLAYER_REFUSALS] as const
export type RefusalCode = (typeof ALL_REFUSALS)[number]

/**
 * A notary protocol's message table (SPAAACE-WITNESSED §9.1): which request and response types
 * and refusal codes its decoders accept, and how a registration is laid out. The default is
 * Spaceships' (NOTARY.md §7), whose decoders refuse everything added for n players.
 */
export interface NotaryProtocol {
  /** The libp2p protocol id. */
  readonly id: string
  /** The highest request type (6 claim; 9 relays). */
  readonly maxRequest: number
  /** The highest response type (5 refused; 6 relays). */
  readonly maxResponse: number
  /** The highest refusal code (24; 32). */
  readonly maxRefusal: number
  /** Whether `register` carries one genesis body (`u32 m ‖ body0[m]`) instead of two hellos. */
  readonly genesisBody: boolean
}

/** NOTARY.md §7: the two-player protocol, as it has always decoded. */
export const TWO_PLAYER_PROTOCOL: NotaryProtocol = {
  id: '/spaceships-notary/1.0.0',
  maxRequest: 6,
  maxResponse: 5,
  maxRefusal: 24,
  genesisBody: false,
}

/** SPAAACE-WITNESSED §5.4: a relay's bytes. */
export const RELAY_BYTES = 32 + 4 + 1 + 80
/** SPAAACE-WITNESSED §3: the largest genesis body a registration carries (far above 16 players'). */
export const MAX_GENESIS_BODY_BYTES = 65_536

/** SPAAACE-WITNESSED §9.1 response 6: one relay held for the requester. */
export interface HeldRelay {
  readonly index: number
  readonly from: number
  /** `enc[32] ‖ wrapped[48]`. */
  readonly wrap: Uint8Array
}

export type NotaryRequest =
  | { readonly kind: 'register'; readonly helloA: Uint8Array; readonly helloB: Uint8Array }
  /** SPAAACE-WITNESSED §9.1 request 1: one genesis body. */
  | { readonly kind: 'register-genesis'; readonly body: Uint8Array }
  /** §9.1 request 7: mark cut `cut` of tick `t` (ranges are the notary's check, refusal 30). */
  | { readonly kind: 'mark'; readonly game: Uint8Array; readonly t: number; readonly cut: number }
  /** §9.1 request 8: a relay's 117 bytes. */
  | { readonly kind: 'relay'; readonly relay: Uint8Array }
  /** §9.1 request 9: the relays held for the requester. */
  | { readonly kind: 'relays'; readonly game: Uint8Array }
  | { readonly kind: 'submit'; readonly header: Uint8Array; readonly deposit: Uint8Array }
  | { readonly kind: 'complain'; readonly complaint: Uint8Array }
  | { readonly kind: 'fetch'; readonly game: Uint8Array; readonly from: number }
  | { readonly kind: 'seal'; readonly game: Uint8Array }
  | { readonly kind: 'claim'; readonly claim: Uint8Array }

export interface LogItem {
  readonly receipt: Uint8Array
  /** The deposit of an envelope receipt, for a player; empty when none is given. */
  readonly deposit: Uint8Array
}

export type NotaryResponse =
  | { readonly kind: 'receipt'; readonly receipt: Uint8Array }
  | { readonly kind: 'newer'; readonly receipts: readonly Uint8Array[] }
  | { readonly kind: 'not-before'; readonly time: number }
  | { readonly kind: 'log'; readonly items: readonly LogItem[]; readonly more: boolean }
  | { readonly kind: 'refused'; readonly code: RefusalCode; readonly message: string }
  /** SPAAACE-WITNESSED §9.1 response 6. */
  | { readonly kind: 'relays'; readonly relays: readonly HeldRelay[] }

const REQUEST = {
  register: 1,
  'register-genesis': 1,
  submit: 2,
  complain: 3,
  fetch: 4,
  seal: 5,
  claim: 6,
  mark: 7,
  relay: 8,
  relays: 9,
} as const
const RESPONSE = { receipt: 1, newer: 2, 'not-before': 3, log: 4, refused: 5, relays: 6 } as const
const RULE = 'NOTARY.md §7.2'

export function encodeRequest(q: NotaryRequest): Uint8Array {
  const w = new Writer().u8(REQUEST[q.kind])
  switch (q.kind) {
    case 'register':
      return w.u32(q.helloA.length).bytes(q.helloA).u32(q.helloB.length).bytes(q.helloB).finish()
    case 'register-genesis':
      return w.u32(q.body.length).bytes(q.body).finish()
    case 'mark':
      return w.bytes(q.game).u16(q.t).u8(q.cut).finish()
    case 'relay':
      return w.bytes(q.relay).finish()
    case 'relays':
      return w.bytes(q.game).finish()
    case 'submit':
      return w.bytes(q.header).u32(q.deposit.length).bytes(q.deposit).finish()
    case 'complain':
      return w.bytes(q.complaint).finish()
    case 'fetch':
      return w.bytes(q.game).u32(q.from).finish()
    case 'seal':
      return w.bytes(q.game).finish()
    case 'claim':
      return w.bytes(q.claim).finish()
  }
}

function sized(r: Reader, field: string, min: number, max: number): Uint8Array {
  const n = r.u32(`${field}.length`, RULE)
  if (n < min || n > max) fail('field.range', `${field}.length`, RULE, `expected ${min}..${max}, got ${n}`)
  return r.bytes(n, field, RULE)
}

/**
 * Decodes a request's layout under `protocol`'s table (Spaceships' by default); what is inside (a
 * header, a complaint, a claim, a relay) is decoded by the notary.
 */
export function decodeRequest(
  bytes: Uint8Array,
  protocol: NotaryProtocol = TWO_PLAYER_PROTOCOL,
): Decoded<NotaryRequest> {
  return decoded(() => {
    if (bytes.length > MAX_MESSAGE_BYTES) fail('wire.too-large', 'request', RULE, `at most ${MAX_MESSAGE_BYTES} bytes`)
    const r = new Reader(bytes)
    const type = r.range('request.type', RULE, r.u8('request.type', RULE), 1, protocol.maxRequest)
    let q: NotaryRequest
    if (type === REQUEST.register && protocol.genesisBody)
      q = { kind: 'register-genesis', body: sized(r, 'body', 1, MAX_GENESIS_BODY_BYTES) }
    else if (type === REQUEST.mark)
      q = { kind: 'mark', game: r.bytes(HASH_BYTES, 'game', RULE), t: r.u16('t', RULE), cut: r.u8('cut', RULE) }
    else if (type === REQUEST.relay) q = { kind: 'relay', relay: r.bytes(RELAY_BYTES, 'relay', RULE) }
    else if (type === REQUEST.relays) q = { kind: 'relays', game: r.bytes(HASH_BYTES, 'game', RULE) }
    else if (type === REQUEST.register)
      q = {
        kind: 'register',
        helloA: sized(r, 'helloA', 1, MAX_HELLO_BYTES),
        helloB: sized(r, 'helloB', 1, MAX_HELLO_BYTES),
      }
    else if (type === REQUEST.submit) {
      const header = r.bytes(HEADER_BYTES, 'header', RULE)
      const deposit = sized(r, 'deposit', 0, MAX_DEPOSIT_BYTES)
      // SPAAACE-WITNESSED §9.2: under an n-player protocol the size is the game's check (refusal 7).
      if (deposit.length !== 0 && !protocol.genesisBody && !isDepositSize(deposit.length))
        fail('field.range', 'deposit.length', RULE, `${deposit.length} is not a deposit size`)
      q = { kind: 'submit', header, deposit }
    } else if (type === REQUEST.complain)
      q = { kind: 'complain', complaint: r.bytes(COMPLAINT_BYTES, 'complaint', RULE) }
    else if (type === REQUEST.fetch)
      q = { kind: 'fetch', game: r.bytes(HASH_BYTES, 'game', RULE), from: r.u32('from', RULE) }
    else if (type === REQUEST.seal) q = { kind: 'seal', game: r.bytes(HASH_BYTES, 'game', RULE) }
    else q = { kind: 'claim', claim: r.bytes(CLAIM_BYTES, 'claim', RULE) }
    r.end('request', RULE)
    return q
  })
}

function printable(text: string): string {
  let out = ''
  for (const ch of text.slice(0, MAX_REFUSAL_TEXT)) out += ch >= ' ' && ch <= '~' ? ch : '?'
  return out
}

export function encodeResponse(a: NotaryResponse): Uint8Array {
  const w = new Writer().u8(RESPONSE[a.kind])
  switch (a.kind) {
    case 'receipt':
      return w.u32(a.receipt.length).bytes(a.receipt).finish()
    case 'newer':
      w.u16(a.receipts.length)
      for (const x of a.receipts) w.u32(x.length).bytes(x)
      return w.finish()
    case 'not-before':
      return writeU64(w, a.time).finish()
    case 'log':
      w.u8(a.more ? 1 : 0).u16(a.items.length)
      for (const x of a.items) w.u32(x.receipt.length).bytes(x.receipt).u32(x.deposit.length).bytes(x.deposit)
      return w.finish()
    case 'refused':
      return w
        .u8(ALL_REFUSALS.indexOf(a.code) + 1)
        .text16(printable(a.message))
        .finish()
    case 'relays':
      w.u16(a.relays.length)
      for (const x of a.relays) w.u32(x.index).u8(x.from).bytes(x.wrap)
      return w.finish()
  }
}

/** SPAAACE-WITNESSED §9.1: relays in one answer at most (a u16 count). */
export const MAX_RELAYS_PER_ANSWER = 0xffff

export function decodeResponse(
  bytes: Uint8Array,
  protocol: NotaryProtocol = TWO_PLAYER_PROTOCOL,
): Decoded<NotaryResponse> {
  return decoded(() => {
    const rule = 'NOTARY.md §7.3'
    if (bytes.length > MAX_MESSAGE_BYTES) fail('wire.too-large', 'response', rule, `at most ${MAX_MESSAGE_BYTES} bytes`)
    const r = new Reader(bytes)
    const type = r.range('response.type', rule, r.u8('response.type', rule), 1, protocol.maxResponse)
    let a: NotaryResponse
    if (type === RESPONSE.receipt) a = { kind: 'receipt', receipt: sized(r, 'receipt', 1, MAX_RECEIPT_BYTES) }
    else if (type === RESPONSE.newer) {
      const n = r.u16('receipts.count', rule)
      const receipts: Uint8Array[] = []
      for (let i = 0; i < n; i++) receipts.push(sized(r, `receipts[${i}]`, 1, MAX_RECEIPT_BYTES))
      a = { kind: 'newer', receipts }
    } else if (type === RESPONSE['not-before']) a = { kind: 'not-before', time: readU64(r, 'time', rule) }
    else if (type === RESPONSE.log) {
      const more = r.bool('more', rule)
      const n = r.u16('items.count', rule)
      const items: LogItem[] = []
      for (let i = 0; i < n; i++) {
        const receipt = sized(r, `items[${i}].receipt`, 1, MAX_RECEIPT_BYTES)
        const deposit = sized(r, `items[${i}].deposit`, 0, MAX_DEPOSIT_BYTES)
        if (deposit.length !== 0 && !isDepositSize(deposit.length, protocol.genesisBody ? 'any' : 2))
          fail('field.range', `items[${i}].deposit.length`, rule, `${deposit.length} is not a deposit size`)
        items.push({ receipt, deposit })
      }
      a = { kind: 'log', items, more }
    } else if (type === RESPONSE.relays) {
      const n = r.u16('relays.count', rule)
      const relays: HeldRelay[] = []
      for (let i = 0; i < n; i++)
        relays.push({
          index: r.u32(`relays[${i}].index`, rule),
          from: r.range(`relays[${i}].from`, rule, r.u8(`relays[${i}].from`, rule), 0, 15),
          wrap: r.bytes(80, `relays[${i}].wrap`, rule),
        })
      a = { kind: 'relays', relays }
    } else {
      const code = ALL_REFUSALS[r.range('code', rule, r.u8('code', rule), 1, protocol.maxRefusal) - 1]
      a = { kind: 'refused', code: code ?? 'malformed', message: r.text(2, MAX_REFUSAL_TEXT, 'message', rule) }
    }
    r.end('response', rule)
    return a
  })
}
