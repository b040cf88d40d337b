/**
 * `spaceships relay`: a circuit-relay-v2 server, so that players behind NAT can reach each other;
 * unlimited for the players it allows, or open to anyone with limits.
 */
import { join } from 'node:path'
import { configDir, loadOrCreateIdentity } from '../core/net/identity.js'
import { createRelayNode } from '../core/net/node.js'
import { type CliIo, EXIT, UserError, commandName } from './io.js'
import { guarded } from './guarded.js'

const env = (io: CliIo): NodeJS.ProcessEnv => io.env ?? process.env

/** A circuit-relay-v2 server for players behind NAT; runs until interrupted (or `--for`). */
export function relayCommand(
  io: CliIo,
  f: { identity?: string; listen?: string[]; allow?: string[]; open?: boolean; json?: boolean; for?: number },
  stop: Promise<void> = new Promise(() => undefined),
): Promise<number> {
  return guarded(io, 'relay', async () => {
    const allow = f.allow ?? []
    // A value that is no PeerId would match nobody: the relay would run and serve no one.
    const { peerIdFromString } = await import('@libp2p/peer-id')
    for (const a of allow) {
      try {
        peerIdFromString(a)
      } catch {
        throw new UserError(
          `--allow: "${a}" is not a PeerId (each player prints theirs with: ${commandName(env(io))} id)`,
        )
      }
    }
    if (allow.length === 0 && f.open !== true)
      throw new UserError(
        'say who may use this relay: --allow PEERID for each player (they print it with: spaceships id), or --open for anyone (each circuit then limited to a day and 64 MiB)',
      )
    const { identity } = await loadOrCreateIdentity(f.identity ?? join(configDir(env(io)), 'relay-identity'))
    const stamp = (): string => new Date().toISOString().slice(11, 19)
    const node = await createRelayNode({
      identity,
      listen: f.listen ?? ['/ip4/0.0.0.0/tcp/4001', '/ip4/0.0.0.0/tcp/4002/ws'],
      admission: () => (allow.length === 0 ? 'anyone' : new Set(allow)),
      onRefused: (peer) => {
        io.stderr(`${stamp()} refused ${peer}: not on the allow-list\n`)
      },
      onRelay: (e) => {
        if (e.kind === 'reservation')
          io.stderr(`${stamp()} reservation by ${e.peer}: ${e.granted ? 'granted' : 'refused'}\n`)
        else io.stderr(`${stamp()} circuit ${e.from} -> ${e.to}: ${e.granted ? 'opened' : 'refused'}\n`)
      },
    })
    await node.start()
    const addrs = node.getMultiaddrs().map(String)
    if (f.json === true)
      io.stdout(`${JSON.stringify({ peerId: identity.peerId.toString(), addrs, allow, open: allow.length === 0 })}\n`)
    else
      io.stdout(
        `Relay ${identity.peerId.toString()} listening on:\n${addrs.map((a) => `  ${a}\n`).join('')}${allow.length === 0 ? 'Open to anyone; each circuit is limited to a day and 64 MiB.\n' : `Allowed: ${allow.join(', ')}\n`}Players use: --relay <one of the addresses above>\n`,
      )
    const forMs = f.for === undefined ? undefined : f.for * 1000
    const timer = forMs === undefined ? stop : Promise.race([stop, new Promise<void>((r) => setTimeout(r, forMs))])
    await timer
    await node.stop()
    return EXIT.ok
  })
}
