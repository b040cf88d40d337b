/**
 * `npm run bench`: the cost of playing without a referee, measured side by side with a
 * trusting baseline, on one machine, in one run, with warm-up and repetitions; medians with
 * min/max. Writes `bench/results.json` so later changes can be compared.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { worstCase } from './worst.js'
import type { BenchBot } from './peer.js'
import {
  LINK_DELAY_MS,
  LINK_MAX_TURNS,
  PER_TURN_MAX_TURNS,
  type TurnSeries,
  inOneProcess,
  pairedRuns,
  summary,
} from './per-turn.js'
import { wholeGame } from './whole-game.js'
import {
  COST_RULESET,
  costFleetPerEnvelope,
  pairedVerifierRate,
  transcripts,
  verifierRate,
  verifierRateAllCores,
} from './verifier-rate.js'
import { engineRate } from './engine-rate.js'
import { NOTARY_CLIENTS, NOTARY_SUBMISSIONS, notaryRate } from './notary-rate.js'
import { timedProcess } from './timed-process.js'
import { WITNESSED_MAX_TURNS, witnessedTurns } from './witnessed.js'
import { report, spaaaceRows, verifierRows } from './report.js'
import { spaaaceSection } from './spaaace-peers.js'
import { REPS, stat } from './stat.js'

const ROOT = join(fileURLToPath(import.meta.url), '..', '..', '..')
/** The `spaceships` executable as npm installs it (bin.js turns on Node's compile cache). */
const CLI = join(ROOT, 'dist', 'cli', 'bin.js')

async function main(): Promise<void> {
  const started = performance.now()
  const log = (m: string): void => void process.stderr.write(m + '\n')
  const machine = `${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`
  log(`bench on ${machine}`)

  // BENCH_ONLY=verifier: section 3 alone (the verifier's figures, paired with BENCH_BASELINE when
  // given), written to bench/results-verifier.json; the whole bench takes most of an hour.
  if (process.env['BENCH_ONLY'] === 'verifier') {
    const figures = await verifierSection(log)
    const verifier = { ...figures, files: undefined }
    const results = { machine, date: new Date().toISOString(), command: 'BENCH_ONLY=verifier npm run bench', verifier }
    mkdirSync(join(ROOT, 'bench'), { recursive: true })
    writeFileSync(join(ROOT, 'bench', 'results-verifier.json'), JSON.stringify(results, null, 2) + '\n')
    process.stdout.write(
      [
        `${machine}; medians (min..max) over ${REPS} runs after warm-up`,
        '',
        '| figure | referee-less | trusting baseline | goal |',
        '| --- | --- | --- | --- |',
        ...verifierRows(verifier).map((r) => `| ${r.join(' | ')} |`),
        '',
        `bench/results-verifier.json written; ${((performance.now() - started) / 1000).toFixed(0)} s`,
      ].join('\n') + '\n',
    )
    return
  }

  // BENCH_ONLY=spaaace (section names, comma-separated): those sections alone, their entries
  // written into bench/results.json over the last whole run's (the rest of it kept).
  const only = (process.env['BENCH_ONLY'] ?? '').split(',').filter((s) => s !== '')
  if (only.length > 0) {
    const sections: Record<string, () => Promise<object>> = { spaaace: () => spaaaceSection(log) }
    const unknown = only.filter((s) => !(s in sections))
    if (unknown.length > 0)
      throw new Error(`BENCH_ONLY: no section ${unknown.join(', ')} (${Object.keys(sections).join(', ')})`)
    const file = join(ROOT, 'bench', 'results.json')
    const results = (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {}) as Record<string, unknown>
    for (const name of only) results[name] = { machine, date: new Date().toISOString(), ...(await sections[name]?.()) }
    mkdirSync(join(ROOT, 'bench'), { recursive: true })
    writeFileSync(file, JSON.stringify(results, null, 2) + '\n')
    const rows = only.includes('spaaace') ? spaaaceRows(results['spaaace'] as Parameters<typeof spaaaceRows>[0]) : []
    process.stdout.write(
      [machine, '', '| figure | referee-less | trusting baseline | goal |', '| --- | --- | --- | --- |']
        .concat(
          rows.map((r) => `| ${r.join(' | ')} |`),
          ['', `bench/results.json updated (${only.join(', ')})`],
        )
        .join('\n') + '\n',
    )
    return
  }

  log('1. per turn over libp2p (TCP + Noise + yamux), full protocol vs trusting baseline, alternating')
  const series = async (bot: BenchBot, delayMs: number, maxTurns: number): Promise<TurnSeries> => {
    log(`   ${bot} bots, ${delayMs === 0 ? 'loopback' : `a link adding ${delayMs} ms each way`}, a process per player`)
    const r = await pairedRuns(bot, delayMs, maxTurns, REPS)
    return summary(r.full, r.trusting, maxTurns, r.pipelined)
  }
  const twoProcesses = await series('random', 0, PER_TURN_MAX_TURNS)
  const twoProcessesMedium = await series('medium', 0, PER_TURN_MAX_TURNS)
  const linkRandom = await series('random', LINK_DELAY_MS, LINK_MAX_TURNS)
  const linkMedium = await series('medium', LINK_DELAY_MS, PER_TURN_MAX_TURNS)
  log('   both players in this process (sharing one thread)')
  const oneProcess = await inOneProcess()

  log('2. whole games over libp2p (connection, handshake, play, reveal, both verifications)')
  await wholeGame('medium', 'warm/whole')
  const wholeStrong: { ms: number; turns: number }[] = []
  const wholeRandom: { ms: number; turns: number }[] = []
  for (let i = 0; i < REPS; i++) wholeStrong.push(await wholeGame('medium', `whole/medium/${i}`))
  for (let i = 0; i < 3; i++) wholeRandom.push(await wholeGame('random', `whole/random/${i}`))

  const { files: strongFiles, ...verifier } = await verifierSection(log)

  log('4. the rules engine alone')
  const engine = engineRate()

  log(
    `5. the notary: receipts/s over libp2p, ${NOTARY_CLIENTS} clients x ${NOTARY_SUBMISSIONS} submissions, database synced, grouped commits and one per receipt`,
  )
  const notary = await notaryRate(log)
  log(
    `   a witnessed turn against an unwitnessed one, random bots (${WITNESSED_MAX_TURNS} turns), a link adding ${LINK_DELAY_MS} ms each way to the opponent and to the notary (spaceships notary), a process each`,
  )
  const witnessed = await witnessedTurns(log)

  log('6, 7. a peer node process (peak RSS) and verify cold start')
  const home = mkdtempSync(join(tmpdir(), 'spaceships-bench-'))
  const env = { ...process.env, XDG_CONFIG_HOME: join(home, 'c'), XDG_STATE_HOME: join(home, 's'), NO_COLOR: '1' }
  const transcriptFile = join(home, 'game.transcript')
  writeFileSync(transcriptFile, strongFiles[0] ?? '')
  const node = await timedProcess(
    [
      CLI,
      'play',
      '--autoplay',
      '--bot',
      'random',
      '--max-turns',
      '100',
      '--json',
      '--out',
      join(home, 'play.transcript'),
    ],
    env,
  )
  if (node.code !== 0) throw new Error('the play process failed')
  const cold: number[] = []
  for (let i = 0; i <= REPS + 2; i++) {
    const r = await timedProcess([CLI, 'verify', transcriptFile], env)
    if (r.code !== 0) throw new Error('verify failed')
    if (i > 0) cold.push(r.ms)
  }
  const coldStat = stat(cold)

  const spaaace = { machine, ...(await spaaaceSection(log)) }

  const results = {
    machine,
    date: new Date().toISOString(),
    command: 'npm run bench',
    perTurn: twoProcesses,
    perTurnMedium: twoProcessesMedium,
    perTurnLink: { delayMs: LINK_DELAY_MS, random: linkRandom, medium: linkMedium },
    perTurnOneProcess: oneProcess,
    wholeGame: {
      medium: { ms: stat(wholeStrong.map((g) => g.ms)), turns: stat(wholeStrong.map((g) => g.turns)) },
      random: { ms: stat(wholeRandom.map((g) => g.ms)), turns: stat(wholeRandom.map((g) => g.turns)) },
    },
    verifier,
    engine,
    notary,
    witnessed,
    peerNode: {
      peakRssMiB: node.peakRssMiB,
      note: 'spaceships play --autoplay: two peer nodes (you and the bot) in one process',
    },
    verifyColdStartMs: coldStat,
    spaaace,
    seconds: (performance.now() - started) / 1000,
  }
  mkdirSync(join(ROOT, 'bench'), { recursive: true })
  writeFileSync(join(ROOT, 'bench', 'results.json'), JSON.stringify(results, null, 2) + '\n')

  process.stdout.write(report(results).join('\n') + '\n')
}

