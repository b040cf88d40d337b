/**
 * `spaceships spaaace host` and `spaaace join`, in-process on real time and real libp2p: the host
 * names a second player by PeerId and fills the third seat with a bot of its own process; the
 * player joins with the invite the host wrote; one tick with the least Δ (protocol/SPAAACE-PEERS.md
 * §3.1, §10), then both end complete, and `verify` of the three transcripts agrees.
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadOrCreateIdentity } from '../../../../src/core/net/identity.js'
import { anyPort, hostMajorityNote, personSeat, reachLine, reachWatch } from '../../../../src/cli/spaaace-net.js'
import { systemSecrets } from '../../../../src/core/commit/secrets.js'
import { composeGenesis, defaultPeersTerms } from '../../../../src/games/spaaace/node/local.js'
import { genesis as genesisState } from '../../../../src/games/spaaace/rules/state.js'
import { rulesTerms } from '../../../../src/games/spaaace/peers/genesis.js'
import { playTick } from '../../../../src/games/spaaace/rules/tick.js'
import { cli } from '../../../cli.js'

describe('spaaace host and join (§3.2, §6)', () => {
  it('a host with a bot and a player who joins by the invite: one tick, complete on both, verify agrees', async () => {
    const base = mkdtempSync(join(tmpdir(), 'spaaace-cli-net-'))
    const idB = join(base, 'b.identity')
    const b = await loadOrCreateIdentity(idB)
    const files: Record<string, string> = {}
    const envA = { ...process.env, XDG_STATE_HOME: join(base, 'a-state'), XDG_CONFIG_HOME: join(base, 'a-config') }
    const envB = { ...process.env, XDG_STATE_HOME: join(base, 'b-state'), XDG_CONFIG_HOME: join(base, 'b-config') }
    // The host pinned the player's PeerId as "bob": its screens name that seat so (the label stays pN).
    const pin = await cli(['names', 'pin', b.identity.peerId.toString(), 'bob'], {}, { env: envA })
    expect(pin.code, pin.err).toBe(0)
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
        '6',
        '--listen',
        '/ip4/127.0.0.1/tcp/0',
        '--autoplay',
        '--invite-file',
        'inv',
      ],
      files,
      { env: envA },
    )
    // The host writes the invite once its nodes listen.
    for (let i = 0; i < 400 && files['inv'] === undefined; i++) await new Promise((r) => setTimeout(r, 25))
    expect(files['inv']).toMatch(/^spaaace1\./)
    const joiner = cli(
      ['spaaace', 'join', '@inv', '--identity', idB, '--listen', '/ip4/127.0.0.1/tcp/0', '--autoplay'],
      files,
      { env: envB },
    )
    const [a, bb] = await Promise.all([host, joiner])
    expect(a.code, a.err).toBe(0)
    expect(bb.code, bb.err).toBe(0)
    for (const r of [a, bb]) expect(r.out).toMatch(/Decided from the evidence \(§5\): complete after tick 1/)
    // Its bot and itself are 2 of 3 seats in one process: the host is told a crash of it stops every tick (§5.1).
    expect(a.out).toMatch(/you and your bot play 2 of the 3 seats, all in this process/)
    // The host sends the invite; the joiner, who has it, is told where it is kept instead.
    expect(a.out).toMatch(/Invite \(each player runs: .* spaaace join <invite>\):\n\nspaaace1\./)
    expect(bb.out).not.toMatch(/Invite \(each player|spaaace1\./)
    expect(bb.out).toMatch(/you are p\d \(the invite is kept in \S+\/invite\)\./)
    // Who plays which seat: the host sees bob by the name it pinned, the joiner the host's PeerId tail.
    expect(a.out).toMatch(/Players:\n( {2}p\d (you|bob \(…\w+\)|a sensible bot run here)\n){3}/)
    expect(a.out).toMatch(/ {2}p\d bob \(…\w+\)\n/)
    expect(a.out).not.toMatch(/Name a player with/)
    expect(a.out).toMatch(/^ {2}p\d \(bob\) +\d+/m)
    // The joiner sees the others' whole PeerIds, which `names pin` takes.
    expect(bb.out).toMatch(/Players:\n( {2}p\d (you|12D3KooW\w+)\n){3}Name a player with: .+ names pin PEERID NAME\n/)
    const paths = [...`${a.out}\n${bb.out}`.matchAll(/Your transcript: (\S+)/g)].map((m) => m[1] ?? '')
    expect(paths).toHaveLength(2)
    const v = await cli(['verify', ...paths])
    expect(v.code, v.out).toBe(0)
    expect(v.out).toMatch(/tick 1: signed by 3 of 3/)
    expect(v.out).toMatch(/standings after tick 1 \(S-43\): p\d fame \d+ coins \d+; p\d fame/)
    // The join command again, the game over, without --autoplay or a terminal: it asks nothing, so
    // needs neither; its end is said at once from its file, not waited for; its file is unchanged.
    const before = readFileSync(paths[1] ?? '', 'utf8')
    const again = await cli(['spaaace', 'join', '@inv', '--identity', idB, '--listen', '/ip4/127.0.0.1/tcp/0'], files, {
      env: envB,
    })
    expect(again.code, again.err).toBe(0)
    expect(again.out).toMatch(/This game is over in your transcript: complete after tick 1/)
    expect(again.out).not.toMatch(/Waiting for every player to accept|Resuming: your node catches up/)
    expect(again.out).toMatch(/Decided from the evidence \(§5\): complete after tick 1/)
    expect(readFileSync(paths[1] ?? '', 'utf8')).toBe(before)
  }, 90_000)
})

describe('spaaace host with bots: the seats its process plays (§5.1)', () => {
  it('is told when the others without its process are short of a majority, and only then', () => {
    // [players, bots, told]: a majority is ⌊n/2⌋ + 1 of n.
    for (const [n, bots, told] of [
      [3, 1, true],
      [4, 1, true],
      [5, 1, false],
      [5, 2, true],
      [16, 6, false],
      [16, 7, true],
      [16, 0, false],
    ] as const)
      expect(hostMajorityNote(n, bots) !== undefined, `${n} players, ${bots} bots`).toBe(told)
    expect(hostMajorityNote(4, 1)).toMatch(
      /you and your bot play 2 of the 4 seats, all in this process\. Without it the other players are 2, fewer than the 3 a tick needs/,
    )
  })
})

describe("a player's screen among people (spaaace join)", () => {
  it('a commitment not revealed in time is said as what it likely was (the node stopped or cut off), beside S-62', async () => {
    const ids = await Promise.all(
      [0, 1, 2].map(() => loadOrCreateIdentity(join(mkdtempSync(join(tmpdir(), 'seat-')), 'id'))),
    )
    const { genesis } = composeGenesis(
      ids.map((i) => i.identity.keys.publicKey),
      defaultPeersTerms(3),
      { start: 0, commitMs: 13_000, revealMs: 5_500, marginMs: 500 },
      systemSecrets.bytes(32),
    )
    let out = ''
    const io = {
      stdout: (t: string) => (out += t),
      stderr: () => undefined,
      readFile: () => Promise.reject(new Error('none')),
      writeFile: () => Promise.resolve(),
    }
    const seats = [{ label: 'you' }, { label: 'p2' }, { label: 'p3' }]
    const seat = personSeat(io, genesis, 0, ['p1', 'p2', 'p3'], seats, true, new AbortController())
    const state = genesisState(3, rulesTerms(genesis.genesis))
    // p1 committed and never revealed: the engine's S-62 penalty.
    const outcome = playTick(state, [{ kind: 'withheld' }, { kind: 'missing' }, { kind: 'missing' }])
    seat.events.onSettled?.({ t: 1, outcome } as never, undefined as never)
    expect(out).toMatch(/you withheld your orders: energy \d+ lost/)
    expect(out.replace(/\s+/g, ' ')).toMatch(
      /Your node committed your orders for tick 1, but its reveal was not among those the tick counted by its reveal cut \(your node was stopped or cut off in between/,
    )
  })
})

describe('spaaace host --listen with bots', () => {
  it('the bots listen where the host does, on ports the system chooses (one port serves one node)', () => {
    expect(anyPort(['/ip4/127.0.0.1/tcp/4312', '/ip4/0.0.0.0/tcp/4313/ws', '/ip6/::1/tcp/9/p2p-circuit'])).toEqual([
      '/ip4/127.0.0.1/tcp/0',
      '/ip4/0.0.0.0/tcp/0/ws',
      '/ip6/::1/tcp/0/p2p-circuit',
    ])
  })
})

describe('who this node reaches, as the screen tells it (reachWatch)', () => {
  it('a player reached, then lost for two checks while others are reached, is named once, and again once back; nobody reached for three checks is said once', () => {
    const said: string[] = []
    let up = new Set([1, 2, 3])
    const check = reachWatch(
      4,
      0,
      (i) => up.has(i),
      () => said.push('alone'),
      (i, back) => said.push(`p${i + 1} ${back ? 'back' : 'lost'}`),
    )
    check()
    // The host p2 killed with its bot p4: lost at the second check without them, said once.
    up = new Set([2])
    for (let k = 0; k < 4; k++) check()
    expect(said).toEqual(['p2 lost', 'p4 lost'])
    up = new Set([1, 2, 3])
    check()
    check()
    expect(said).toEqual(['p2 lost', 'p4 lost', 'p2 back', 'p4 back'])
    // Everyone gone: one line for that, not one a player.
    up = new Set()
    for (let k = 0; k < 6; k++) check()
    expect(said.slice(4)).toEqual(['alone'])
    up = new Set([1])
    check()
    expect(said.slice(5)).toEqual(['p2 back'])
  })

  // SPAAACE-PEERS §5.1: found by a new-user pass (a host and its bot killed, 2 of 4 left).
  it('a lost player is said with whether this node still reaches a majority', () => {
    const at = new Date('2026-11-27T05:33:58Z')
    expect(reachLine('p2', false, { reached: 3, active: 4, majority: 3 }, at)).toBe(
      'p2 is unreachable since 05:33:58 UTC; your node keeps trying. The game goes on while a majority of the players play (SPAAACE-PEERS.md §7.3); a player away long enough is removed (S-81).',
    )
    expect(reachLine('p2', false, { reached: 2, active: 4, majority: 3 }, at)).toBe(
      'p2 is unreachable since 05:33:58 UTC; your node keeps trying. Your node reaches 2 of the 4 active players with itself, and a tick needs 3: none settles until enough of the others are back (SPAAACE-PEERS.md §5.1); it waits for them.',
    )
    expect(reachLine('p2', true, { reached: 1, active: 4, majority: 3 }, at)).toBe('p2 is reachable again.')
  })

  it('a player never reached yet (not joined) is not said to be lost', () => {
    const said: string[] = []
    const check = reachWatch(
      3,
      0,
      (i) => i === 1,
      () => said.push('alone'),
      (i) => said.push(`p${i + 1}`),
    )
    for (let k = 0; k < 5; k++) check()
    expect(said).toEqual([])
  })
})
