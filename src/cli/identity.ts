/**
 * This player's identity key: loaded (or created) for a game, with a warning when others could
 * read it, and the `id` command that shows it.
 */
import { type Identity, defaultIdentityPath, loadOrCreateIdentity } from '../core/net/identity.js'
import { type CliIo, EXIT } from './io.js'
import type { GameFlags } from './flags.js'
import { guarded } from './guarded.js'

const env = (io: CliIo): NodeJS.ProcessEnv => io.env ?? process.env

/** A key others could read is reported: whoever read it can sign transcripts as this player. */
function warnExposed(io: CliIo, identity: Identity, exposedMode: number | undefined): void {
  if (exposedMode !== undefined)
    io.stderr(
      `warning: your identity key ${identity.path} was readable by others (mode ${exposedMode.toString(8)}); it is now private (600). Anyone who read it can sign as you: if that may have happened, move it away to create a new identity.\n`,
    )
}

export async function identityFor(f: GameFlags, io: CliIo): Promise<Identity> {
  const { identity, created, exposedMode } = await loadOrCreateIdentity(f.identity ?? defaultIdentityPath(env(io)))
  if (created && f.json !== true) io.stderr(`created your identity ${identity.peerId.toString()} in ${identity.path}\n`)
  warnExposed(io, identity, exposedMode)
  return identity
}

export function idCommand(io: CliIo, f: { identity?: string; json?: boolean }): Promise<number> {
  return guarded(io, 'id', async () => {
    const { identity, created, exposedMode } = await loadOrCreateIdentity(f.identity ?? defaultIdentityPath(env(io)))
    warnExposed(io, identity, exposedMode)
    const peer = identity.peerId.toString()
    if (f.json === true) io.stdout(`${JSON.stringify({ peerId: peer, path: identity.path, created })}\n`)
    else {
      // Standard output is the PeerId alone, so `--player $(spaceships id)` takes it as it is.
      io.stdout(`${peer}\n`)
      io.stderr(`${created ? 'created' : 'stored'} in ${identity.path} (keep it private; it signs your transcripts)\n`)
    }
    return EXIT.ok
  })
}
