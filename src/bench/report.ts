/**
 * The table the bench prints at the end of a run: each figure of `bench/results.json` with its
 * goal, met or missed.
 */
import type { engineRate } from './engine-rate.js'
import type { NotaryRateResult } from './notary-rate.js'
import { LINK_DELAY_MS, type TurnSeries } from './per-turn.js'
import type { SpaaacePeersResult, SpaaaceResult, SpaaaceTick } from './spaaace-peers.js'
import { REPS, type Stat, fmt } from './stat.js'
import type { costFleetPerEnvelope, pairedVerifierRate, verifierRate, verifierRateAllCores } from './verifier-rate.js'
import { type WitnessedResult, witnessedRows } from './witnessed.js'

/** What the table reads of the results (`bench/results.json`). */
export interface Results {
  readonly machine: string
  readonly perTurn: TurnSeries
  readonly perTurnMedium: TurnSeries
  readonly perTurnLink: { readonly random: TurnSeries; readonly medium: TurnSeries }
  readonly perTurnOneProcess: TurnSeries
  readonly wholeGame: Readonly<Record<'medium' | 'random', { readonly ms: Stat; readonly turns: Stat }>>
  readonly verifier: {
    readonly mediumGames: ReturnType<typeof verifierRate>
    readonly randomGames: ReturnType<typeof verifierRate>
    readonly allCores: Awaited<ReturnType<typeof verifierRateAllCores>>
    readonly costFleet: ReturnType<typeof costFleetPerEnvelope>
    /** Present when the run was given a baseline build (`BENCH_BASELINE`). */
    readonly baseline?: { readonly dist: string; readonly medium: ReturnType<typeof pairedVerifierRate> }
    readonly worstCase: { readonly lines: number; readonly validCpuMs: Stat; readonly brokenCpuMs: Stat }
  }
  readonly engine: ReturnType<typeof engineRate>
  readonly notary: NotaryRateResult
  /** A witnessed turn against an unwitnessed one over the link, the notary behind it (witnessed.ts). */
  readonly witnessed: WitnessedResult
  readonly peerNode: { readonly peakRssMiB: number }
  readonly verifyColdStartMs: Stat
  /** Spaaace! among peers (spaaace-peers.ts); absent in results written before it was measured. */
  readonly spaaace?: SpaaaceResult
  readonly seconds: number
}

/** The verifier's rows of the table (the whole bench's, or `BENCH_ONLY=verifier`'s). */
export function verifierRows(verifier: Results['verifier']): [string, string, string, string][] {
  const { mediumGames: verifyStrong, randomGames: verifyRandom, allCores: verifyAllCores, worstCase: worst } = verifier
  const goal = (ok: boolean): string => (ok ? 'met' : 'MISSED')
  return [
    [
      `verifier, medium-bot games (${verifyStrong.envelopesPerGame.toFixed(0)} envelopes), games/s, one core`,
      fmt(verifyStrong.gamesPerSecond, 0),
      '',
      `>= 1500: ${goal(verifyStrong.gamesPerSecond.median >= 1500)}`,
    ],
    ...(verifier.baseline === undefined
      ? []
      : [
          [
            `verifier, medium-bot games, games/s, one core, paired with the baseline build (${verifier.baseline.dist}), ${verifier.baseline.medium.rounds} rounds of a process each`,
            fmt(verifier.baseline.medium.gamesPerSecond, 0),
            fmt(verifier.baseline.medium.baselineGamesPerSecond, 0),
            `speed-up ${fmt(verifier.baseline.medium.speedUp)}`,
          ] as [string, string, string, string],
          [
            "the same, each file's fastest time summed, games/s",
            verifier.baseline.medium.fastest.gamesPerSecond.toFixed(0),
            verifier.baseline.medium.fastest.baselineGamesPerSecond.toFixed(0),
            `speed-up ${verifier.baseline.medium.fastest.speedUp.toFixed(2)}`,
          ] as [string, string, string, string],
        ]),
    [
      `verifier, medium-bot games, ${verifyAllCores.threads} threads (verify --jobs), games/s`,
      fmt(verifyAllCores.gamesPerSecond, 0),
      '',
      '',
    ],
    [
      `verifier, random-bot games (${verifyRandom.envelopesPerGame.toFixed(0)} envelopes), games/s`,
      fmt(verifyRandom.gamesPerSecond, 1),
      '',
      '',
    ],
    [
      `verifier, random-bot games, us of one core per envelope, cost fleet (${verifier.costFleet.ruleset}) against standard fleet`,
      fmt(verifier.costFleet.costUs, 1),
      fmt(verifier.costFleet.standardUs, 1),
      `ratio ${verifier.costFleet.ratio.toFixed(2)} <= 1.5: ${goal(verifier.costFleet.ratio <= 1.5)}`,
    ],
    [
      `verifier, the largest transcript (${worst.lines} envelopes), CPU ms, signatures valid`,
      fmt(verifier.worstCase.validCpuMs, 0),
      '',
      `< 2000 ms: ${goal(verifier.worstCase.validCpuMs.median < 2000)}`,
    ],
    [
      'verifier, the same file with every signature but the hellos broken, CPU ms',
      fmt(verifier.worstCase.brokenCpuMs, 0),
      '',
      `< 2000 ms: ${goal(verifier.worstCase.brokenCpuMs.median < 2000)}`,
    ],
  ]
}

