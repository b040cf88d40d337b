/**
 * Soak (opt-in, `npm run soak`): one relay serves twenty games at once, every host reachable only
 * through it (SPEC §2.3). All twenty dial within the same moment, past libp2p's default rate limit
 * of new connections per address, and every game completes with the same verdict on both sides.
 */
import { describe, expect, it } from 'vitest'
import { createRelayNode } from '../../src/core/net/node.js'
import { LOOPBACK, NET_TERMS, playOverNet, testIdentity } from '../net/helpers.js'

const GAMES = 20

describe(`soak: ${GAMES} concurrent games through one relay`, () => {
  it('every game completes, both sides agreeing', async () => {
    const relay = await createRelayNode({
      identity: await testIdentity('soak/relay'),
      listen: LOOPBACK,
      admission: () => 'anyone',
    })
    await relay.start()
    const addr =
      relay
        .getMultiaddrs()
        .map(String)
        .find((a) => a.includes('127.0.0.1')) ?? ''
    const t0 = performance.now()
    try {
      const games = await Promise.all(
        Array.from({ length: GAMES }, (_, i) =>
          playOverNet(`soak/relay/${i}`, {
            terms: { ...NET_TERMS, maxTurns: 30 },
            hostListen: ['/p2p-circuit'],
            joinListen: [],
            relays: [addr],
          }),
        ),
      )
      for (const g of games) {
        expect(g.host.verdict.status).toBe('complete')
        expect(g.join.verdict).toEqual(g.host.verdict)
        expect(g.events.join.some((e) => e.kind === 'connected' && e.relayed)).toBe(true)
      }
      process.stdout.write(`${GAMES} relayed games at once: ${((performance.now() - t0) / 1000).toFixed(1)} s\n`)
    } finally {
      await relay.stop()
    }
  })
})
