/**
 * One side of the paired verifier measure (`pairedVerifierRate`), in a process of its own: the
 * verifier of the build given (its `verify.js`) over the bench's files, warmed up, then timed pass
 * by pass and file by file. Both builds run this same harness, each in a fresh process, so neither
 * has run longer than the other before it is measured.
 *
 * Usage: node verifier-pass.js <verify.js file URL> <files.json> <warm passes> <passes>
 * Prints one JSON line: each timed pass in ms, each file's fastest time in ms, and the verdicts.
 */
import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'

export interface PassResult {
  readonly passMs: number[]
  readonly fastestMs: number[]
  /** Each file's verdict status, then the whole verdicts as JSON: both builds must give the same. */
  readonly verdicts: string[]
  readonly verdictsJson: string
}

async function main(): Promise<void> {
  const [url = '', filesPath = '', warm = '0', passes = '1'] = process.argv.slice(2)
  const files = JSON.parse(readFileSync(filesPath, 'utf8')) as string[]
  const { verifyTranscript } = (await import(url)) as { verifyTranscript: (content: string) => unknown }
  const all = files.map((f) => verifyTranscript(f) as { status: string })
  const verdicts = all.map((v) => v.status)
  const verdictsJson = JSON.stringify(all)
  const fastestMs = files.map(() => Infinity)
  const passMs: number[] = []
  for (let rep = 0; rep < Number(warm) + Number(passes); rep++) {
    let total = 0
    for (const [i, f] of files.entries()) {
      const t0 = performance.now()
      verifyTranscript(f)
      const ms = performance.now() - t0
      total += ms
      if (rep >= Number(warm) && ms < (fastestMs[i] ?? Infinity)) fastestMs[i] = ms
    }
    if (rep >= Number(warm)) passMs.push(total)
  }
  const out: PassResult = { passMs, fastestMs, verdicts, verdictsJson }
  process.stdout.write(`${JSON.stringify(out)}\n`)
}

await main()
