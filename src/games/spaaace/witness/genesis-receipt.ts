/**
 * The genesis receipt of a witnessed game (SPAAACE-WITNESSED §3): its body
 *
 *   body0 = u32 g ‖ genesis[g] ‖ accept[135] × n          (g = 99 + 32·n; accepts in roster order)
 *
 * and whether it **gives the game**: the genesis decodes with `witness = 1`, its id is the
 * receipt's `game`, and each accept `i` is exactly 135 bytes, version 1, author `i`, `seq = 0`,
 * game and `prev` `G`, `h = 0`, one `accept` part, validly signed by roster key `i`. A witnessed
 * game exists iff the chain starts with a genesis receipt that gives it. Never throws on hostile bytes.
 */
import { concatBytes, constantTimeEqual, u32 } from '../../../core/commit/bytes.js'
import { Reader, decoded, fail } from '../../../core/wire/binary.js'
import type { Decoded } from '../../../core/wire/errors.js'
import { readEnvelope, signatureValid } from '../peers/envelope.js'
import { type SealedGenesis, decodeGenesis } from '../peers/genesis.js'
import { ACCEPT_BYTES, genesisBytesOf, readGenesisBody } from './domain.js'

const RULE = 'SPAAACE-WITNESSED §3'

/** A genesis body cut into its genesis bytes and its accepts (shape only: §3's lengths). */
export interface GenesisBody {
  readonly genesis: Uint8Array
  readonly accepts: readonly Uint8Array[]
}

/** §3: `body0` from the genesis bytes and the `n` accepts in roster order. */
export function encodeGenesisBody(genesis: Uint8Array, accepts: readonly Uint8Array[]): Uint8Array {
  if (accepts.some((a) => a.length !== ACCEPT_BYTES))
    throw new RangeError(`an accept is ${ACCEPT_BYTES} bytes (${RULE})`)
  if (genesis.length !== genesisBytesOf(accepts.length))
    throw new RangeError(`a genesis of ${accepts.length} players is ${genesisBytesOf(accepts.length)} bytes (${RULE})`)
  return concatBytes(u32(genesis.length), genesis, ...accepts)
}

/** §3: cuts a body by its lengths (coded errors name the field); no trailing bytes. */
export function decodeGenesisBody(body: Uint8Array): Decoded<GenesisBody> {
  return decoded(() => {
    const r = new Reader(body)
    readGenesisBody(r)
    r.end('body', RULE)
    const g = (body[0] ?? 0) * 2 ** 24 + (body[1] ?? 0) * 2 ** 16 + (body[2] ?? 0) * 2 ** 8 + (body[3] ?? 0)
    const genesis = body.slice(4, 4 + g)
    const accepts: Uint8Array[] = []
    for (let at = 4 + g; at < body.length; at += ACCEPT_BYTES) accepts.push(body.slice(at, at + ACCEPT_BYTES))
    return { genesis, accepts }
  })
}

/** A body that gives the game: the decoded genesis (its id is the game) and the accepts' bytes. */
export interface GivenGame {
  readonly genesis: SealedGenesis
  readonly accepts: readonly Uint8Array[]
}

/**
 * §3: whether `body` gives game `game` (the genesis receipt's `game`): the genesis and accepts, or
 * the first reason it does not, as a coded error naming the field.
 */
export function givesGame(body: Uint8Array, game: Uint8Array): Decoded<GivenGame> {
  const cut = decodeGenesisBody(body)
  if (!cut.ok) return cut
  const g = decodeGenesis(cut.value.genesis)
  if (!g.ok) return g
  return decoded(() => {
    const sealed = g.value
    const keys = sealed.genesis.keys
    if (sealed.genesis.notaryKey === null)
      fail('field.range', 'genesis.witness', RULE, 'witness = 1 in a witnessed game')
    if (!constantTimeEqual(sealed.game, game))
      fail('field.range', 'genesis', RULE, "the genesis's id is not the receipt's game")
    if (cut.value.accepts.length !== keys.length)
      fail('field.range', 'accepts', RULE, `${keys.length} accepts for ${keys.length} players`)
    cut.value.accepts.forEach((a, i) => {
      const at = `accepts[${i}]`
      const e = readEnvelope(a, { players: keys.length, game: sealed.game })
      if (!e.ok) fail(e.error.code, `${at}.${e.error.field}`, RULE, e.error.message)
      const h = e.value.header
      if (h.author !== i || h.seq !== 0) fail('field.range', `${at}.author`, RULE, `author ${i} at seq 0`)
      const body = e.value.body
      if (!body.ok) fail(body.error.code, `${at}.${body.error.field}`, RULE, body.error.message)
      if (body.value.heads.length !== 0) fail('field.range', `${at}.heads`, RULE, 'an accept carries no heads (h = 0)')
      if (body.value.parts.length !== 1 || body.value.parts[0]?.type !== 'accept')
        fail('field.range', `${at}.parts`, RULE, 'exactly one accept part')
      const key = keys[i]
      if (key === undefined || !signatureValid({ bytes: a }, key))
        fail('field.format', `${at}.sig`, RULE, `not signed by roster key ${i} (SPEC §5.2)`)
    })
    return { genesis: sealed, accepts: cut.value.accepts }
  })
}
