/**
 * The notary of the receipt-rate measure (notary-rate.ts) in a process of its own: the process
 * whose one thread is measured. Its database is a fresh file (`synchronous = FULL`, as the store
 * always sets it, NOTARY.md §8) and it serves on loopback TCP with Noise and yamux, exactly as
 * `spaceships notary` does (createNotaryNode, serveNotary).
 *
 *   node dist/bench/notary-process.js DB_PATH grouped|single
 *
 * Prints `{"addrs": [...]}` once it listens. Each line `cpu` on its standard input is answered
 * with `{"cpuMs": ...}` (user + system time of the process so far), so the parent can take the
 * CPU of a round alone; it exits when its standard input closes.
 */
import { realpathSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { Notary } from '../core/notary-service/notary.js'
import { NotaryStore } from '../core/notary-service/store.js'
import { createNotaryNode, serveNotary } from '../core/notary-net/service.js'
import { systemClock } from '../core/session/clock.js'
import { spaceshipsRegistrar } from '../games/spaceships/witness/registrar.js'
import { benchNotaryIdentity } from './notary-clients.js'

async function main(dbPath: string, mode: string): Promise<void> {
  if (mode !== 'grouped' && mode !== 'single') throw new Error(`mode ${mode}: grouped or single`)
  const identity = await benchNotaryIdentity()
  const store = new NotaryStore(dbPath)
  const notary = new Notary({ keys: identity.keys, registrar: spaceshipsRegistrar, clock: systemClock, store })
  const node = await createNotaryNode({ identity, listen: ['/ip4/127.0.0.1/tcp/0'], connectionsPerHostPerSecond: 1000 })
  let failures = 0
  await serveNotary(
    node,
    notary,
    (e) => {
      if (e.kind === 'dropped' || e.answer !== 'receipt') failures++
    },
    { group: mode === 'grouped' },
  )
  await node.start()
  process.stdout.write(JSON.stringify({ addrs: node.getMultiaddrs().map(String) }) + '\n')
  for await (const line of createInterface({ input: process.stdin })) {
    if (line.trim() !== 'cpu') continue
    const u = process.cpuUsage()
    process.stdout.write(JSON.stringify({ cpuMs: (u.user + u.system) / 1000, failures }) + '\n')
  }
  await node.stop()
  store.close()
}

if (process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [dbPath, mode] = process.argv.slice(2)
  await main(dbPath ?? '', mode ?? 'grouped')
}
