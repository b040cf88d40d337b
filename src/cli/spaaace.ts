/**
 * `spaceships spaaace ...`: the Spaaace! referee of an open game record (rules/spaaace.md appendix)
 * and random records for testing other referees. Registered on the program by main.ts.
 */
import { randomBytes } from 'node:crypto'
import type { Command } from 'commander'
import { randomRecord, seededRng } from '../games/spaaace/referee/random.js'
import { referee } from '../games/spaaace/referee/referee.js'
import { LIMITS } from '../games/spaaace/rules/types.js'
import { type CliIo, EXIT, wholeNumber } from './io.js'

/** `spaaace referee FILE [--json]`: 0 for a valid record (finished or not), 2 for a record error. */
export async function spaaaceRefereeCommand(path: string, options: { json: boolean }, io: CliIo): Promise<number> {
  let bytes: Uint8Array
  try {
    bytes = await io.readFile(path)
  } catch (e) {
    io.stderr(`spaceships spaaace referee: cannot read ${path}: ${e instanceof Error ? e.message : String(e)}\n`)
    return EXIT.unreadable
  }
  // Bytes that are not UTF-8 become U+FFFD, which no record line accepts outside a comment.
  const text = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false }).decode(bytes)
  const result = referee(text, (t) => {
    io.stdout(options.json ? `${t.json}\n` : t.words)
  })
  if (result.error !== null) {
    io.stderr(`error ${result.error.line}: ${result.error.message}\n`)
    return EXIT.unreadable
  }
  return EXIT.ok
}

/** `spaaace record random`: a record written from the seed alone. */
export async function spaaaceRecordRandomCommand(
  options: { seed?: string; players: number; out?: string },
  io: CliIo,
  freshSeed: () => string,
): Promise<number> {
  const record = randomRecord(seededRng(options.seed ?? freshSeed()), options.players)
  if (options.out === undefined) io.stdout(record)
  else await io.writeFile(options.out, record)
  return EXIT.ok
}

/** Adds the `spaaace` command group to the program. */
export function registerSpaaace(root: Command, io: CliIo, status: { code: number }): void {
  const group = root
    .command('spaaace')
    .description(
      'Spaaace! (rules/spaaace.md): sealed-bid space battles among 3 to 16 players, refereed from an open game record.',
    )
  group
    .command('referee')
    .description(
      'Adjudicate an open Spaaace! game record tick by tick: what each step did, in words, or each closing state as one JSON line.',
    )
    .argument('<file>', 'open game record (rules/spaaace.md appendix)')
    .option('--json', 'one compact JSON closing state per tick, as the appendix defines it', false)
    .addHelpText(
      'after',
      '\nExit status: 0 a valid record (finished or not), 2 a record error (the ticks before it are printed, then "error LINE: MESSAGE" on standard error).',
    )
    .action(async (file: string, opts: { json: boolean }) => {
      status.code = await spaaaceRefereeCommand(file, opts, io)
    })
  group
    .command('record')
    .description('Spaaace! open game records.')
    .command('random')
    .description(
      'Write a random record: legal and malformed order sets, withheld, mismatched and missing orders, to the end of its game.',
    )
    .option('--seed <seed>', 'seed: the same seed writes the same record (default: random)')
    .option(
      '--players <n>',
      `players, ${LIMITS.minPlayers} to ${LIMITS.maxPlayers}`,
      wholeNumber('--players', LIMITS.minPlayers, LIMITS.maxPlayers),
      4,
    )
    .option('--out <file>', 'write the record here (default: standard output)')
    .action(async (opts: { seed?: string; players: number; out?: string }) => {
      status.code = await spaaaceRecordRandomCommand(opts, io, () => randomBytes(8).toString('hex'))
    })
}
