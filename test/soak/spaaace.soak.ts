/**
 * The Spaaace! soak (`npm run soak`; `SPAAACE_SOAK_GAMES` sets how many, default 24): honest
 * games of 3 to 16 peers, every link delaying frames within Δ, some losing frames, some cut and
 * redialled. Whatever the faults, safety must hold exactly (protocol/SPAAACE-PEERS.md §7.1): every
 * tick two nodes both settled has one closing hash, no honest player is ever convicted of anything
 * (§9, S-80), every node's transcript decides the same way as all of them merged (§13), and every
 * game ends on every node (complete, or stalled by §5.7 when faults broke the delivery bound).
 */
import { afterAll, describe, expect, it } from 'vitest'
import { seededSecrets } from '../../src/core/commit/secrets.js'
import type { Fault } from '../../src/core/session/channel.js'
import { VirtualClock } from '../../src/core/session/clock.js'
import { randomBot } from '../../src/games/spaaace/bot/random.js'
import { sensibleBot } from '../../src/games/spaaace/bot/sensible.js'
import { botChooser } from '../../src/games/spaaace/node/choosers.js'
import {
  LOCAL_MARGIN_MS,
  defaultPeersTerms,
  fastestTiming,
  localRoster,
  runLocalGame,
} from '../../src/games/spaaace/node/local.js'
import { seededRng } from '../../src/games/spaaace/referee/random.js'
import { verifySpaaace } from '../../src/games/spaaace/verify/verify.js'
import { collect, type SettledTick } from '../games/spaaace/node/support.js'
import { seeded } from '../mesh/harness.js'

const GAMES = Number(process.env['SPAAACE_SOAK_GAMES'] ?? '24')
const START = 1_800_000_000_000

type Kind = 'delay' | 'lossy' | 'cut'

function faultFor(kind: Kind, rnd: () => number): Fault {
  return () => {
    const r = rnd()
    if (kind === 'lossy' && r < 0.03) return 'drop'
    if (kind === 'cut' && r < 0.004) return 'cut'
    // Delays within Δ: the assumption liveness rests on (§12).
    return { delay: Math.floor(rnd() * LOCAL_MARGIN_MS * 0.8) }
  }
}

describe('Spaaace! soak: honest peers under network faults (§7.1, §9, §13)', () => {
  const ends = new Map<string, number>()
  afterAll(() => {
    process.stderr.write(
      `Spaaace! soak: ${GAMES} games; ends on the nodes: ${[...ends].map(([k, v]) => `${k} ${v}`).join(', ')}\n`,
    )
  })
  const rnd = seeded(0x5aaace)
  const plans = Array.from({ length: GAMES }, (_, g) => {
    const players = rnd() < 0.7 ? 3 + Math.floor(rnd() * 4) : 7 + Math.floor(rnd() * 10)
    const ticks = players > 8 ? 3 : 3 + Math.floor(rnd() * 4)
    const kinds: Kind[] = ['delay', 'lossy', 'cut']
    return { g, players, ticks, kind: kinds[g % 3] as Kind }
  })
  it.each(plans)('game $g: $players players, $ticks ticks, $kind links', async ({ g, players, ticks, kind }) => {
    const seed = `soak-${g}`
    const { keys, genesis } = localRoster(players, seed, defaultPeersTerms(ticks), fastestTiming(START))
    const settled: SettledTick[][] = Array.from({ length: players }, () => [])
    const links = seeded(g * 7919 + 1)
    const result = await runLocalGame({
      seats: Array.from({ length: players }, (_, i) => ({
        chooser: botChooser(i % 3 === 0 ? sensibleBot(64) : randomBot, seededRng(`${seed}/${i}`)),
        events: collect(settled[i] as SettledTick[]),
      })),
      genesis,
      keys,
      secrets: (i) => seededSecrets(`${seed}/seed/${i}`),
      clock: new VirtualClock(START - 1000),
      fault: () => faultFor(kind, links),
      reconnectMs: 3 * LOCAL_MARGIN_MS,
      maxJumps: 200_000,
    })
    expect(result.aborted).toBe(false)
    // Every game ends on every node.
    for (const end of result.ends) {
      expect(['complete', 'stalled']).toContain(end?.kind)
      ends.set(`${kind}/${end?.kind ?? 'none'}`, (ends.get(`${kind}/${end?.kind ?? 'none'}`) ?? 0) + 1)
    }
    // §7.1: one hash per tick wherever it settled.
    const byTick = new Map<number, string>()
    for (const s of settled)
      for (const x of s) {
        const seen = byTick.get(x.t)
        if (seen === undefined) byTick.set(x.t, x.hash)
        else expect(x.hash, `tick ${x.t}`).toBe(seen)
      }
    // §9, §13: nobody convicted; each file alone agrees with all merged on every canonical tick.
    const all = verifySpaaace(result.transcripts.map((text, i) => ({ name: `p${i + 1}`, text })))[0]
    expect(all?.status).not.toBe('unreadable')
    if (all === undefined || all.status === 'unreadable') return
    expect(all.decision.offences).toEqual([])
    for (const t of all.decision.ticks)
      if (t.stateHash !== undefined && byTick.has(t.t))
        expect(Buffer.from(t.stateHash).toString('hex'), `tick ${t.t}`).toBe(byTick.get(t.t))
    for (const [i, text] of result.transcripts.entries()) {
      const one = verifySpaaace([{ name: `p${i + 1}`, text }])[0]
      if (one === undefined || one.status === 'unreadable') throw new Error(`p${i + 1} unreadable`)
      expect(one.decision.offences, `p${i + 1}`).toEqual([])
      expect(one.decision.end.kind, `p${i + 1}`).toBe(all.decision.end.kind)
    }
  })
})
