/**
 * `spaceships show` on Spaaace! transcripts: the game tick by tick from a seat, in the live
 * screens' words, each tick as the verifier decides it (SPAAACE-PEERS §5, SPAAACE-WITNESSED §7),
 * then the verifier's report and its exit status. It had refused a Spaaace! file, saying its first
 * line must be the one it had.
 */
import { cpSync, mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from './cli.js'

const VECTORS = new URL('../protocol/vectors/', import.meta.url).pathname
const peers = join(VECTORS, 'spaaace-peers', 'honest-5.transcript')
const witnessed = join(VECTORS, 'spaaace-witnessed', 'honest-5-p1.transcript')

describe('show on Spaaace! games', () => {
  it('replays every decided tick from the file’s seat, then the verifier’s report; exit as verify', async () => {
    for (const file of [peers, witnessed]) {
      const r = await cli(['show', file])
      expect(r.code, r.err).toBe(0)
      expect(r.out).toMatch(/^Spaaace! game \S+ seen by p1, 5 players, \d+ ticks? decided/)
      expect(r.out).toMatch(/^tick 1$/m)
      expect(r.out).toMatch(/Standings after tick 1 .*\n {3}1\. you /)
      expect(r.out).toMatch(/Decided from (the evidence|the notary's receipts) .*: complete after tick \d+/)
      expect(r.out).not.toMatch(/must be "spaceships-transcript/)
    }
  })

  it('--as pN shows that seat, --turn one tick; a seat or tick the game lacks is a usage error', async () => {
    const p3 = await cli(['show', peers, '--as', 'p3', '--turn', '1'])
    expect(p3.code, p3.err).toBe(0)
    expect(p3.out).toMatch(/seen by p3/)
    expect(p3.out).toMatch(/1\. you /)
    expect(p3.out).toMatch(/1\. p1 /)
    expect(p3.out).toMatch(/^tick 1$/m)
    expect(p3.out).not.toMatch(/^tick 2$/m)
    const seat = await cli(['show', peers, '--as', 'p9'])
    expect([seat.code, seat.err]).toEqual([64, 'spaceships show: --as p9: this game has seats p1 to p5\n'])
    const role = await cli(['show', peers, '--as', 'B'])
    expect(role.code).toBe(64)
    expect(role.err).toMatch(/--as: a seat of this Spaaace! game, p1 to p5/)
    const tick = await cli(['show', peers, '--turn', '40'])
    expect(tick.code).toBe(64)
    expect(tick.err).toMatch(/--turn: these files decide ticks 1 to \d+/)
  })

  it('takes a Spaaace! game by its id as `spaaace games` prints it', async () => {
    const state = mkdtempSync(join(tmpdir(), 'show-spaaace-'))
    const first = await cli(['show', witnessed])
    // The game's directory is named by its id (spaaaceGameDir); its first 16 characters serve here.
    const id = /Spaaace! game (\S+)/.exec(first.out)?.[1] ?? ''
    const dir = join(state, 'spaceships', 'spaaace', id)
    mkdirSync(dir, { recursive: true })
    cpSync(witnessed, join(dir, 'p1.transcript'))
    const r = await cli(['show', id.slice(0, 8)], {}, { env: { ...process.env, XDG_STATE_HOME: state } })
    expect(r.code, r.err).toBe(0)
    expect(r.out).toMatch(/seen by p1, 5 players/)
  })
})
