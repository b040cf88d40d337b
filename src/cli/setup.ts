/** `spaceships setup random|check`: make or check a setup in the notation (§11.3.1, C-05). */
import { randomSetup } from '../games/spaceships/rules/enumerate.js'
import { describeViolation } from '../games/spaceships/rules/errors.js'
import { seededRandom } from '../games/spaceships/rules/rng.js'
import { parseRuleset } from '../games/spaceships/rules/ruleset.js'
import { formatSetup, readSetup } from '../games/spaceships/rules/setup.js'
import { randomGameRecord } from '../games/spaceships/referee/simulate.js'
import { type CliIo, EXIT } from './io.js'

export interface SetupOptions {
  readonly ruleset: string
  readonly additional: string
  readonly seed?: string
}

function rulesetOrError(text: string, io: CliIo) {
  const r = parseRuleset(text)
  if (!r.ok) io.stderr(`spaceships: ruleset: ${describeViolation(r.error)}\n`)
  return r
}

function additionalOrError(text: string, io: CliIo): number | undefined {
  if (!/^\d{1,3}$/.test(text)) {
    io.stderr(
      'spaceships: --additional takes a whole number (remaining materiel carried into a continued match, §10.3)\n',
    )
    return undefined
  }
  return Number(text)
}

export function setupRandomCommand(options: SetupOptions, io: CliIo, defaultSeed: () => string): number {
  const r = rulesetOrError(options.ruleset, io)
  const additional = additionalOrError(options.additional, io)
  if (!r.ok || additional === undefined) return EXIT.usage
  const seed = options.seed ?? defaultSeed()
  io.stdout(
    `# random setup, ruleset ${options.ruleset}, seed ${seed}\n${formatSetup(randomSetup(r.value, seededRandom(seed), additional))}\n`,
  )
  return EXIT.ok
}

export async function setupCheckCommand(path: string, options: SetupOptions, io: CliIo): Promise<number> {
  const r = rulesetOrError(options.ruleset, io)
  const additional = additionalOrError(options.additional, io)
  if (!r.ok || additional === undefined) return EXIT.usage
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await io.readFile(path))
  } catch (e) {
    io.stderr(`spaceships setup check: cannot read ${path}: ${e instanceof Error ? e.message : String(e)}\n`)
    return EXIT.unreadable
  }
  const setup = readSetup(text, r.value, additional)
  if (!setup.ok) {
    io.stdout(`ILLEGAL setup ${path}:\n${setup.error.map((v) => `  ${describeViolation(v)}\n`).join('')}`)
    return EXIT.illegal
  }
  io.stdout(`LEGAL setup (canonical form):\n${formatSetup(setup.value)}\n`)
  return EXIT.ok
}

export function recordRandomCommand(
  options: { ruleset: string; seed?: string },
  io: CliIo,
  defaultSeed: () => string,
): number {
  const r = rulesetOrError(options.ruleset, io)
  if (!r.ok) return EXIT.usage
  io.stdout(randomGameRecord(r.value, options.seed ?? defaultSeed()))
  return EXIT.ok
}
