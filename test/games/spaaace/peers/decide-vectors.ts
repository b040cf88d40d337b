/**
 * Builds protocol/vectors/spaaace-peers/ (SPAAACE-PEERS.md §14): each scenario's transcript file(s)
 * and `index.json`, which gives for each the expected decision (§5, §9, §13) in a form another
 * implementation can compare with its own, and the crypto vector of §14.18 (the `stateBytes` and
 * `stateHash` of the honest game's tick 1).
 * `UPDATE_VECTORS=1 npx vitest run test/games/spaaace/peers/decide-vectors.test.ts` rewrites them.
 */
import { toHex } from '../../../../src/core/commit/bytes.js'
import type { Decision } from '../../../../src/games/spaaace/peers/decide.js'
import { stateBytes } from '../../../../src/games/spaaace/peers/state-bytes.js'
import { type Scenario, honest5 } from './scenarios.js'

/** The decision as the index states it: what a second implementation must give from the files. */
export function summary(d: Decision): Record<string, unknown> {
  return {
    accepts: d.accepts,
    end: d.end,
    ...(d.record === undefined ? {} : { record: d.record }),
    ticks: d.ticks.map((t) => ({
      t: t.t,
      status: t.status,
      active: t.active,
      majority: t.majority,
      seals: t.seals,
      closes: t.closes,
      committed: t.committed,
      revealed: t.revealed,
      sealSettled: t.sealSettled,
      settled: t.settled,
      submissions: t.submissions?.map((s) => s.kind) ?? null,
      stateHash: t.stateHash === undefined ? null : toHex(t.stateHash),
      ownHash: t.own === undefined ? null : toHex(t.own.stateHash),
      signers: t.canonical?.signers ?? null,
      votes: t.votes,
    })),
    offences: d.offences.map((o) => ({
      player: o.player,
      kind: o.kind,
      rule: o.rule,
      counted: o.counted ?? null,
      envelopes: o.envelopes,
    })),
    gaps: d.gaps,
    notEvidence: d.notEvidence,
    unauthenticated: d.unauthenticated,
    ...(d.seedMissing === undefined ? {} : { seedMissing: d.seedMissing }),
  }
}

/** The file names of a scenario: `name.transcript`, or `name-a.transcript`, `name-b.transcript`, .... */
export function fileNames(s: Scenario): string[] {
  return s.files.length === 1
    ? [`${s.name}.transcript`]
    : s.files.map((_, k) => `${s.name}-${String.fromCharCode(97 + k)}.transcript`)
}

/** §14.18: the honest game's tick-1 closing state, its bytes and its hash. */
export function cryptoVector(): Record<string, unknown> {
  const s = honest5()
  const d = s.game.players[0]?.decision()
  const t1 = d?.ticks[0]
  if (t1?.outcome === undefined || t1.stateHash === undefined) throw new Error('honest-5 tick 1 is not settled')
  return {
    game: 'honest-5',
    gameId: toHex(s.game.game),
    tick: 1,
    stateBytes: toHex(stateBytes(t1.outcome.state, 5)),
    stateHash: toHex(t1.stateHash),
  }
}