/** Spaaace! among peers: its rows of the table (the whole bench's, or `BENCH_ONLY=spaaace`'s). */
export function spaaaceRows(s: SpaaaceResult): [string, string, string, string][] {
  const p = s.peers
  const m = s.peersInMemory
  const v = s.verifier
  const goal = (ok: boolean): string => (ok ? 'met' : 'MISSED')
  const steps = (x: SpaaacePeersResult, k: keyof SpaaaceTick['steps']): string =>
    x.ticks.map((t) => t.steps[k].toFixed(0)).join(' / ')
  const tick = (x: SpaaacePeersResult, how: string): [string, string, string, string] => [
    `Spaaace!, a tick among ${x.players} peers, a process each, ${x.linkDelayMs} ms links, ${how}: reveal instant C_t + 2·SKEW_MS to the last node signing state(t), ms (${x.ticks.length} ticks, ${x.bot} bots; load average ${x.loadAverage.map((l) => l.toFixed(1)).join(' to ')})`,
    fmt(x.settledMs, 0),
    '',
    `<= 100 ms: ${goal(x.settledMs.median <= 100)}`,
  ]
  const frames = (x: SpaaacePeersResult): string =>
    Object.entries(x.mesh.sentFrames)
      .map(([c, f]) => `${f.toFixed(0)} ${c}`)
      .join(', ')
  return [
    tick(p, 'transcripts on disk, flushed before use'),
    [
      'Spaaace!, that tick step by step, the last node each, ms from the reveal instant, tick by tick: reveal signed; every reveal held; close signed; settled decided; state signed',
      [
        steps(p, 'revealSigned'),
        steps(p, 'revealsHeld'),
        steps(p, 'closeSigned'),
        steps(p, 'settledDecided'),
        steps(p, 'stateSigned'),
      ].join('; '),
      '',
      '',
    ],
    ...(m === undefined ? [] : [tick(m, 'transcripts in memory')]),
    [
      'Spaaace!, commit phase: the last node ready for t to the last node holding every commitment of t, ms (on disk)',
      fmt(p.commitMs, 0),
      '',
      '',
    ],
    [
      `Spaaace!, bytes a tick per player at TCP level, both ways over every link (${p.ticks.length - 1} whole ticks; the whole game with its handshakes)`,
      p.tcpBytesPerTickPerPlayer.toFixed(0),
      '',
      `whole game ${p.tcpBytesWholeGamePerTickPerPlayer.toFixed(0)}`,
    ],
    [
      'Spaaace!, frames a tick per player the mesh sent, by cause, and frames it dropped as held already',
      frames(p),
      '',
      `${p.mesh.duplicatesDropped.toFixed(0)} dropped`,
    ],
    [
      'Spaaace!, CPU a tick per node process, ms (whole ticks; of which the 4 s around the reveal instant; the whole game)',
      `${fmt(p.cpuMsPerTickPerPlayer, 0)}; ${fmt(p.cpuMsBurstPerTickPerPlayer, 0)}`,
      '',
      `whole game ${fmt(p.cpuMsWholeGamePerTickPerPlayer, 0)}; the links' process ${p.linkCpuMsPerTick.toFixed(0)} a tick; verdict ${p.verdict}`,
    ],
    [
      'Spaaace!, CPU of a node process from the reveal instant to its state(t), ms (its work on the critical path)',
      fmt(p.cpuMsToStatePerPlayer, 1),
      '',
      m === undefined ? '' : `in memory ${fmt(m.cpuMsToStatePerPlayer, 1)}`,
    ],
    [
      "Spaaace!, a node's thread storing envelopes, a tick per player, ms: on disk (a flush each), in memory",
      `${p.store.msPerTickPerPlayer.toFixed(1)} (${p.store.usPerEnvelope.toFixed(0)} us an envelope)`,
      '',
      m === undefined ? '' : `in memory ${m.store.msPerTickPerPlayer.toFixed(1)}`,
    ],
    [
      `Spaaace! verifier, a ${v.ticks}-tick ${v.players}-player game, one file (${v.envelopesOneFile} envelopes), CPU ms`,
      fmt(v.oneFileMs, 0),
      '',
      '',
    ],
    [
      `Spaaace! verifier, the same game, all ${v.players} files merged (${v.envelopesMerged} distinct envelopes), CPU ms`,
      fmt(v.mergedMs, 0),
      '',
      '',
    ],
  ]
}