/** Section 3: the verifier, one core, then every core; against a baseline build when given. */
async function verifierSection(log: (m: string) => void) {
  log('3. the verifier, one core, then every core')
  const strongFiles = await transcripts('medium', 20, 1000)
  const randomFiles = await transcripts('random', 10, 1000)
  const verifyStrong = verifierRate(strongFiles)
  const verifyRandom = verifierRate(randomFiles)
  const verifyAllCores = await verifierRateAllCores(strongFiles)
  log(`   a cost fleet (${COST_RULESET}) against the standard fleet, paired, per envelope`)
  const costFleet = costFleetPerEnvelope(randomFiles, await transcripts('random', 6, 1000, COST_RULESET))

  // BENCH_BASELINE=<another checkout's dist/>: this verifier against that one, paired, same files.
  const baselineDir = process.env['BENCH_BASELINE']
  let baseline: { dist: string; medium: ReturnType<typeof pairedVerifierRate> } | undefined
  if (baselineDir !== undefined && baselineDir !== '') {
    log(`   against the baseline verifier of ${baselineDir}, in processes of their own, alternating`)
    baseline = { dist: baselineDir, medium: pairedVerifierRate(strongFiles, baselineDir) }
  }

  log('   the largest transcript the terms allow (1,000 turns), signatures valid and broken')
  const worst = await worstCase()

  return {
    mediumGames: verifyStrong,
    randomGames: verifyRandom,
    allCores: verifyAllCores,
    costFleet,
    ...(baseline === undefined ? {} : { baseline }),
    worstCase: {
      lines: worst.lines,
      bytes: worst.bytes,
      validCpuMs: stat(worst.validCpuMs),
      brokenCpuMs: stat(worst.brokenCpuMs),
    },
    /** The medium-bot transcripts (the cold start measure verifies one). */
    files: strongFiles,
  }
}

await main()
