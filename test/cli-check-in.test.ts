/**
 * Games across days (PROTOCOL-4.md §4): a witnessed game whose two nodes are killed once it is under
 * way, then played to its end by check-ins alone (`resume --check-in`), each a process that fetches
 * what the other sent from the notary, answers it, plays its move, submits and exits; the two never
 * run at the same time, nor reach each other. Nothing is lost: both files decide the same complete
 * game, and each holds the notary's receipts.
 */
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { gameDir } from '../src/cli/games.js'
import { EXIT } from '../src/cli/io.js'
import { verifyFiles } from '../src/games/spaceships/verify/verify.js'
import { INVITE_PATTERN } from './cli.js'
import { home, lines, start, until } from './processes.js'

const gameOf = (env: NodeJS.ProcessEnv): string =>
  readdirSync(join(env['XDG_STATE_HOME'] ?? '', 'spaceships', 'games')).find((d) => !d.startsWith('.')) ?? ''

describe('a game across days: check-ins and watch through the notary, the nodes never running together (PROTOCOL-4.md §4)', () => {
  it('killed after the setups, the game is finished by alternate check-ins, the notary killed and restarted between moves, a lost transcript fetched back from the notary, and both files agree', async () => {
    const [notaryEnv, hostEnv, joinEnv] = [home(), home(), home()]
    let notary = start(['notary', '--listen', '/ip4/127.0.0.1/tcp/0', '--for', '280'], notaryEnv)
    const address = await until(() => /\/ip4\/127\.0\.0\.1\/tcp\/\d+\/p2p\/\w+/.exec(notary.out())?.[0], 'the notary')
    const port = /tcp\/(\d+)/.exec(address)?.[1] ?? ''
    try {
      const bot = (seed: string): string[] => ['--autoplay', '--bot', 'random', '--seed', seed, '--pace', '300']
      const host = start(
        [
          'host',
          ...bot('across/A'),
          '--listen',
          '/ip4/127.0.0.1/tcp/0',
          '--notary',
          address,
          '--max-turns',
          '2',
          '--turn-seconds',
          '86400',
        ],
        hostEnv,
      )
      const invite = await until(() => INVITE_PATTERN.exec(host.out())?.[0], 'the invite')
      // A move a day: the automatic replies get the move's day too (a player who only checks in
      // answers when it checks in), said on the terms line; no warning.
      expect(host.out()).toContain('1 day per move, 1 day per automatic reply')
      expect(host.err()).not.toMatch(/warning: --reply-seconds/)
      const joiner = start(['join', invite, '--yes', ...bot('across/B')], joinEnv)
      const transcript = (env: NodeJS.ProcessEnv): string => join(gameDir(gameOf(env), env), 'transcript')
      await until(() => (lines(transcript(hostEnv)) > 6 ? true : undefined), 'the setups')
      host.child.kill('SIGKILL')
      joiner.child.kill('SIGKILL')
      await Promise.all([host.exit, joiner.exit])
      const id = gameOf(hostEnv).slice(0, 8)
      const over = { A: false, B: false }
      let recoveredAt = -1
      for (let round = 0; round < 10 && !(over.A && over.B); round++) {
        if (round === 1) {
          // `watch` without a terminal (cron, nohup) on a person's game does the automatic part and
          // says whose move it is; it never refuses for want of a terminal (no move of the person's is
          // asked). B's side made a person's for this one run, then given back to its bot.
          const metaB = join(gameDir(gameOf(joinEnv), joinEnv), 'meta.json')
          const botB = readFileSync(metaB, 'utf8')
          writeFileSync(metaB, JSON.stringify({ ...(JSON.parse(botB) as object), player: { kind: 'human' } }))
          const unattended = start(['watch', '--once'], joinEnv)
          expect(await unattended.exit, unattended.err()).toBe(EXIT.ok)
          expect(unattended.err()).not.toMatch(/not a terminal/)
          expect(unattended.out()).toMatch(new RegExp(`game ${gameOf(joinEnv).slice(0, 8)}: (YOUR MOVE|their move)`))
          writeFileSync(metaB, botB)
          // The notary killed between moves and started again (its key and database kept, on the
          // port the invite names): nothing it receipted is lost (NOTARY.md §8).
          notary.child.kill('SIGKILL')
          await notary.exit
          // A check-in while the notary is down says so and exits 69 (unavailable), never that the
          // player's envelopes are with the notary (PROTOCOL-4.md §4.1: unreceipted, they count for nothing).
          const away = start(['resume', id, '--check-in'], hostEnv)
          expect(await away.exit, away.err()).toBe(EXIT.unavailable)
          expect(away.out().replace(/\s+/g, ' ')).toMatch(/notary could not be reached/)
          expect(away.out().replace(/\s+/g, ' ')).not.toMatch(/are with the notary\. It is your opponent's move/)
          // When to come back, as time left (`games` says it so), not only as an instant.
          expect(away.out().replace(/\s+/g, ' ')).toMatch(
            /Check in again (soon|before your deadline, \S+( \S+)? from now \(\d{4}-|at once: your deadline passed)/,
          )
          // A move it signed and could not deposit: `games` says so, never "their move".
          if (/Not deposited/.test(away.out())) {
            const g = start(['games'], hostEnv)
            await g.exit
            expect(g.out().replace(/\s+/g, ' ')).toMatch(
              new RegExp(`YOUR MOVE IS NOT DEPOSITED .*resume ${id} --check-in`),
            )
          }
          notary = start(['notary', '--listen', `/ip4/127.0.0.1/tcp/${port}`, '--for', '280'], notaryEnv)
          await until(() => (notary.out().includes(address) ? true : undefined), 'the notary again')
        }
        if (round === 2) {
          // The host's transcript lost (deleted): its journal knows what it signed, and the next
          // check-in fetches every envelope back from the notary before it signs anything (SPEC
          // §2.2, PROTOCOL-4.md §6), so it never signs twice at one place.
          rmSync(transcript(hostEnv))
          recoveredAt = round
        }
        for (const [side, env] of [
          ['A', hostEnv],
          ['B', joinEnv],
        ] as const) {
          if (over[side]) continue
          // B is watched instead (`watch --once`: every witnessed game; a bot's moves are made too).
          const c = start(side === 'A' ? ['resume', id, '--check-in'] : ['watch', '--once'], env)
          expect(await c.exit, c.err()).toBe(EXIT.ok)
          if (side === 'A' && round === recoveredAt)
            expect(c.err()).toMatch(/recovered \d+ envelopes from the notary; resuming/)
          if (c.out().includes('Check it yourself')) over[side] = true
          else if (side === 'B') expect(c.out()).toMatch(new RegExp(`game ${id}: their move`))
          else {
            // Wrapped to the screen's width: read as one line.
            expect(c.out().replace(/\s+/g, ' ')).toContain(
              "It is your opponent's move now; once they move, your next step is due within 1 day of it (the notary's time): check in again by then",
            )
            // Right after a check-in this machine knows all the notary held: `games` says whose step is
            // next, with the command that takes one's own.
            const g = start(['games'], env)
            await g.exit
            // With the time left before the other side's deadline, in notary time (PROTOCOL-4.md §4.2),
            // but for the close, which is never claimed.
            // Wrapped to the screen's width (npx's command name is longer): read as one line.
            expect(g.out().replace(/\s+/g, ' ')).toMatch(
              new RegExp(
                `their move as of your last check-in(, [^(]+ left)? \\(witnessed; check in: .*resume ${id} --check-in\\)`,
              ),
            )
          }
        }
      }
      expect(over).toEqual({ A: true, B: true })
      const files = [hostEnv, joinEnv].map((env) => ({
        name: gameOf(env),
        content: readFileSync(transcript(env), 'utf8'),
      }))
      const verdicts = files.map((f) => verifyFiles([f]))
      for (const v of verdicts) {
        expect(v.status).toBe('complete')
        if (v.status !== 'unreadable')
          expect(v.notes.join('\n')).toMatch(/witnessed by notary .* receipts from the genesis/)
      }
      const strip = (v: (typeof verdicts)[number]): unknown =>
        v.status === 'complete' ? [v.scores, v.winner, v.turn] : v.status
      expect(strip(verdicts[0] ?? verdicts[1]!)).toEqual(strip(verdicts[1]!))
    } finally {
      notary.child.kill('SIGTERM')
      await notary.exit
    }
  }, 240_000)
})
