/**
 * Spaaace! among peers, whole (protocol/SPAAACE-PEERS.md §5, §6, §8): honest nodes with bots in
 * every seat, in one process on a virtual clock, play to the end; every node's closing state of
 * every tick is the same, equals the engine's on the orders that counted, and is signed by a
 * majority; each node's transcript alone decides the game as all of them together do, with no
 * offence (§7.1, §13).
 */
import { describe, expect, it } from 'vitest'
import { toHex } from '../../../../src/core/commit/bytes.js'
import { seededSecrets } from '../../../../src/core/commit/secrets.js'
import { VirtualClock } from '../../../../src/core/session/clock.js'
import { randomBot } from '../../../../src/games/spaaace/bot/random.js'
import { sensibleBot } from '../../../../src/games/spaaace/bot/sensible.js'
import { botChooser } from '../../../../src/games/spaaace/node/choosers.js'
import {
  defaultPeersTerms,
  fastestTiming,
  localRoster,
  runLocalGame,
} from '../../../../src/games/spaaace/node/local.js'
import type { SettledTick } from './support.js'
import { collect } from './support.js'
import { seededRng } from '../../../../src/games/spaaace/referee/random.js'
import { playTick } from '../../../../src/games/spaaace/rules/tick.js'
import { genesis as genesisState } from '../../../../src/games/spaaace/rules/state.js'
import { rulesTerms } from '../../../../src/games/spaaace/peers/genesis.js'
import { verifySpaaace } from '../../../../src/games/spaaace/verify/verify.js'

const START = 1_800_000_000_000

async function honestGame(players: number, ticks: number, seed: string) {
  const timing = fastestTiming(START)
  const { keys, genesis } = localRoster(players, seed, defaultPeersTerms(ticks), timing)
  const settled: SettledTick[][] = Array.from({ length: players }, () => [])
  const result = await runLocalGame({
    seats: Array.from({ length: players }, (_, i) => ({
      chooser: botChooser(i % 2 === 0 ? sensibleBot() : randomBot, seededRng(`${seed}/${i}`)),
      events: collect(settled[i] as SettledTick[]),
    })),
    genesis,
    keys,
    secrets: (i) => seededSecrets(`${seed}/seed/${i}`),
    clock: new VirtualClock(START - 1000),
  })
  return { genesis, result, settled }
}

describe('Spaaace! among honest peers (§5, §6)', () => {
  it('5 players to the last tick: one closing state per tick on every node, the engine’s, signed by a majority', async () => {
    const { genesis, result, settled } = await honestGame(5, 6, 'honest-5')
    expect(result.aborted).toBe(false)
    for (const end of result.ends) expect(end?.kind).toBe('complete')
    // §7.1: every node settled the same ticks to the same hashes.
    const hashes = settled.map((s) => s.map((x) => `${x.t}:${x.hash}`))
    for (const h of hashes) expect(h).toEqual(hashes[0])
    expect(hashes[0]).toHaveLength(6)
    // §5.4: the closing states are playTick's on the submissions that counted.
    let state = genesisState(5, rulesTerms(genesis.genesis))
    for (const x of settled[0] ?? []) {
      const again = playTick(state, x.submissions)
      expect(toHex(x.stateBytes)).toBe(toHex(x.bytesOf(again.state)))
      state = again.state
      // Every active player's orders counted: honest bots never miss a commitment.
      for (const [i, s] of x.submissions.entries())
        if (state.players[i]?.status === 'active') expect(s.kind).not.toBe('missing')
    }
    // §13: each transcript alone, and all together, decide the game complete with no offence.
    for (const [i, text] of result.transcripts.entries()) {
      const [v] = verifySpaaace([{ name: `p${i + 1}`, text }])
      expect(v?.status, `p${i + 1}`).toBe('complete')
    }
    const [all] = verifySpaaace(result.transcripts.map((text, i) => ({ name: `p${i + 1}`, text })))
    expect(all?.status).toBe('complete')
    if (all?.status === 'complete') {
      expect(all.decision.offences).toEqual([])
      expect(all.decision.ticks.filter((t) => t.status === 'canonical')).toHaveLength(6)
    }
  }, 120_000)

  it('3 players (the least, S-01): complete, and the seeds are revealed only at the end (§4.3, §6.9)', async () => {
    const { result } = await honestGame(3, 3, 'honest-3')
    for (const end of result.ends) expect(end?.kind).toBe('complete')
    for (const p of result.peers) expect(p.chain.ended).toBe(true)
  }, 60_000)
})
