/**
 * Soak (opt-in, `npm run soak`): witnessed Spaaace! from the command line (SPAAACE-WITNESSED §3,
 * §8). A notary on loopback; a host with a bot, live; a joiner who is never online for long: it runs
 * `spaaace join --check-in` (accept, then one check-in, then exit) whenever the previous one said to
 * come back. The game ends complete on both, and `verify` of every file agrees. Real time, because
 * the processes' clocks are the system's: about a minute, a soak and not a unit test.
 */
import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadOrCreateIdentity } from '../../src/core/net/identity.js'
import { createNotaryNode, serveNotary } from '../../src/core/notary-net/service.js'
import { Notary } from '../../src/core/notary-service/notary.js'
import { NotaryStore } from '../../src/core/notary-service/store.js'
import { systemClock } from '../../src/core/session/clock.js'
import { SPAAACE_NOTARY_PROTOCOL } from '../../src/games/spaaace/witness/domain.js'
import { spaaaceRegistrar } from '../../src/games/spaaace/witness/registrar.js'
import { cli } from '../cli.js'
import { testIdentity } from '../net/helpers.js'

describe('soak: witnessed Spaaace! on the command line', () => {
  it('a live host with a bot and a joiner who only checks in: complete on both, verify agrees', async () => {
    const notaryId = await testIdentity('soak/spaaace-notary')
    const node = await createNotaryNode({ identity: notaryId, listen: ['/ip4/127.0.0.1/tcp/0'] })
    const notary = new Notary({
      keys: notaryId.keys,
      registrar: spaaaceRegistrar,
      clock: systemClock,
      store: new NotaryStore(':memory:'),
    })
    await serveNotary(node, notary, undefined, { protocol: SPAAACE_NOTARY_PROTOCOL })
    await node.start()
    const addr =
      node
        .getMultiaddrs()
        .map(String)
        .find((a) => a.includes('127.0.0.1')) ?? ''
    try {
      const base = mkdtempSync(join(tmpdir(), 'spaaace-witnessed-'))
      const b = await loadOrCreateIdentity(join(base, 'b.identity'))
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
          '--player',
          b.identity.peerId.toString(),
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
          '--notary',
          addr,
          '--autoplay',
          '--invite-file',
          'inv',
        ],
        files,
        { env: env('a') },
      )
      await expect.poll(() => files['inv'], { timeout: 20_000 }).toMatch(/^spaaace1\./)
      // The joiner: one check-in at a time, coming back when the last one said (the protocol's own
      // times, §8.1 step 6), until its part is done (exit 0).
      const joins: { code: number; out: string; err: string }[] = []
      let invite = '@inv'
      // Bounded by time, not by a count: a check-in a moment early only says to come back.
      const giveUp = Date.now() + 180_000
      while (Date.now() < giveUp) {
        const r = await cli(
          ['spaaace', 'join', invite, '--identity', join(base, 'b.identity'), '--autoplay', '--check-in'],
          files,
          { env: env('b') },
        )
        joins.push(r)
        if (r.code !== 3) break
        invite = `@${/spaaace join @(\S+) --check-in/.exec(r.out)?.[1] ?? 'inv'}`
        expect(invite).not.toBe('@inv')
        const again = /Check in again after (\S+):/.exec(r.out)?.[1]
        const wait = again === undefined ? 1000 : Math.max(0, Date.parse(again) - Date.now()) + 200
        await new Promise((resolve) => setTimeout(resolve, Math.min(wait, 30_000)))
      }
      const last = joins.at(-1)
      expect(last?.code, last?.out).toBe(0)
      expect(joins.map((j) => j.out).join('')).toMatch(/This check-in committed your orders for tick 1/)
      expect(joins.map((j) => j.out).join('')).toMatch(/This check-in revealed your orders for tick 1/)
      expect(last?.out).toMatch(/complete after tick 1/)
      const a = await host
      expect(a.code, a.err).toBe(0)
      expect(a.out).toMatch(/Decided from the notary's receipts \(SPAAACE-WITNESSED §7\): complete after tick 1/)
      // The wait for the end to become final is said, not silent (§7.4).
      expect(a.out.replace(/\n\s+/g, ' ')).toMatch(
        /The game ends after tick 1, provisionally: it is final once the notary's log passes \S+ \(the window for complaints/,
      )
      const paths = [...a.out.matchAll(/Your transcript: (\S+)/g)].map((m) => m[1] ?? '')
      const dirB = /spaaace join @(\S+)\/invite/.exec(joins[0]?.out ?? '')?.[1] ?? ''
      const mine = readdirSync(dirB)
        .filter((f) => f.endsWith('.transcript'))
        .map((f) => join(dirB, f))
      expect(mine).toHaveLength(1)
      const v = await cli(['verify', ...paths, ...mine])
      expect(v.out).toMatch(/witnessed/)
      expect(v.out).toMatch(/tick 1: final/)
      expect(v.code, v.out).toBe(0)
    } finally {
      await node.stop()
    }
  }, 300_000)
})
