import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { createServer } from 'node:net'
import { formatInvite, parseInvite } from '../src/games/spaceships/net/invite.js'
import { inquirerPrompter } from '../src/games/spaceships/ui/terminal.js'
import { verifyTranscript } from '../src/games/spaceships/verify/verify.js'
import { cli } from './cli.js'
import { partsOf } from './helpers.js'

/** Output read as one text: lines are wrapped to the terminal's width, words whole. */
const flat = (text: string): string => text.replace(/\s+/g, ' ')

function home(): NodeJS.ProcessEnv {
  const d = mkdtempSync(join(tmpdir(), 'spaceships-'))
  return { XDG_CONFIG_HOME: join(d, 'config'), XDG_STATE_HOME: join(d, 'state'), NO_COLOR: '1' }
}

/** A terminal a test types into: waits for a prompt, then sends keys. */
function terminal() {
  const input = new PassThrough()
  const output = new PassThrough()
  let screen = ''
  output.on('data', (d: Buffer) => (screen += d.toString()))
  const seen = async (text: string, from: number): Promise<number> => {
    for (let i = 0; i < 400; i++) {
      const at = screen.indexOf(text, from)
      if (at >= 0) return at + text.length
      await new Promise((r) => setTimeout(r, 25))
    }
    throw new Error(`never prompted "${text}"; screen ends: ${screen.slice(-300)}`)
  }
  // The game's own output and the prompts share one screen, as on a real terminal.
  return {
    prompter: () => inquirerPrompter({ input, output }),
    tap: (t: string) => (screen += t),
    type: async (keys: string) => {
      // Give the prompt time to attach to the input, as a person would.
      await new Promise((r) => setTimeout(r, 150))
      input.write(keys)
    },
    seen,
    screen: () => screen,
  }
}

/**
 * Two people at two terminals, each with a home of its own: A hosts on loopback with `hostArgs`,
 * B joins with `joinArgs` once A's invite is out. Returns both terminals and both commands.
 */
async function twoPeople(hostArgs: readonly string[], joinArgs: readonly string[]) {
  const [hostEnv, joinEnv] = [home(), home()]
  const [a, b] = [terminal(), terminal()]
  const hostFiles: Record<string, string> = {}
  const host = cli(['host', ...hostArgs, '--listen', '/ip4/127.0.0.1/tcp/0', '--invite-file', 'inv.txt'], hostFiles, {
    env: hostEnv,
    prompter: a.prompter,
    tap: a.tap,
  })
  host.catch((e: unknown) => {
    console.error('host failed', e)
  })
  await a.seen('Waiting for them to join', 0)
  const joined = cli(
    ['join', (hostFiles['inv.txt'] ?? '').trim(), '--yes', ...joinArgs],
    {},
    {
      env: joinEnv,
      prompter: b.prompter,
      tap: b.tap,
    },
  )
  joined.catch((e: unknown) => {
    console.error('join failed', e)
  })
  return { hostEnv, joinEnv, a, b, host, joined }
}

/**
 * A host (a person at a terminal) and a joiner (a bot in a process of its own) play turn 1; the
 * joiner's process is killed in turn 2, owing its move; the host moves, then claims at the
 * deadline (SPEC §6.6). Returns the host's finished command and both players' homes.
 */
async function killedJoiner(seed: string): Promise<{
  hostEnv: NodeJS.ProcessEnv
  joinEnv: NodeJS.ProcessEnv
  host: Awaited<ReturnType<typeof cli>>
}> {
  const [hostEnv, joinEnv] = [home(), home()]
  const term = terminal()
  const hostFiles: Record<string, string> = {}
  const terms = ['--turn-seconds', '3', '--reply-seconds', '2', '--max-turns', '5']
  const host = cli(
    ['host', '--random', '--seed', seed, ...terms, '--listen', '/ip4/127.0.0.1/tcp/0', '--invite-file', 'inv.txt'],
    hostFiles,
    { env: hostEnv, prompter: term.prompter, tap: term.tap },
  )
  host.catch((e: unknown) => {
    console.error('host failed', e)
  })
  await term.seen('Waiting for them to join', 0)
  const main = join(import.meta.dirname, '..', 'dist', 'cli', 'main.js')
  const joiner = spawn(process.execPath, [main, 'join', (hostFiles['inv.txt'] ?? '').trim(), '--yes', '--autoplay'], {
    env: { ...process.env, ...joinEnv },
    stdio: 'ignore',
  })
  const gone = new Promise((r) => joiner.on('exit', r))
  let at = await term.seen('Turn 1 record', 0)
  await term.type('-\r')
  at = await term.seen('Sign and send: nothing this turn?', at)
  await term.type('\r')
  // Killed once both setups and a turn are committed: it owes its next move, and never reveals.
  at = await term.seen('Turn 2 record', at)
  joiner.kill('SIGKILL')
  await gone
  await term.type('-\r')
  await term.seen('Sign and send: nothing this turn?', at)
  await term.type('\r')
  return { hostEnv, joinEnv, host: await host }
}

