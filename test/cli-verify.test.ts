/** `spaceships verify` and `spaceships selfplay` from the command line (SPEC §12.8). */
import { describe, expect, test } from 'vitest'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fromBase64url, toBase64url } from '../src/core/commit/bytes.js'
import { cli } from './cli.js'

const vector = (name: string): string => new URL(`../protocol/vectors/${name}`, import.meta.url).pathname

describe('spaceships verify (SPEC §12.8)', () => {
  test('exit 0 and the score for a complete honest game', async () => {
    const r = await cli(['verify', vector('honest-a.transcript')])
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/^complete: the game ended after turn \d+ \(fleet destroyed\); A \d+, B \d+: [AB] wins\n/)
  })

  test('exit 1 naming offender, class, rule, turn and envelope for a proven offence (C-28)', async () => {
    const r = await cli(['verify', vector('illegal-record.transcript')])
    expect(r.code).toBe(1)
    expect(r.out).toMatch(/^offence by B: illegal-record in turn 1 \(C-14 [^)]*\): B forfeits, A wins\n/)
    expect(r.out).toContain("(B's envelope 2)")
    const j = await cli(['verify', '--json', vector('equivocation.transcript')])
    expect(j.code).toBe(1)
    expect(JSON.parse(j.out)).toMatchObject({
      verdict: { status: 'offence', offence: { offender: 'B', class: 'equivocation' }, winner: 'A' },
    })
  })

  test('exit 4 for an abandoned game, naming who abandoned and how (SPEC §12.7 rules 6, 7)', async () => {
    const r = await cli(['verify', vector('abandoned.transcript')])
    expect(r.code).toBe(4)
    expect(r.out).toMatch(/^abandoned by B in turn 2 \(stopped while owing its envelope\): A wins\n/)
    expect(r.out).not.toMatch(/provisional|forfeit/)
    const quit = await cli(['verify', vector('no-reveal-a.transcript')])
    expect(quit.code).toBe(4)
    expect(quit.out).toMatch(
      /^abandoned by B in turn \d+ \(its reveal is not in these files\): A wins, provisionally\n/,
    )
    // SPEC §12.7, last paragraph: every provisional verdict says what it may still become.
    expect(quit.out).toContain(
      "provisional: it rests on B's reveal being absent from these files; B's own file, or its node met again, can turn it into an adjudication, never into an offence",
    )
  })

  test('a stall at a deadline is adjudicated and names who stopped, never a forfeit; deleting the answer makes it provisional (SPEC §12.7 rules 7, 8)', async () => {
    const r = await cli(['verify', vector('stall-b.transcript')])
    expect(r.code).toBe(5)
    expect(r.out).toMatch(
      /^adjudicated \(stopped by B in turn \d+ while A owed its next envelope; scored on the \d+ turns both committed\): A \d+, B \d+: /,
    )
    expect(r.out).not.toContain('forfeit')
    const edited = await cli(['verify', vector('stall-b-answer-deleted.transcript')])
    expect(edited.code).toBe(4)
    expect(edited.out).toMatch(
      /^abandoned by A in turn \d+ \(its reveal is not in these files\): B wins, provisionally\n/,
    )
    const merged = await cli(['verify', vector('stall-b-answer-deleted.transcript'), vector('stall-a.transcript')])
    expect(merged.code).toBe(5)
  })

  test("exit 5 for an adjudication: the quitter's own file, merged, holds its reveal (SPEC §12.7 rule 8)", async () => {
    const r = await cli(['verify', vector('no-reveal-a.transcript'), vector('no-reveal-b.transcript')])
    expect(r.code).toBe(5)
    expect(r.out).toMatch(
      /: one game\nadjudicated \(stopped by A in turn \d+; scored on the \d+ turns both committed\)/,
    )
  })

  test('exit 0 for a resignation, which the resigner loses', async () => {
    const r = await cli(['verify', vector('resignation.transcript')])
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/^resigned: B resigned in turn 1: A wins/)
  })

  test('exit 2 for an unreadable or missing file; exit 3 when the files decide nothing', async () => {
    expect((await cli(['verify', vector('version-1.transcript')])).code).toBe(2)
    expect((await cli(['verify', '/nonexistent/x.transcript'])).code).toBe(2)
    const gap = await cli(['verify', vector('deleted-line.transcript')])
    expect(gap.code).toBe(3)
    expect(gap.out).toMatch(/^incomplete/)
  })

  test('a whole tournament at once: verdicts on several threads equal the one-game verdicts, one line each, the worst exit status', async () => {
    const names = [
      'honest-a.transcript',
      'illegal-record.transcript',
      'abandoned.transcript',
      'equivocation.transcript',
      'false-flashcube-data.transcript',
      'resignation.transcript',
    ]
    const files = names.map(vector)
    const many = await cli(['verify', '--json', '--jobs', '3', ...files])
    expect(many.err).toBe('')
    const parsed = JSON.parse(many.out) as {
      summary: Record<string, number>
      games: { files: string[]; verdict: unknown }[]
    }
    expect(parsed.summary).toEqual({
      games: 6,
      decisions: 6,
      files: 6,
      complete: 1,
      resigned: 1,
      offence: 3,
      abandoned: 1,
      adjudicated: 0,
      incomplete: 0,
      unreadable: 0,
    })
    for (const f of files) {
      const one = await cli(['verify', '--json', f])
      expect(parsed.games.find((g) => g.files.includes(f))?.verdict).toEqual(
        (JSON.parse(one.out) as { verdict: unknown }).verdict,
      )
    }
    // Any offence outranks an abandonment; an unreadable file outranks both.
    expect(many.code).toBe(1)
    const text = await cli([
      'verify',
      '--jobs',
      '2',
      vector('honest-a.transcript'),
      vector('abandoned.transcript'),
      '/nonexistent/x.transcript',
    ])
    expect(text.code).toBe(2)
    const lines = text.out.split('\n')
    expect(lines).toHaveLength(5)
    for (const want of [
      /honest-a\.transcript: complete: the game ended after turn \d+/,
      /abandoned\.transcript: abandoned by B in turn 2/,
      /x\.transcript: unreadable: cannot read \/nonexistent\/x\.transcript: no such file or directory$/,
    ])
      expect(
        lines.some((l) => want.test(l)),
        String(want),
      ).toBe(true)
    expect(lines[3]).toBe(
      '2 games in 3 files: 1 complete, 0 resigned, 0 with an offence, 1 abandoned, 0 adjudicated, 0 incomplete, 1 unreadable',
    )
    // A file that cannot be read is of no game: counted as unreadable, not as a game.
    const json = await cli(['verify', '--json', vector('honest-a.transcript'), '/nonexistent/x.transcript'])
    expect((JSON.parse(json.out) as { summary: Record<string, number> }).summary).toMatchObject({
      games: 1,
      decisions: 2,
      unreadable: 1,
    })
    // Both players' files of one game are one game; --separate decides each file alone.
    const pair = await cli(['verify', '--json', vector('deleted-line.transcript'), vector('honest-b.transcript')])
    expect((JSON.parse(pair.out) as { verdict: { status: string } }).verdict.status).toBe('complete')
    const apart = await cli([
      'verify',
      '--json',
      '--separate',
      vector('deleted-line.transcript'),
      vector('honest-b.transcript'),
    ])
    // Two decisions of one game: counted as one game (the summary says how many files were decided).
    expect((JSON.parse(apart.out) as { summary: Record<string, number> }).summary).toMatchObject({
      games: 1,
      decisions: 2,
      complete: 1,
      incomplete: 1,
    })
    const apartText = await cli([
      'verify',
      '--separate',
      vector('deleted-line.transcript'),
      vector('honest-b.transcript'),
    ])
    expect(apartText.out.split('\n')[2]).toBe(
      '2 files decided one by one (1 game): 1 complete, 0 resigned, 0 with an offence, 0 abandoned, 0 adjudicated, 1 incomplete, 0 unreadable',
    )
    expect((await cli(['verify', '--jobs', '0', vector('honest-a.transcript')])).code).toBe(64)
  })

  test('SPEC §12.1, §12.8: a copy whose hello line was altered, verified with the intact file, is one game decided from the intact file', async () => {
    const text = await readFile(vector('honest-a.transcript'), 'utf8')
    const rows = text.split('\n')
    // Line 3 is B's hello (A's is line 2): one byte of its nonce changed by someone without B's key.
    const hello = fromBase64url(rows[2] ?? '') ?? new Uint8Array()
    expect([hello[1], hello[2], hello[3]]).toEqual([1, 0, 0])
    hello[80] = (hello[80] ?? 0) ^ 1
    const edited = [...rows.slice(0, 2), toBase64url(hello), ...rows.slice(3)].join('\n')
    const intact = await cli(['verify', vector('honest-b.transcript')])
    const r = await cli(['verify', 'edited.transcript', vector('honest-b.transcript')], { 'edited.transcript': edited })
    expect(r.code).toBe(0)
    const [first, second] = r.out.split('\n')
    expect(first).toBe(`edited.transcript + ${vector('honest-b.transcript')}: one game`)
    expect(second).toBe(intact.out.split('\n')[0])
    expect(r.out).toMatch(/edited\.transcript:3: .*not evidence/)
  })

  test('export says how a game ended that its record cannot show: a resignation as a comment the referee reader sees, an unrevealed side in the one line that refuses it (GAME-RECORD.md)', async () => {
    const resigned = await cli(['export', vector('resignation.transcript')])
    expect(resigned.code).toBe(0)
    expect(resigned.out).toContain(
      '# how it ended: resigned: B resigned in turn 1: A wins; the referee, which reads only moves, sees a game that stops before its end',
    )
    const unrevealed = await cli(['export', vector('no-reveal-a.transcript')])
    expect(unrevealed.code).toBe(64)
    expect(unrevealed.err).toMatch(
      /^spaceships: this game ended abandoned by B in turn 2 \(its reveal is not in these files\): A wins, provisionally; a game record needs both players' setups and records, which they reveal, and B never revealed here \(1 of the 2 reveals\)\n$/,
    )
  })

  test('selfplay writes a transcript that verify accepts', async () => {
    const r = await cli(['selfplay', '--seed', 'cli', '--out', 'game.transcript'])
    expect(r.code).toBe(0)
    const v = await cli(['verify', 'game.transcript'], r.files)
    expect(v.code).toBe(0)
    expect(v.out).toBe(r.out.split('\n').slice(1).join('\n'))
  })

  // Found by a new-user pass on Spaaace! files (SPAAACE-PEERS §2, §13).
  describe('Spaaace! files beside others, cut and altered', () => {
    const honest = new URL('../protocol/vectors/spaaace-peers/honest-5.transcript', import.meta.url).pathname
    const dir = mkdtempSync(join(tmpdir(), 'spaaace-verify-'))
    const lines = readFileSync(honest, 'latin1').split('\n')
    const write = (name: string, text: string): string => {
      writeFileSync(join(dir, name), text, 'latin1')
      return join(dir, name)
    }

    test('an empty, missing or non-transcript file beside one is unreadable on its own; the game is still decided', async () => {
      const empty = write('empty', '')
      const r = await cli(['verify', honest, empty, join(dir, 'missing'), write('junk', 'hello\n')])
      expect(r.code).toBe(2)
      // The report wraps at 80 columns: read as one line.
      const out = r.out.replace(/\s+/g, ' ')
      expect(out).toContain('Decided from the evidence (§5): complete')
      expect(out).toContain(
        `${empty}: unreadable: an empty file; a transcript starts with "spaceships-transcript 4" (Spaceships) or`,
      )
      expect(out).toContain(`${join(dir, 'missing')}: unreadable: no such file or directory`)
      expect(out).toContain('the first line must be "spaceships-transcript 4" (Spaceships) or')
      // A Spaceships transcript beside it is still a usage error: two verifiers, two runs.
      const mixed = await cli(['verify', honest, vector('honest-a.transcript')])
      expect(mixed.code).toBe(64)
      // Alone, an empty file names both first lines too.
      expect((await cli(['verify', empty])).out).toContain('(a Spaaace! transcript starts with "spaaace-transcript 1")')
    })

    test('a Spaaace! game of this machine is verified by its id, as spaaace games prints it', async () => {
      const state = mkdtempSync(join(tmpdir(), 'spaaace-state-'))
      const game = join(state, 'spaceships', 'spaaace', 'tfgSBqNXIrql2fPN')
      mkdirSync(game, { recursive: true })
      writeFileSync(join(game, 'p2.transcript'), readFileSync(honest))
      const r = await cli(['verify', 'tfgSBqNX'], {}, { env: { XDG_STATE_HOME: state, NO_COLOR: '1' } })
      expect(r.code).toBe(0)
      expect(r.out).toContain(`Spaaace! game tfgSBqNXIrql2fPN, 5 players, from`)
      expect(r.out.replace(/\s+/g, ' ')).toContain('Decided from the evidence (§5): complete')
    })

    test("a line set aside is named by one line number, the file's", async () => {
      const last = lines.length - 2
      const cut = [...lines]
      cut[last] = (cut[last] ?? '').slice(0, 5) + '*'
      const r = await cli(['verify', write('cut.t', cut.join('\n'))])
      expect(r.out.replace(/\s+/g, ' ')).toContain(`line ${last + 1}: wire.base64 at line ${last + 1} (`)
    })

    test('an altered envelope is said to be unauthenticated, not left out in silence', async () => {
      const last = lines.length - 2
      const altered = [...lines]
      const l = altered[last] ?? ''
      const m = Math.floor(l.length / 2)
      altered[last] = l.slice(0, m) + (l[m] === 'A' ? 'B' : 'A') + l.slice(m + 1)
      const r = await cli(['verify', write('altered.t', altered.join('\n'))])
      expect(r.out).toMatch(/1 envelope\(s\) no valid signature authenticates \(altered or forged\), not used/)
      expect((await cli(['verify', honest])).out).not.toContain('no valid signature')
    })
  })
})
