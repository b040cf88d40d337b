/**
 * `spaceships notary`: the witness of witnessed games (PROTOCOL-4.md §4, protocol/NOTARY.md): a
 * libp2p service that receipts the players' envelopes in a hash-chained log per game, holds them
 * encrypted to their players, and learns no move, setup, result or chat. Its database is
 * `node:sqlite`, written before any receipt is returned; it runs until interrupted (or `--for`).
 * It serves witnessed Spaaace! as well (SPAAACE-WITNESSED §2: a notary MAY serve both; the protocol
 * id selects the registrar), each game's log in a database of its own.
 */
import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { configDir, loadOrCreateIdentity, stateDir } from '../core/net/identity.js'
import { systemClock } from '../core/session/clock.js'
import { Notary } from '../core/notary-service/notary.js'
import { NotaryStore } from '../core/notary-service/store.js'
import { type NotaryServiceEvent, createNotaryNode, serveNotary, sweepLoop } from '../core/notary-net/service.js'
import { spaceshipsRegistrar } from '../games/spaceships/witness/registrar.js'
import { SPAAACE_NOTARY_PROTOCOL } from '../games/spaaace/witness/domain.js'
import { spaaaceRegistrar } from '../games/spaaace/witness/registrar.js'
import { type CliIo, EXIT, UserError, commandName } from './io.js'
import { guarded } from './guarded.js'

const env = (io: CliIo): NodeJS.ProcessEnv => io.env ?? process.env

export interface NotaryFlags {
  readonly identity?: string
  readonly db?: string
  /** The Spaaace! games' database (default: `spaaace-notary.sqlite` beside `db`). */
  readonly spaaaceDb?: string
  readonly listen?: string[]
  readonly json?: boolean
  readonly for?: number
}

/** Runs a notary until `stop` (or `--for` seconds); prints the addresses players name it by. */
export function notaryCommand(
  io: CliIo,
  f: NotaryFlags,
  stop: Promise<void> = new Promise(() => undefined),
): Promise<number> {
  return guarded(io, 'notary', async () => {
    const { identity } = await loadOrCreateIdentity(f.identity ?? join(configDir(env(io)), 'notary-identity'))
    const dbPath = f.db ?? join(stateDir(env(io)), 'notary.sqlite')
    const spaaacePath = f.spaaaceDb ?? join(dirname(dbPath), 'spaaace-notary.sqlite')
    const open = (path: string): NotaryStore => {
      try {
        mkdirSync(join(path, '..'), { recursive: true })
        return new NotaryStore(path)
      } catch (e) {
        throw new UserError(`cannot open the notary's database ${path}: ${(e as Error).message}`, EXIT.storage)
      }
    }
    const store = open(dbPath)
    let spaaaceStore: NotaryStore
    try {
      spaaaceStore = open(spaaacePath)
    } catch (e) {
      store.close()
      throw e
    }
    const notary = new Notary({ keys: identity.keys, registrar: spaceshipsRegistrar, clock: systemClock, store })
    const spaaace = new Notary({
      keys: identity.keys,
      registrar: spaaaceRegistrar,
      clock: systemClock,
      store: spaaaceStore,
    })
    const node = await createNotaryNode({
      identity,
      listen: f.listen ?? ['/ip4/0.0.0.0/tcp/4011', '/ip4/0.0.0.0/tcp/4012/ws'],
    })
    const stamp = (): string => new Date().toISOString().slice(11, 19)
    const log = (game: string) => (e: NotaryServiceEvent) => {
      io.stderr(
        `${stamp()} ${game}${e.kind === 'answered' ? `${e.request} from ${e.peer}: ${e.answer}` : `dropped ${e.peer}: ${e.why}`}\n`,
      )
    }
    await serveNotary(node, notary, log(''))
    await serveNotary(node, spaaace, log('spaaace '), { protocol: SPAAACE_NOTARY_PROTOCOL })
    await node.start()
    const sweeping = new AbortController()
    void sweepLoop(notary, systemClock, sweeping.signal).catch(() => undefined)
    void sweepLoop(spaaace, systemClock, sweeping.signal).catch(() => undefined)
    const peerId = identity.peerId.toString()
    const addrs = node.getMultiaddrs().map(String)
    const cmd = commandName(env(io))
    if (f.json === true) io.stdout(`${JSON.stringify({ peerId, addrs, db: dbPath, spaaaceDb: spaaacePath })}\n`)
    else
      io.stdout(
        `Notary ${peerId} listening on:\n${addrs.map((a) => `  ${a}\n`).join('')}` +
          `Its database: ${dbPath}\n` +
          `Its Spaaace! database: ${spaaacePath}\n` +
          `A host names it with: ${cmd} host --notary <one of the addresses above>\n` +
          `It serves witnessed Spaaace! (3-16 players) too, under /spaaace-notary/1.0.0: ${cmd} spaaace host --notary <the same address>.\n` +
          'It learns who plays whom, when each envelope was submitted and its size class; never a move, a setup, a result or a chat line.\n',
      )
    const forMs = f.for === undefined ? undefined : f.for * 1000
    await (forMs === undefined ? stop : Promise.race([stop, new Promise<void>((r) => setTimeout(r, forMs))]))
    sweeping.abort()
    await node.stop()
    store.close()
    spaaaceStore.close()
    return EXIT.ok
  })
}
