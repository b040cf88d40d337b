/**
 * Soak (opt-in, `npm run soak`): Spaaace! through a relay (protocol/SPAAACE-PEERS.md §8 "through
 * relays where needed"). A host with a bot and two players who join, every node holding a slot on
 * one relay; the two players listen on their circuits alone, so they can dial each other only
 * through it. One tick on real time, then all three end complete and the relay opened a circuit
 * between the two players. Real time, so about half a minute: a soak, not a unit test.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadOrCreateIdentity } from '../../src/core/net/identity.js'
import { type RelayEvent, createRelayNode } from '../../src/core/net/node.js'
import { cli } from '../cli.js'
import { LOOPBACK, testIdentity } from '../net/helpers.js'

describe('soak: Spaaace! through one relay', () => {
  it('a host, its bot and two joiners, every node on the relay: complete, and the joiners linked through it', async () => {
    const events: RelayEvent[] = []
    const relay = await createRelayNode({
      identity: await testIdentity('soak/spaaace-relay'),
      listen: LOOPBACK,
      admission: () => 'anyone',
      onRelay: (e) => events.push(e),
    })
    await relay.start()
    const addr =
      relay
        .getMultiaddrs()
        .map(String)
        .find((a) => a.includes('127.0.0.1')) ?? ''
    try {
      const base = mkdtempSync(join(tmpdir(), 'spaaace-relay-'))
      const ids = await Promise.all(['b', 'c'].map((k) => loadOrCreateIdentity(join(base, `${k}.identity`))))
      const env = (k: string): NodeJS.ProcessEnv => ({
        ...process.env,
        XDG_STATE_HOME: join(base, `${k}-state`),
        XDG_CONFIG_HOME: join(base, `${k}-config`),
      })
      const files: Record<string, string> = {}
      const host = cli(
        [
          'spaaace',
          'host',
          '--identity',
          join(base, 'a.identity'),
          ...ids.flatMap((i) => ['--player', i.identity.peerId.toString()]),
          '--bots',
          '1',
          '--ticks',
          '1',
          '--margin-ms',
          '500',
          '--start-in',
          '8',
          '--listen',
          '/ip4/127.0.0.1/tcp/0',
          '--relay',
          addr,
          '--autoplay',
          '--invite-file',
          'inv',
        ],
        files,
        { env: env('a') },
      )
      for (let i = 0; i < 600 && files['inv'] === undefined; i++) await new Promise((r) => setTimeout(r, 25))
      expect(files['inv']).toMatch(/^spaaace1\./)
      // The joiners listen on no address but their circuits: the others can dial them only through the relay.
      const joiners = ['b', 'c'].map((k) =>
        cli(
          [
            'spaaace',
            'join',
            '@inv',
            '--identity',
            join(base, `${k}.identity`),
            // A circuit on the relay is their only address (behind NAT, as it were): the peer records
            // the nodes pass on (§8 Addresses) carry no direct one.
            '--listen',
            '/p2p-circuit',
            '--autoplay',
          ],
          files,
          { env: env(k) },
        ),
      )
      const results = await Promise.all([host, ...joiners])
      for (const r of results) {
        expect(r.code, r.err).toBe(0)
        expect(r.out).toMatch(/Decided from the evidence \(§5\): complete after tick 1/)
      }
      const [b, c] = ids.map((i) => i.identity.peerId.toString())
      expect(
        events.some(
          (e) => e.kind === 'circuit' && e.granted && ((e.from === b && e.to === c) || (e.from === c && e.to === b)),
        ),
      ).toBe(true)
    } finally {
      await relay.stop()
    }
  }, 120_000)
})