/** The table, a line each. */
export function report(results: Results): string[] {
  const { machine, engine, perTurnMedium: twoProcessesMedium, verifyColdStartMs: coldStat } = results
  const { random: linkRandom, medium: linkMedium } = results.perTurnLink
  const node = results.peerNode
  const n = results.notary
  const goal = (ok: boolean): string => (ok ? 'met' : 'MISSED')
  const t = results.perTurn
  const o = results.perTurnOneProcess
  const ratio = (x: TurnSeries, max: number): string =>
    `ratio ${x.wallMs.ratio.toFixed(2)} <= ${max}: ${goal(x.wallMs.ratio <= max)}`
  const tcpOf = (x: TurnSeries): [string, string] =>
    x.tcpBytesPerPlayer === undefined
      ? ['', '']
      : [fmt(x.tcpBytesPerPlayer.full, 0), fmt(x.tcpBytesPerPlayer.trusting, 0)]
  const w = results.wholeGame.medium
  const rows: [string, string, string, string][] = [
    [
      `wall time per turn over a ${LINK_DELAY_MS} ms link, random bots (${linkRandom.turns.median} turns), ms`,
      fmt(linkRandom.wallMs.full),
      fmt(linkRandom.wallMs.trusting),
      ratio(linkRandom, 1.35),
    ],
    [
      `wall time per turn over a ${LINK_DELAY_MS} ms link, medium bots (${linkMedium.turns.median} turns), ms`,
      fmt(linkMedium.wallMs.full),
      fmt(linkMedium.wallMs.trusting),
      ratio(linkMedium, 1.5),
    ],
    ...[linkRandom, linkMedium].map((x, i): [string, string, string, string] => [
      `the same over the link, ${i === 0 ? 'random' : 'medium'} bots, against pipelined trusting play (no commit-then-reveal schedule can go below 1.5), ms`,
      fmt(x.wallMs.full),
      x.pipelined === undefined ? '' : fmt(x.pipelined.wallMs),
      `ratio ${x.pipelined?.ratio.toFixed(2) ?? '?'}`,
    ]),
    [
      `wall time per turn on loopback, random bots (${t.turns.median} turns), ms`,
      fmt(t.wallMs.full),
      fmt(t.wallMs.trusting),
      ratio(t, 2.0),
    ],
    [
      `wall time per turn on loopback, medium bots (${twoProcessesMedium.turns.median} turns), ms`,
      fmt(twoProcessesMedium.wallMs.full),
      fmt(twoProcessesMedium.wallMs.trusting),
      ratio(twoProcessesMedium, 2.0),
    ],
    [
      'wall time per turn, both players in one process, random bots, ms',
      fmt(o.wallMs.full),
      fmt(o.wallMs.trusting),
      `ratio ${o.wallMs.ratio.toFixed(2)}`,
    ],
    [
      'CPU per turn per player, random bots, ms',
      fmt(t.cpuMsPerPlayer.full),
      fmt(t.cpuMsPerPlayer.trusting),
      `ratio ${t.cpuMsPerPlayer.ratio.toFixed(2)}`,
    ],
    [
      'CPU per turn per player, medium bots, ms',
      fmt(twoProcessesMedium.cpuMsPerPlayer.full),
      fmt(twoProcessesMedium.cpuMsPerPlayer.trusting),
      `ratio ${twoProcessesMedium.cpuMsPerPlayer.ratio.toFixed(2)}`,
    ],
    [
      'bytes per turn per player at TCP level, medium bots',
      ...tcpOf(twoProcessesMedium),
      `<= 1600: ${goal((twoProcessesMedium.tcpBytesPerPlayer?.full.median ?? Infinity) <= 1600)}`,
    ],
    ['bytes per turn per player at TCP level, random bots', ...tcpOf(t), ''],
    [
      'game frames per turn per player (without libp2p framing), medium bots',
      fmt(twoProcessesMedium.bytesPerPlayer.full, 0),
      fmt(twoProcessesMedium.bytesPerPlayer.trusting, 0),
      '',
    ],
    [
      `whole game over loopback, medium bots (median ${w.turns.median} turns), ms`,
      fmt(w.ms, 0),
      '',
      `< 150 ms: ${goal(w.ms.median < 150)}`,
    ],
    [
      `whole game, random bots (median ${results.wholeGame.random.turns.median} turns), ms`,
      fmt(results.wholeGame.random.ms, 0),
      '',
      '',
    ],
    ...verifierRows(results.verifier),
    [
      `notary, receipts/s end to end over libp2p, ${n.clients} clients x ${n.submissionsPerClient} submissions, disk synced (grouped commits / one per receipt)`,
      fmt(n.grouped.receiptsPerSecond, 0),
      fmt(n.single.receiptsPerSecond, 0),
      `>= 5000: ${goal(n.grouped.receiptsPerSecond.median >= 5000)}`,
    ],
    [
      "notary, us of the notary's one thread per receipt",
      fmt(n.grouped.notaryCpuUsPerReceipt, 0),
      fmt(n.single.notaryCpuUsPerReceipt, 0),
      `one core's capacity ${(1e6 / n.grouped.notaryCpuUsPerReceipt.median).toFixed(0)}/s`,
    ],
    [
      'notary, one request to its verified receipt, p50 / p99 ms',
      `${fmt(n.grouped.latencyMs.p50, 0)} / ${fmt(n.grouped.latencyMs.p99, 0)}`,
      `${fmt(n.single.latencyMs.p50, 0)} / ${fmt(n.single.latencyMs.p99, 0)}`,
      '',
    ],
    ...witnessedRows(results.witnessed),
    ['rules engine, turns/s', fmt(engine.turnsPerSecond, 0), '', ''],
    [`rules engine, games/s (${engine.meanTurns.toFixed(0)} turns)`, fmt(engine.gamesPerSecond, 0), '', ''],
    ['peak RSS of a play process (two nodes), MiB', node.peakRssMiB.toFixed(0), '', ''],
    ['spaceships verify cold start, ms', fmt(coldStat, 0), '', `< 150 ms: ${goal(coldStat.median < 150)}`],
    ...(results.spaaace === undefined ? [] : spaaaceRows(results.spaaace)),
  ]
  const out = [
    `${machine}; medians (min..max) over ${REPS} runs after warm-up`,
    '',
    '| figure | referee-less | trusting baseline | goal |',
    '| --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    '',
    `bench/results.json written; ${results.seconds.toFixed(0)} s`,
  ]
  return out
}
