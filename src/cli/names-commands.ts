/**
 * The commands of names (SPEC §2.4 kind 6), registered on the program: `name` for this player's
 * own, `names` (list, pin, unpin) for the address book. They load no libp2p beyond a PeerId check.
 */
import type { Command } from 'commander'
import { type CliIo, UserError } from './io.js'

/** A command's failure as one line naming it; file errors go on to main.ts, which says what to do. */
async function oneLine(io: CliIo, name: string, body: () => number | Promise<number>): Promise<number> {
  try {
    return await body()
  } catch (e) {
    if (!(e instanceof UserError)) throw e
    io.stderr(`spaceships ${name}: ${e.message}\n`)
    return e.exitCode
  }
}

const EXIT_TEXT =
  '\nExit status: 0 done; 64 a usage error (a name that is not printable ASCII of 1 to 32 bytes, an unknown player); 73 the file cannot be written; 74 it cannot be read or is damaged.'

export function registerNames(root: Command, io: CliIo, status: { code: number }): void {
  const load = () => import('./names.js')
  root
    .command('name')
    .description(
      'Show or set your name: sent to your opponent at the start of each game (protocol version 4), never signed or kept in a transcript; they see it beside your PeerId, as your own claim unless they pinned it.',
    )
    .argument('[name]', 'printable ASCII, 1 to 32 characters')
    .option('--clear', 'send no name from now on')
    .option('--json', 'print as JSON', false)
    .addHelpText('after', EXIT_TEXT)
    .action(async (name: string | undefined, opts: { clear?: boolean; json: boolean }) => {
      status.code = await oneLine(io, 'name', async () => (await load()).nameCommand(io, name, opts))
    })
  const names = root
    .command('names')
    .description(
      "Your address book: names pinned to players' keys. A pinned name is shown whatever name that key sends; a player who sends a name pinned to another key is flagged.",
    )
  names
    .command('list', { isDefault: true })
    .description('List the pinned names (the default).')
    .option('--json', 'print as JSON', false)
    .addHelpText('after', EXIT_TEXT)
    .action(async (opts: { json: boolean }) => {
      status.code = await oneLine(io, 'names', async () => (await load()).namesListCommand(io, opts))
    })
  names
    .command('pin')
    .description('Pin a name to a player: shown as that name from now on, whatever name its key sends.')
    .argument('<id>', 'their PeerId, or the id of a game against them (as games prints it)')
    .argument('[name]', 'the name (default: the one they sent in that game)')
    .addHelpText('after', EXIT_TEXT)
    .action(async (id: string, name: string | undefined) => {
      status.code = await oneLine(io, 'names pin', async () => (await load()).namesPinCommand(io, id, name))
    })
  names
    .command('unpin')
    .description('Remove a player from the address book.')
    .argument('<id>', 'their PeerId, or the id of a game against them')
    .addHelpText('after', EXIT_TEXT)
    .action(async (id: string) => {
      status.code = await oneLine(io, 'names unpin', async () => (await load()).namesUnpinCommand(io, id))
    })
}
