/**
 * What a Spaaace! player is told when things go wrong (found by a new-user pass): a check-in while
 * the notary does not answer is one visit, not a vigil (SPAAACE-WITNESSED §8.1, NOTARY.md §7.6: it
 * ends after CHECK_IN_UNREACHABLE_MS with the command to check in again, exit 69); a reveal window
 * too short to meet by hand; orders signed but not receipted by the commit cut (S-61); an invite
 * cut short in copying.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadOrCreateIdentity } from '../../../../src/core/net/identity.js'
import { cli } from '../../../cli.js'
import { start, text, until } from '../../../processes.js'
import { revealWindowWarning, witnessedScreen } from '../../../../src/cli/spaaace-witnessed.js'
import type { CliIo } from '../../../../src/cli/io.js'
import { formatSpaaaceInvite, parseSpaaaceInvite } from '../../../../src/games/spaaace/node/invite.js'
import { liveGenesis, sealedGenesis } from '../peers/fixtures.js'
import { genesis } from '../../../../src/games/spaaace/rules/state.js'
import { playTick } from '../../../../src/games/spaaace/rules/tick.js'
import type { WitnessedDecision } from '../../../../src/games/spaaace/witness/decide.js'

describe('a check-in while the notary does not answer', () => {
  it('ends with one line saying so and the command to check in again, exit 69; a second process on a game is refused', async () => {
    const base = mkdtempSync(join(tmpdir(), 'spaaace-unreachable-'))
    const b = await loadOrCreateIdentity(join(base, 'b.identity'))
    const notary = await loadOrCreateIdentity(join(base, 'n.identity'))
    const env = (k: string): NodeJS.ProcessEnv => ({
      ...process.env,
      XDG_STATE_HOME: join(base, `${k}-state`),
      XDG_CONFIG_HOME: join(base, `${k}-config`),
    })
    // Port 1 on loopback: nothing listens, every dial is refused at once.
    const nowhere = `/ip4/127.0.0.1/tcp/1/p2p/${notary.identity.peerId.toString()}`
    // The host in a process of its own (it would wait on the notary for ever), killed at the end.
    const inv = join(base, 'inv')
    const host = start(
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
        '--start-in',
        '60',
        '--listen',
        '/ip4/127.0.0.1/tcp/0',
        '--notary',
        nowhere,
        '--autoplay',
        '--invite-file',
        inv,
      ],
      env('a'),
    )
    try {
      await until(() => (/^spaaace1\./.test(text(inv)) ? true : undefined), "the host's invite")
      const files: Record<string, string> = {}
      const started = Date.now()
      const r = await cli(
        ['spaaace', 'join', `@${inv}`, '--identity', join(base, 'b.identity'), '--autoplay', '--check-in'],
        files,
        {
          env: env('b'),
        },
      )
      expect(r.code, r.out + r.err).toBe(69)
      expect(Date.now() - started).toBeLessThan(40_000)
      const out = r.out.replace(/\n\s+/g, ' ')
      expect(out).toMatch(/The notary is not answering \(.*\); your node keeps trying\./)
      expect(out).toContain('The notary did not answer for 15 s: this check-in ends.')
      expect(r.out).toMatch(/Check in again soon:\n {2}(npx )?spaceships spaaace join @\S+\/invite --check-in\n$/)
      // The host's process holds its game: a second process on it is refused before it opens a
      // file (two would each sign at the places the other signs: a fork, S-80).
      const second = await cli(
        ['spaaace', 'join', `@${inv}`, '--identity', join(base, 'a.identity'), '--check-in'],
        {},
        { env: env('a') },
      )
      expect(second.err).toMatch(
        /^spaceships spaaace join: game \S+ is open in another process \(pid \d+ on \S+\); finish or stop that one first/,
      )
      expect(second.code).toBe(64)
    } finally {
      // Killed whatever the checks found: a failed expectation must not leave the host running.
      host.child.kill('SIGKILL')
      await host.exit
    }
  }, 90_000)

  it('a reveal window too short to meet by checking in by hand is said to be so, with what missing it costs (S-62)', () => {
    expect(revealWindowWarning(11_000)).toBe(
      ' That window is only 11 s: a check-in by hand is likely to miss it, and orders not revealed are withheld and fined (S-62). Keep your node running (join without --check-in) to reveal on time.',
    )
    expect(revealWindowWarning(3_600_000)).toBe('')
  })
})

/**
 * What the person's screen tells of tick 1 whose `submissions` are those given (the person is p1),
 * its node having signed the envelopes `signed` says; continuation lines joined.
 */
function screenOfTick(
  submissions: Parameters<typeof playTick>[1],
  signed: (type: 'commit' | 'reveal', t: number) => boolean,
): string {
  const outcome = playTick(genesis(3), submissions)
  const decision = { ticks: [{ t: 1, outcome }] } as unknown as WitnessedDecision
  let out = ''
  const s = witnessedScreen({ stdout: (t: string) => (out += t) } as unknown as CliIo, 0, [
    { label: 'you' },
    { label: 'p2' },
    { label: 'p3' },
  ])
  s.ticks(decision, signed)
  return out.replace(/\n\s+/g, ' ')
}

describe('orders signed but not receipted by the commit cut (S-61, SPAAACE-WITNESSED §7.1)', () => {
  it('the person whose node signed them is told why they count as not committed; one who signed nothing is not', () => {
    const none = [{ kind: 'missing' }, { kind: 'missing' }, { kind: 'missing' }] as const
    expect(screenOfTick([...none], () => true)).toContain(
      "Your orders for tick 1 were signed, but the notary did not receipt them by the tick's commit cut (it was not answering, or they reached it late): they count as not committed (S-61).",
    )
    expect(screenOfTick([...none], () => false)).not.toContain('were signed, but')
  })
})

describe('a reveal signed but not receipted by the reveal cut (S-62, SPAAACE-WITNESSED §7.1)', () => {
  it('the person whose node signed it is told the notary was late, not the person; one who revealed nothing is not', () => {
    const subs = [{ kind: 'withheld' }, { kind: 'missing' }, { kind: 'missing' }] as const
    const outcome = playTick(genesis(3), [...subs])
    expect(outcome.events.some((e) => e.kind === 'penalty' && e.cause === 'withheld' && e.player === 0)).toBe(true)
    expect(screenOfTick([...subs], () => true)).toContain(
      "Your reveal for tick 1 was signed, but the notary did not receipt it by the tick's reveal cut (it was not answering, or it reached it late): your orders count as withheld (S-62).",
    )
    expect(screenOfTick([...subs], (type) => type === 'commit')).not.toContain('was signed, but')
  })
})

describe('an invite cut short in copying (the addresses come last)', () => {
  it('is refused as cut off or altered, with what to do, not as "not JSON" alone', () => {
    const invite = formatSpaaaceInvite(sealedGenesis(liveGenesis(3)), [['/ip4/127.0.0.1/tcp/4001'], [], []])
    const cut = parseSpaaaceInvite(invite.slice(0, -7))
    expect(cut).toEqual({
      ok: false,
      reason: 'the addresses are not JSON: the invite looks cut off or altered; copy it whole, or join with @FILE',
    })
    expect(parseSpaaaceInvite(invite).ok).toBe(true)
  })
})