describe('spaceships play, show and id: the terminal game', () => {
  it('play --autoplay: a whole game against the bot over libp2p on loopback; the transcript verifies', async () => {
    const env = home()
    const r = await cli(['play', '--autoplay', '--seed', 'cli-play', '--out', 'g.transcript'], {}, { env })
    expect(r.code, r.err).toBe(0)
    expect(r.out).toContain('over libp2p on loopback')
    expect(r.out).toMatch(
      /The verifier, reading it with no trust in either player:\ncomplete: the game ended after turn \d+/,
    )
    const transcript = r.files['g.transcript'] ?? ''
    expect(verifyTranscript(transcript).status).toBe('complete')
    // Your space and what you learnt, drawn at the end (five grids, at most 100 columns).
    expect(r.out).toContain("Opponent's space (what you know)")
    for (const line of r.out.split('\n')) expect(Array.from(line).length).toBeLessThanOrEqual(100)
    // The identity was created on first use, private to its owner.
    expect(statSync(join(env['XDG_CONFIG_HOME'] ?? '', 'spaceships', 'identity')).mode & 0o777).toBe(0o600)

    const shown = await cli(
      ['show', 'g.transcript', '--as', 'B', '--turn', '3'],
      { 'g.transcript': transcript },
      { env },
    )
    expect(shown.code).toBe(0)
    expect(shown.out).toContain('Game seen by B (the joiner)')
    expect(shown.out).toContain('Turn 3, yours:')
    expect(shown.out).not.toContain('Turn 4, yours:')
    expect(shown.out).toMatch(/complete: the game ended after turn \d+/)
    expect(shown.out).toContain('Their fleet, as they revealed it')
  }, 60_000)

  it('id creates the identity once and then shows the same PeerId', async () => {
    const env = home()
    const first = await cli(['id', '--json'], {}, { env })
    const second = await cli(['id', '--json'], {}, { env })
    const a = JSON.parse(first.out) as { peerId: string; created: boolean }
    const b = JSON.parse(second.out) as { peerId: string; created: boolean }
    expect(a.created).toBe(true)
    expect(b.created).toBe(false)
    expect(b.peerId).toBe(a.peerId)
    expect(a.peerId).toMatch(/^12D3KooW/)
  })

  it('relay starts a circuit-relay-v2 server with an allow-list and reports its addresses', async () => {
    const env = home()
    const r = await cli(
      [
        'relay',
        '--listen',
        '/ip4/127.0.0.1/tcp/0',
        '--allow',
        '12D3KooWJdUcJdPwryb8qs3uBvXBkasD8oRVgqpNwK36kSzYFiDD',
        '--for',
        '1',
        '--json',
      ],
      {},
      { env },
    )
    expect(r.code).toBe(0)
    const info = JSON.parse(r.out) as { peerId: string; addrs: string[]; allow: string[] }
    expect(info.addrs.some((a) => a.startsWith('/ip4/127.0.0.1/tcp/') && a.endsWith(`/p2p/${info.peerId}`))).toBe(true)
    expect(info.allow).toEqual(['12D3KooWJdUcJdPwryb8qs3uBvXBkasD8oRVgqpNwK36kSzYFiDD'])
  })

  it('a host that cannot be reached: the joiner says it is dialling, signs nothing, ends saying so when the reply time is up, and the same game is joined later with an invite that reaches the host (SPEC §6.2)', async () => {
    const [hostEnv, joinEnv] = [home(), home()]
    const hostFiles: Record<string, string> = {}
    const host = cli(
      [
        'host',
        '--autoplay',
        '--reply-seconds',
        '3',
        '--max-turns',
        '1',
        '--listen',
        '/ip4/127.0.0.1/tcp/0',
        '--invite-file',
        'inv.txt',
      ],
      hostFiles,
      { env: hostEnv },
    )
    await expect.poll(() => hostFiles['inv.txt'] ?? '', { timeout: 20_000 }).toMatch(/\S/)
    const real = parseInvite((hostFiles['inv.txt'] ?? '').trim())
    if (!real.ok) throw new Error(real.error.message)
    // The same game at an address where nothing listens (a typo, a port not forwarded).
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const a = s.address()
        s.close(() => {
          resolve(typeof a === 'object' && a !== null ? a.port : 0)
        })
      })
    })
    const wrong = formatInvite({ ...real.value, addrs: [`/ip4/127.0.0.1/tcp/${port}/p2p/${real.value.peer}`] })
    const missed = await cli(['join', wrong, '--yes', '--autoplay'], {}, { env: joinEnv })
    expect(missed.code, missed.err).toBe(69)
    expect(flat(missed.out)).toContain(
      "Could not reach the host's node within 3 s (the terms' reply time): no game began, nothing was signed, and the invite stays valid.",
    )
    expect(missed.err).toMatch(/cannot reach the host yet \(/)
    expect(flat(missed.out)).not.toMatch(/stopped the game|no game: the hellos/)
    // Nothing signed: no envelope in the joiner's transcript, and the game is still to be played.
    const dir = join(joinEnv['XDG_STATE_HOME'] ?? '', 'spaceships', 'games', real.value.id)
    const lines = (() => {
      try {
        return readFileSync(join(dir, 'transcript'), 'utf8')
          .split('\n')
          .slice(1)
          .filter((l) => l !== '').length
      } catch {
        return 0
      }
    })()
    expect(lines).toBe(0)
    expect((await cli(['games'], {}, { env: joinEnv })).out).toContain(
      `unfinished: spaceships resume ${real.value.id.slice(0, 8)}`,
    )
    // The host's right invite, for the same game: joined, played, the same result on both sides.
    const joined = await cli(['join', (hostFiles['inv.txt'] ?? '').trim(), '--yes', '--autoplay'], {}, { env: joinEnv })
    const hosted = await host
    expect(joined.code, joined.err).toBe(0)
    expect(hosted.code, hosted.err).toBe(0)
    expect(joined.err).toContain(`resuming game ${real.value.id}`)
  }, 60_000)

  it('join refuses an unusable invite with the field and the reason (SPEC §2.3)', async () => {
    const env = home()
    const r = await cli(['join', 'spaceships3.bm90IGpzb24', '--yes'], {}, { env })
    expect(r.code).toBe(64)
    expect(r.err).toContain('that invite is not usable: invite: not JSON inside')
    const wrong = await cli(['join', 'hello', '--yes'], {}, { env })
    expect(wrong.err).toContain('an invite starts with "spaceships4."')
    // An invite of protocol version 1 is named as such, not as garbage.
    const old = await cli(['join', 'spaceships1.bm90IGpzb24', '--yes'], {}, { env })
    expect(old.code).toBe(64)
    expect(old.err).toContain('an invite of protocol version 1; this node speaks versions 3 and 4')
  })

  it('the terminal game, driven by typed input: help, an illegal record refused with its rule, a confirmation refused then accepted, an empty line refused, - for nothing, the end screen', async () => {
    const env = home()
    const term = terminal()
    const game = cli(
      ['play', '--max-turns', '3', '--seed', 'typed', '--out', 'typed.transcript'],
      {},
      { env, prompter: term.prompter, tap: term.tap },
    )
    game.catch((e: unknown) => {
      console.error('game failed', e)
    })
    let at = await term.seen('Your setup', 0)
    await term.type('\r')
    at = await term.seen('Turn 1. You may:', at)
    // The status panel: who you are, against whom, materiel on both sides.
    // The bot's setup may come after the panel: the move then has its whole time, from when it arrives.
    expect(term.screen()).toMatch(
      /Turn 1\. You are A \(the host\) against the \w+ bot; \d+:\d\d (left for this move|for this move, from when your\s+opponent's\s+move\s+arrives)\./,
    )
    expect(term.screen()).toMatch(/You: (\d+) of \1 ship cells intact; afloat DS KC \w\w MD \w\w\./)
    await term.type('?\r')
    at = await term.seen('How to play', at)
    at = await term.seen('Turn 1 record', at)
    await term.type('Rv1 Rv1 Rv1 Rv1 Rv1 Rv1 Rv1 Rv1 Rv1 Rv1 Rv1 Rv1 Rv1 Rv1 Rv1 Rv1\r')
    at = await term.seen('but the pool holds', at)
    // The rule broken is named, and the fix is plain: fewer strikes.
    expect(term.screen()).toMatch(/16 strikes: 16 conventional strikes but the pool holds \d+ \(C-12 C-17 §4\.4\.1\)/)
    await term.type('\u0015'.repeat(1) + '\u007f'.repeat(80) + 'Rv1\r')
    at = await term.seen('Sign and send: strike Rv1?', at)
    // Refused: nothing is signed, and the prompt comes back.
    await term.type('n\r')
    at = await term.seen('Turn 1 record', at)
    await term.type('Rv1\r')
    at = await term.seen('Sign and send: strike Rv1?', at)
    await term.type('\r')
    at = await term.seen('Turn 2. You may:', at)
    await term.type('\r')
    at = await term.seen('type - to do nothing this turn', at)
    await term.type('Ow2 Bz5\r')
    at = await term.seen('Sign and send: strike Ow2; strike Bz5?', at)
    await term.type('\r')
    at = await term.seen('Turn 3. You may:', at)
    await term.type('-\r')
    await term.seen('Sign and send: nothing this turn?', at)
    await term.type('\r')
    const r = await game
    expect(r.code, r.err + r.out.slice(-500)).toBe(0)
    const reveal = partsOf(r.files['typed.transcript'] ?? '', 'A', 'reveal')[0]
    expect(reveal?.records).toEqual(['Rv1', 'Ow2 Bz5', ''])
    expect(r.out).toContain('Turn 1, yours: Rv1 ')
    // The last turn's results are shown, then the opponent's revealed fleet and the result in words.
    expect(r.out).toContain('Turn 3, yours: no strikes or scans')
    // The game ends with turn 3 (--max-turns, SPEC §6.4): no panel or prompt for a turn 4 flashes up.
    expect(term.screen()).not.toContain('Turn 4')
    expect(r.out).toContain('Their fleet, as they revealed it')
    expect(r.out).toMatch(/\n(You win \d+-\d+\.|You lose \d+-\d+\.|A draw, \d+-\d+\.)\n/)
    for (const line of r.out.split('\n')) expect(Array.from(line).length, line).toBeLessThanOrEqual(100)
    expect(verifyTranscript(r.files['typed.transcript'] ?? '').status).toBe('complete')
  }, 60_000)

  it('a typed setup is checked line by line: a wrong shape and an overlap refused with their rule, undo, an incomplete fleet kept, then played (2.6.1 §3.4 §3.5 §6)', async () => {
    const env = home()
    const term = terminal()
    const game = cli(
      ['play', '--max-turns', '1', '--seed', 'typed-setup', '--out', 's.transcript'],
      {},
      { env, prompter: term.prompter, tap: term.tap },
    )
    game.catch((e: unknown) => {
      console.error('game failed', e)
    })
    let at = await term.seen('Play this setup', 0)
    await term.type('\u001b[B\u001b[B\r')
    at = await term.seen('Ship 1', at)
    // The fleet and every ship's shape are listed before anything is typed.
    expect(term.screen()).toContain(
      'Your fleet: one of DS KC FS MD LS | DS KC FS MD HS | DS KC PC MD LS | DS KC PC MD HS.',
    )
    expect(term.screen()).toContain('KC kill cruiser: 6 cells in a 3x2x1 block')
    const clear = '\u007f'.repeat(60)
    await term.type('DS Ow2 Ox2 Ox3 Yw2 Yx2 Yx3 Gx2 Gx3\r')
    at = await term.seen('Ship 2', at)
    await term.type('PC Ry1 Ry2 Ry3 Rz4\r')
    at = await term.seen('§3.5', at)
    await term.type(clear + 'PC Ry1 Ry2 Ry3 Ry4\r')
    at = await term.seen('Ship 3', at)
    await term.type('MD Ry1 Rz1 Rv1\r')
    at = await term.seen('§3.4', at)
    expect(term.screen().slice(at - 200, at)).toMatch(/Ry1 is also in PC/)
    await term.type(clear + 'LS Yz3\r')
    at = await term.seen('Ship 4', at)
    await term.type('undo\r')
    at = await term.seen('Removed: LS Yz3', at)
    await term.type('KC Rv3 Rv4 Ov3 Ov4 Yv3 Yv4\r')
    at = await term.seen('Ship 4', at)
    await term.type('\r')
    at = await term.seen('your 3 ships are kept', at)
    await term.type('MD Rz2 Rz3 Rz4\r')
    at = await term.seen('Ship 5', at)
    await term.type('LS Yz3\r')
    at = await term.seen('Ship 6', at)
    await term.type('\r')
    at = await term.seen('Play this setup?', at)
    await term.type('y\r')
    at = await term.seen('Turn 1 record', at)
    await term.type('-\r')
    await term.seen('Sign and send: nothing this turn?', at)
    await term.type('\r')
    const r = await game
    expect(r.code, r.err).toBe(0)
    const reveal = partsOf(r.files['s.transcript'] ?? '', 'A', 'reveal')[0]
    expect(reveal?.setup.map((ship) => ship.type)).toEqual(['DS', 'KC', 'PC', 'MD', 'LS'])
  }, 60_000)

  it('the clock: a warning before the deadline keeps what was typed; running out of time is said in one plain sentence, and the result follows (SPEC §6.6, §12.7)', async () => {
    const env = home()
    const term = terminal()
    const game = cli(
      ['play', '--random', '--turn-seconds', '4', '--max-turns', '3', '--seed', 'clock', '--out', 'c.transcript'],
      {},
      { env, prompter: term.prompter, tap: term.tap },
    )
    game.catch((e: unknown) => {
      console.error('game failed', e)
    })
    let at = await term.seen('Turn 1 record', 0)
    expect(term.screen()).toMatch(/0:0[34] (left for this move|for this move, from when)/)
    await term.type('Rv')
    at = await term.seen('Hurry: 0:0', at)
    // No warning promises a result the rules do not give (SPEC §12.7): a stall is adjudicated.
    expect(term.screen().slice(at)).toMatch(
      /^\d left to send turn 1\. After that your opponent may stop the game, and it is adjudicated\s+on the turns both committed\./,
    )
    // The prompt comes back with the text typed so far.
    at = await term.seen('Turn 1 record', at)
    await term.seen('Rv', at)
    const r = await game
    // A side that answers the claim with its reveal is scored on the committed turns (SPEC §12.7, 8).
    expect(r.code, r.err).toBe(5)
    // Lines are wrapped to the terminal's width: read as one text.
    expect(flat(r.out)).toContain(
      'Your opponent stopped the game while your move was due: it is adjudicated on the turns both committed.',
    )
    expect(flat(r.out)).toMatch(
      /Adjudicated: your opponent \(B\) stopped in turn 1 while your move was due, so the game is scored on the 0 turns both committed\. A draw, \d+-\d+\./,
    )
    expect(r.out).not.toMatch(/forfeit|ran out of time/)
    expect(verifyTranscript(r.files['c.transcript'] ?? '')).toMatchObject({
      status: 'adjudicated',
      stoppedBy: ['B'],
      due: 'A',
      stopTurn: 1,
    })
  }, 60_000)

  it('chat between two players at their record prompts: a line each way, never in the transcript (SPEC §2.4)', async () => {
    const {
      a,
      b,
      host,
      joined: join,
    } = await twoPeople(
      ['--random', '--max-turns', '1', '--seed', 'chat-a', '--out', 'a.transcript'],
      ['--random', '--seed', 'chat-b', '--out', 'b.transcript'],
    )
    let atA = await a.seen('Turn 1 record', 0)
    let atB = await b.seen('Turn 1 record', 0)
    await a.type('say good luck\r')
    atA = await a.seen('You said: good luck', atA)
    atB = await b.seen('says: good luck', atB)
    await b.type('say thanks \u202e!\r')
    atB = await b.seen('You said: thanks', atB)
    // A format character that could disguise the line on a terminal is shown as its code point.
    atA = await a.seen('says: thanks <U+202E>!', atA)
    await a.type('-\r')
    await a.seen('Sign and send: nothing this turn?', atA)
    await a.type('\r')
    await b.type('-\r')
    await b.seen('Sign and send: nothing this turn?', atB)
    await b.type('\r')
    const [h, j] = await Promise.all([host, join])
    expect(h.code, h.err).toBe(0)
    expect(j.code, j.err).toBe(0)
    for (const t of [h.files['a.transcript'] ?? '', j.files['b.transcript'] ?? '']) {
      expect(verifyTranscript(t).status).toBe('complete')
      const bytes = t
        .split('\n')
        .slice(1)
        .map((l) => Buffer.from(l, 'base64url').toString('latin1'))
        .join('')
      expect(bytes).not.toContain('good luck')
      expect(bytes).not.toContain('thanks')
    }
  }, 60_000)

  it('a provisional win: the joiner process is killed mid-game; the host claims at the deadline and is told its win is provisional, never a forfeit (SPEC §6.6, §12.7 rule 7)', async () => {
    const { hostEnv, joinEnv, host: r } = await killedJoiner('abandon')
    expect(r.code, r.err + r.out.slice(-1500)).toBe(4)
    expect(flat(r.out)).toContain(
      'You claim the win: your opponent stopped answering and has not revealed. It stands unless their transcript shows they answered in time.',
    )
    expect(r.out).toContain('provisional')
    expect(r.out).not.toContain('forfeit')
    const id = /Saved as game ([0-9a-f]{8})/.exec(r.out)?.[1] ?? ''
    const listed = await cli(['games'], {}, { env: hostEnv })
    expect(listed.out).toContain(`Settle it: spaceships resume ${id}`)

    // The joiner returns; the host's node settles its provisional result (SPEC §12.7): the joiner
    // learns the end from it, answers with its reveal, and both sides then show one result.
    const settling = cli(['resume', id, '--settle', '30'], {}, { env: hostEnv })
    const back = await cli(['resume', id], {}, { env: joinEnv })
    const settled = await settling
    expect(settled.out).toContain(`Game ${id} ended with a provisional result`)
    expect(back.code, back.err + back.out.slice(-800)).toBe(5)
    expect(settled.code, settled.err + settled.out.slice(-800)).toBe(5)
    // On a busy machine the joiner's own deadline may pass before the host's node is up: then
    // both stopped (crossed stops), and still both sides show the same adjudication.
    const verdictLine = (out: string): string =>
      /\nadjudicated \(stopped by A( and B)? in turn \d+[^\n]*/.exec(out)?.[0] ??
      `no adjudication in: ${out.slice(-600)}`
    expect(verdictLine(back.out)).toMatch(/^\nadjudicated/)
    expect(verdictLine(settled.out)).toBe(verdictLine(back.out))
    const [hostRow, joinRow] = await Promise.all([
      cli(['games', '--json'], {}, { env: hostEnv }),
      cli(['games', '--json'], {}, { env: joinEnv }),
    ])
    const row = (out: string): { status: string; state: string; transcript: string } =>
      (JSON.parse(out) as { status: string; state: string; transcript: string }[])[0] ?? {
        status: '',
        state: '',
        transcript: '',
      }
    expect(row(hostRow.out)).toMatchObject({ status: 'adjudicated', state: 'finished' })
    expect(row(joinRow.out)).toMatchObject({ status: 'adjudicated', state: 'finished' })
    const both = await cli(['verify', row(hostRow.out).transcript, row(joinRow.out).transcript])
    expect(both.code).toBe(5)
  }, 90_000)

  it("a host's node listens for its provisional games while it runs another command: a killed joiner that returns learns the end from it, and both sides show one result (SPEC §12.7)", async () => {
    const { hostEnv, joinEnv, host: r } = await killedJoiner('listen-a')
    expect(r.code, r.err + r.out.slice(-800)).toBe(4)
    const id = /Saved as game ([0-9a-f]{8})/.exec(r.out)?.[1] ?? ''
    // The host goes on to host another game (nobody joins it); meanwhile its node serves the
    // provisional one where that game's invite points, and the joiner resumes.
    const next = cli(
      ['host', '--random', '--wait', '12', '--listen', '/ip4/127.0.0.1/tcp/0'],
      {},
      { env: hostEnv, prompter: terminal().prompter },
    )
    const back = await cli(['resume', id], {}, { env: joinEnv })
    const hosted = await next
    expect(hosted.code).toBe(3)
    expect(hosted.err).toMatch(new RegExp(`game ${id} settled with the other node: Adjudicated: `))
    expect(back.code, back.err + back.out.slice(-800)).toBe(5)
    const rows = await Promise.all(
      [hostEnv, joinEnv].map(
        async (env) =>
          JSON.parse((await cli(['games', '--json'], {}, { env })).out) as {
            id: string
            status: string
            state: string
            transcript: string
          }[],
      ),
    )
    const old = rows.map((list) => list.find((g) => g.id.startsWith(id)))
    for (const g of old) expect(g).toMatchObject({ status: 'adjudicated', state: 'finished' })
    const both = await cli(['verify', old[0]?.transcript ?? '', old[1]?.transcript ?? ''])
    expect(both.code).toBe(5)
  }, 90_000)

  it('a provisional game hosted on a fixed port leaves that port to the game the host starts next (its settle waits for games or resume)', async () => {
    const { hostEnv, host: r } = await killedJoiner('port-a')
    expect(r.code).toBe(4)
    const id = /Saved as game ([0-9a-f]{8})/.exec(r.out)?.[1] ?? ''
    const games = join(hostEnv['XDG_STATE_HOME'] ?? '', 'spaceships', 'games')
    const dir = readdirSync(games).find((d) => d.startsWith(id)) ?? ''
    const meta = JSON.parse(readFileSync(join(games, dir, 'meta.json'), 'utf8')) as {
      listen: string[]
      provisional: boolean
    }
    expect(meta.provisional).toBe(true)
    const port = meta.listen[0] ?? ''
    expect(port).toMatch(/\/tcp\/[1-9]\d*$/)
    const next = await cli(
      ['host', '--random', '--wait', '2', '--listen', port],
      {},
      { env: hostEnv, prompter: terminal().prompter },
    )
    // Nobody joins the new game (exit 3); it was never refused its address.
    expect(next.code, next.err).toBe(3)
    expect(next.err).not.toMatch(/cannot be bound|in use/)
  }, 60_000)

  it('a stall between two people is adjudicated on both screens, in both games lists and by verify, naming who stopped and whose move was due, never a forfeit (SPEC §12.7 rule 8, §13.3)', async () => {
    const terms = ['--turn-seconds', '5', '--reply-seconds', '2', '--max-turns', '4']
    const { hostEnv, joinEnv, a, b, host, joined } = await twoPeople(
      ['--random', '--seed', 'stall-a', ...terms],
      ['--random', '--seed', 'stall-b'],
    )
    // The terms screen says how a game ends when someone stops, before anything is accepted.
    expect(a.screen()).toContain('Unwitnessed game: either player can end it at any moment by stopping')
    // Turn 1: both move; turn 2: B moves, A types nothing and lets its deadline pass.
    const atA = await a.seen('Turn 1 record', 0)
    let atB = await b.seen('Turn 1 record', 0)
    await a.type('-\r')
    await a.seen('Sign and send', atA)
    await a.type('\r')
    await b.type('-\r')
    atB = await b.seen('Sign and send', atB)
    await b.type('\r')
    atB = await b.seen('Turn 2 record', atB)
    await b.type('-\r')
    await b.seen('Sign and send', atB)
    await b.type('\r')
    const [h, j] = await Promise.all([host, joined])
    expect(h.code, h.err + h.out.slice(-800)).toBe(5)
    expect(j.code, j.err + j.out.slice(-800)).toBe(5)
    expect(flat(h.out)).toMatch(
      /Adjudicated: your opponent \(B\) stopped in turn 2 while your move was due, so the game is scored on the 1 turn both committed\./,
    )
    expect(flat(j.out)).toMatch(
      /Adjudicated: you stopped in turn 2 while your opponent’s move was due, so the game is scored on the 1 turn both committed\./,
    )
    for (const out of [h.out, j.out, a.screen(), b.screen()]) expect(out).not.toMatch(/forfeit|ran out of time/)
    const rows = await Promise.all(
      [hostEnv, joinEnv].map(
        async (env) =>
          JSON.parse((await cli(['games', '--json'], {}, { env })).out) as {
            status: string
            result: string
            transcript: string
          }[],
      ),
    )
    for (const [row] of rows)
      expect(row).toMatchObject({ status: 'adjudicated', result: expect.stringMatching(/^Adjudicated: /) as string })
    const both = await cli(['verify', '--json', rows[0]?.[0]?.transcript ?? '', rows[1]?.[0]?.transcript ?? ''])
    expect((JSON.parse(both.out) as { verdict: unknown }).verdict).toMatchObject({
      status: 'adjudicated',
      stoppedBy: ['B'],
      due: 'A',
      stopTurn: 2,
      turn: 1,
    })
  }, 60_000)

  it("a resignation reaches the other player's screen at once, while that player is still at its prompt (SPEC §6.5)", async () => {
    const { a, b, host, joined } = await twoPeople(
      ['--random', '--max-turns', '3', '--seed', 'resign-a'],
      ['--random', '--seed', 'resign-b'],
    )
    const atA = await a.seen('Turn 1 record', 0)
    const atB = await b.seen('Turn 1 record', 0)
    await b.type('resign\r')
    await b.seen('Resign this game?', atB)
    await b.type('y\r')
    // A types nothing: its prompt is withdrawn and the resignation shown (before, B's stop waited
    // for A's move, and B then won by adjudication when A stalled).
    await a.seen('Your opponent resigned.', atA)
    const [h, j] = await Promise.all([host, joined])
    expect(h.code, h.err).toBe(0)
    expect(j.code, j.err).toBe(0)
    expect(h.out).toContain('Your opponent resigned: you win.')
    expect(j.out).toContain('You resigned: your opponent wins.')
  }, 60_000)

  it('Ctrl-C at the record prompt: one line naming the game and the command that carries it on; no stop signed (README, Witnessed games)', async () => {
    const { a, b, host, joined } = await twoPeople(
      ['--random', '--max-turns', '3', '--turn-seconds', '3', '--reply-seconds', '2', '--seed', 'left-a'],
      ['--random', '--seed', 'left-b'],
    )
    const atA = await a.seen('Turn 1 record', 0)
    await b.seen('Turn 1 record', 0)
    await b.type('\x03')
    const j = await joined
    expect(j.code).toBe(3)
    expect(j.err.split('\n').at(-2)).toMatch(
      /^spaceships join: stopped at the prompt; no stop was signed, and game ([0-9a-f]{8}) is paused\. Carry it on with spaceships resume \1$/,
    )
    // A moves, waits out B's move and claims (SPEC §6.6): B signed no stop, so A's win rests on the
    // absence of B's envelope and is provisional.
    await a.type('-\r')
    await a.seen('Sign and send: nothing this turn?', atA)
    await a.type('\r')
    const h = await host
    expect(h.out).toContain('abandoned by B in turn 1 (its reveal is not in these files): A wins, provisionally')
  }, 60_000)

  it('the setup deadline: the menu says the time it falls at, the ship prompts a clock that runs; Ctrl-C there pauses the game (SPEC §6.6)', async () => {
    const { a, host, joined } = await twoPeople(
      ['--max-turns', '1', '--turn-seconds', '9', '--reply-seconds', '2', '--seed', 'menu-a'],
      ['--random', '--seed', 'menu-b'],
    )
    let at = await a.seen('Your setup (choose by ', 0)
    expect(a.screen().slice(at, at + 9)).toMatch(/^\d\d:\d\d:\d\d\)$/)
    await a.type('\u001b[B\u001b[B\r')
    at = await a.seen('Ship 1 (', at)
    const clocks = new Set<string>()
    while (clocks.size < 2) {
      const end = await a.seen(' left)', at)
      clocks.add(a.screen().slice(at, end))
      at = await a.seen('Ship 1 (', end)
    }
    expect(
      [...clocks].every((c) => /^0:0\d left\)$/.test(c)),
      [...clocks].join(),
    ).toBe(true)
    await a.type('\x03')
    const h = await host
    expect(h.code).toBe(3)
    expect(h.err).toMatch(
      /spaceships host: stopped at the prompt; no stop was signed, and game [0-9a-f]{8} is paused\./,
    )
    await joined
  }, 60_000)

  it('without a terminal on standard input, play says to use --autoplay instead of waiting at a menu', async () => {
    const r = await cli(['play'], {}, { env: home(), prompter: () => undefined })
    expect(r.code).toBe(64)
    expect(r.err).toBe(
      'spaceships play: standard input is not a terminal, so nobody can type your moves: add --autoplay to let a bot play your side, or run it in a terminal\n',
    )
  })

  it('resign at the record prompt: asked once (no by default), then the game ends and says so', async () => {
    const env = home()
    const term = terminal()
    const game = cli(
      ['play', '--max-turns', '5', '--seed', 'resign', '--random', '--out', 'r.transcript'],
      {},
      { env, prompter: term.prompter, tap: term.tap },
    )
    game.catch((e: unknown) => {
      console.error('game failed', e)
    })
    let at = await term.seen('Turn 1 record', 0)
    await term.type('resign\r')
    at = await term.seen('Resign this game?', at)
    await term.type('\r')
    at = await term.seen('Turn 1 record', at)
    await term.type('resign\r')
    await term.seen('Resign this game?', at)
    await term.type('y\r')
    const r = await game
    expect(r.code, r.err).toBe(0)
    expect(r.out).toContain('You resigned: your opponent wins.')
    expect(verifyTranscript(r.files['r.transcript'] ?? '')).toMatchObject({ status: 'resigned', by: 'A', winner: 'B' })
  }, 60_000)
})
