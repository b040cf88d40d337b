/**
 * What a notary needs to know of a witnessed Spaaace! game (SPAAACE-WITNESSED §9.3): pure functions
 * of the genesis receipt's body and the log. It never opens, decodes or classifies an envelope,
 * asks for a content key, or looks at parts or ticks of play: only headers, sizes, flags and times
 * (and, for a complaint, the one deposit the complainant discloses, through the header-level test
 * of §5.2 step 5).
 */
import { FLAG, type SubmissionHeader } from '../../../core/notary/header.js'
import type { Receipt } from '../../../core/notary/receipt.js'
import type { GameRegistration, GenesisRegistrar, Registration } from '../../../core/notary-service/registrar.js'
import { describeProtocolError } from '../../../core/wire/errors.js'
import { tickLength } from '../peers/domain.js'
import { type Timing, gameIdOf } from '../peers/genesis.js'
import {
  COMPLAINTS_PER_PAIR,
  MAX_ENVELOPE_W,
  PAD_W,
  SPAAACE_NOTARY_DOMAIN,
  depositBytesOf,
  seqBoundOf,
} from './domain.js'
import { decodeGenesisBody, givesGame } from './genesis-receipt.js'
import { envelopeMatchesHeader } from './submission.js'
import { cutTime, horizonOf, registerByOf, tickOf } from './times.js'

/** §2: the notary may seal at `C_{maxTicks+1} + SEAL_SLACK_MS` whatever the flags (`SEAL_SLACK_MS = L`). */
export function sealSlackMs(timing: Timing): number {
  return tickLength(timing)
}

/**
 * §9.4: the earlier of the last of each roster player's first end-flagged envelope receipt (if
 * every player has one) and `C_{maxTicks+1} + SEAL_SLACK_MS` (the horizon).
 */
export function sealWhen(log: readonly Receipt<number>[], n: number, timing: Timing, maxTicks: number): number {
  const horizon = horizonOf(timing, maxTicks)
  const ends = new Map<number, number>()
  for (const r of log)
    if (r.kind === 'envelope' && (r.header.flags & FLAG.end) !== 0 && !ends.has(r.header.sender))
      ends.set(r.header.sender, r.time)
  if (ends.size < n) return horizon
  return Math.min(horizon, Math.max(...ends.values()))
}

/** §5.1: only bit 2 (end) may be set; `deadline` and `seen` are 0. */
export function flagsAllowed(h: SubmissionHeader<number>): boolean {
  return (h.flags === 0 || h.flags === FLAG.end) && h.deadline === 0 && h.seen === 0
}

/** §5.2 step 4: the floor of an opened envelope: PAD_W, and none (0, refused) above MAX_ENVELOPE_W. */
export function paddingFloorW(envelope: Uint8Array): number {
  return envelope.length <= MAX_ENVELOPE_W ? PAD_W : 0
}

/**
 * §3, §9.3: the registration of a genesis body, or why the body does not give a game. At
 * registration there is no receipt yet, so the game is the genesis's own id.
 */
export function registrationOf(body: Uint8Array): Registration<number> {
  const cut = decodeGenesisBody(body)
  if (!cut.ok) return { ok: false, reason: describeProtocolError(cut.error) }
  const given = givesGame(body, gameIdOf(cut.value.genesis))
  if (!given.ok) return { ok: false, reason: describeProtocolError(given.error) }
  const { genesis } = given.value
  const g = genesis.genesis
  const n = g.keys.length
  const { timing } = g
  const maxTicks = g.terms.maxTicks
  const reg: GameRegistration<number> = {
    game: genesis.game,
    keys: g.keys,
    notaryKey: g.notaryKey ?? new Uint8Array(32),
    paddingFloor: paddingFloorW,
    envelopeMatches: (e, h) => envelopeMatchesHeader(e, h, n),
    sealWhen: (log) => sealWhen(log, n, timing, maxTicks),
    registerBy: registerByOf(timing),
    horizon: horizonOf(timing, maxTicks),
    maxMarkTick: maxTicks + 1,
    cutTime: (t, c) => cutTime(timing, t, c),
    seqBound: (now) => seqBoundOf(tickOf(timing, maxTicks, now)),
    depositBytes: depositBytesOf(n),
    flagsAllowed,
    claims: false,
    complaintsPerPair: COMPLAINTS_PER_PAIR,
  }
  return { ok: true, game: reg }
}

/** §9.3: the Spaaace! notary's registrar. */
export const spaaaceRegistrar: GenesisRegistrar = {
  domain: SPAAACE_NOTARY_DOMAIN,
  genesisBody: true,
  register: registrationOf,
}
