/**
 * The relay recipe exactly as the README writes it (SPEC §2.3): a relay allowing two players, a
 * host that names only the relay, a joiner with the invite; and the clear failures around it.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { CliIo } from '../src/cli/io.js'
import { relayCommand } from '../src/cli/relay.js'
import { parseInvite } from '../src/games/spaceships/net/invite.js'
import { cli, inviteOn } from './cli.js'

function home(): NodeJS.ProcessEnv {
  const d = mkdtempSync(join(tmpdir(), 'spaceships-relay-'))
  return { XDG_CONFIG_HOME: join(d, 'config'), XDG_STATE_HOME: join(d, 'state'), NO_COLOR: '1' }
}

async function peerOf(env: NodeJS.ProcessEnv): Promise<string> {
  return (JSON.parse((await cli(['id', '--json'], {}, { env })).out) as { peerId: string }).peerId
}

describe('spaceships relay, host --relay, join (the README recipe)', () => {
  it('works as written: the host waits for its slot, the invite carries a relayed address, the game completes, and the relay logs the reservation', async () => {
    const [hostEnv, joinEnv, relayEnv] = [home(), home(), home()]
    const [hostPeer, joinPeer] = await Promise.all([peerOf(hostEnv), peerOf(joinEnv)])
    let relayOut = ''
    let relayLog = ''
    let stopRelay: () => void = () => undefined
    const io: CliIo = {
      stdout: (t) => (relayOut += t),
      stderr: (t) => (relayLog += t),
      readFile: () => Promise.reject(new Error('unused')),
      writeFile: () => Promise.resolve(),
      env: relayEnv,
    }
    const relay = relayCommand(
      io,
      { listen: ['/ip4/127.0.0.1/tcp/0'], allow: [hostPeer, joinPeer], json: true },
      new Promise((r) => (stopRelay = r)),
    )
    await expect.poll(() => relayOut, { timeout: 10_000 }).toContain('"addrs"')
    const relayAddr = (JSON.parse(relayOut) as { addrs: string[] }).addrs[0] ?? ''
    let hostScreen = ''
    const host = cli(
      ['host', '--relay', relayAddr, '--autoplay', '--wait', '30', '--max-turns', '20'],
      {},
      { env: hostEnv, tap: (t) => (hostScreen += t) },
    )
    const invite = await inviteOn(() => hostScreen)
    const parsed = parseInvite(invite)
    expect(parsed.ok && parsed.value.addrs.some((a) => a.includes(`/p2p-circuit`))).toBe(true)
    const [h, j] = await Promise.all([
      host,
      cli(['join', invite, '--yes', '--autoplay', '--json'], {}, { env: joinEnv }),
    ])
    stopRelay()
    expect(await relay).toBe(0)
    expect(h.code, h.err).toBe(0)
    expect(j.code, j.err).toBe(0)
    expect(h.err).toContain('relay slot reserved: your opponent can reach you through the relay (the invite names it)')
    expect(relayLog).toMatch(new RegExp(`reservation by ${hostPeer}: granted`))
  }, 90_000)

  it('a relay that is not there: one line saying so, exit 69, and no phantom game to resume', async () => {
    const env = home()
    const r = await cli(
      [
        'host',
        '--relay',
        '/ip4/127.0.0.1/tcp/1/p2p/12D3KooWJdUcJdPwryb8qs3uBvXBkasD8oRVgqpNwK36kSzYFiDD',
        '--autoplay',
        '--wait',
        '5',
      ],
      {},
      { env },
    )
    expect(r.code).toBe(69)
    expect(r.err.trimEnd().split('\n').at(-1)).toMatch(
      /^spaceships host: cannot reach the relay \/ip4\/127\.0\.0\.1\/tcp\/1\/p2p\/12D3KooW\w+: .*\(is it running, and is the address right\?\)$/,
    )
    expect((await cli(['resume'], {}, { env })).out).toBe('No game to resume (all games: spaceships games)\n')
  }, 30_000)

  it('a relay with no allow-list must be opened on purpose', async () => {
    const r = await cli(['relay', '--listen', '/ip4/127.0.0.1/tcp/0', '--for', '1'], {}, { env: home() })
    expect(r.code).toBe(64)
    expect(r.err).toMatch(
      /^spaceships relay: say who may use this relay: --allow PEERID for each player .*, or --open for anyone/,
    )
    const open = await cli(
      ['relay', '--listen', '/ip4/127.0.0.1/tcp/0', '--open', '--for', '1', '--json'],
      {},
      { env: home() },
    )
    expect(open.code).toBe(0)
    expect(JSON.parse(open.out)).toMatchObject({ open: true, allow: [] })
  })
})
