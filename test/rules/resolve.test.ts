import { describe, expect, it } from 'vitest'
import type { Exchange } from '../../src/games/spaceships/rules/resolve.js'
import { CLASSIC_RULESET } from '../../src/games/spaceships/rules/ruleset.js'
import { SETUP_A, SETUP_B, cell, cells, damaged, game, names, turn } from '../helpers.js'

/** Compact form of exchanges: `Rv1:hit`, `Rv1:hit!Rv1,Rv2` (explosions), `sRv1:ship`, `k:Rv1`. */
function show(exchanges: readonly Exchange[]): string[] {
  return exchanges.map((e) => {
    switch (e.kind) {
      case 'strike':
      case 'beam-strike':
        return `${e.kind === 'beam-strike' ? 'b' : ''}${names([e.target])}:${e.result}${e.explosions.length > 0 ? `!${names(e.explosions).replaceAll(' ', ',')}` : ''}`
      case 'scan':
        return `s${names([e.target])}:${e.result}`
      case 'kamikaze-death':
        return `k:${names([e.cell])}`
    }
  })
}

describe('strikes (2.6.1 §5.2, C-20)', () => {
  it('§5.2.2..§5.2.4: miss on empty space, hit on an undamaged cell, duplicate hit on a destroyed one', () => {
    const r = turn(game(SETUP_A, SETUP_B), 'Rv1 Rz2 Rz2', '')
    expect(show(r.report.players[0].exchanges)).toEqual(['Rv1:miss', 'Rz2:hit', 'Rz2:duplicate-hit'])
  })

  it('§4.4.3: a conventional strike has no effect on the active player', () => {
    const g = game(SETUP_A, SETUP_B)
    const r = turn(g, 'Rz2', '')
    expect(r.game.players[0].destroyed).toEqual(g.players[0].destroyed)
  })

  it('C-20 §8.1.4: a strike on an unfired missile explodes it and its undamaged same-ship face neighbours', () => {
    const g = game(SETUP_A, SETUP_B)
    expect(show(turn(g, 'Oy5', '').report.players[0].exchanges)).toEqual(['Oy5:hit!Oy5,Ox5,Oz5'])
    expect(show(turn(g, 'Ox5', '').report.players[0].exchanges)).toEqual(['Ox5:hit!Ox5,Oy5'])
    // Already destroyed neighbours do not explode again; the missile ship's other cells are spared.
    expect(show(turn(damaged(g, 1, 'Oz5'), 'Oy5', '').report.players[0].exchanges)).toEqual(['Oy5:hit!Oy5,Ox5'])
  })

  it('C-20: explosions never chain, never touch other ships, and a struck fired missile is a plain hit', () => {
    const g = game(SETUP_A, SETUP_B)
    // After Ox5 explodes, Oy5 is destroyed; Oz5 (a missile next to it) does not explode.
    const r = turn(g, 'Ox5 Oz5', '')
    expect(show(r.report.players[0].exchanges)).toEqual(['Ox5:hit!Ox5,Oy5', 'Oz5:hit!Oz5'])
    // B fires Oy5; striking it later is a plain hit.
    const fired = turn(g, '', 'mOy5 Rv1').game
    expect(show(turn(fired, 'Oy5', '').report.players[0].exchanges)).toEqual(['Oy5:hit'])
  })

  it('C-20 §5.3: beam strikes explode missiles too', () => {
    const r = turn(game(SETUP_A, SETUP_B), 'bOx5Oz5', '')
    expect(show(r.report.players[0].exchanges)).toEqual(['bOx5:hit!Ox5,Oy5', 'bOy5:duplicate-hit', 'bOz5:hit!Oz5'])
  })
})

describe('launches before reveal (2.6.1 §8.1.3.2, §4.5.3, C-18)', () => {
  it('C-18: a missile launched this turn is fired when struck: plain hit, no explosion', () => {
    const r = turn(game(SETUP_A, SETUP_B), 'Ox5', 'mOx5 Rv1')
    expect(show(r.report.players[0].exchanges)).toEqual(['Ox5:hit'])
  })

  it('C-18: a kamikaze launch cell is destroyed before reveal: a strike on it is a duplicate hit', () => {
    const g = damaged(game(SETUP_A, SETUP_B), 0, 'Rv5 Rw4 Rx5')
    const r = turn(g, 'kRv4 Gv1', 'Rv4')
    expect(show(r.report.players[1].exchanges)).toEqual(['Rv4:duplicate-hit'])
    expect(show(r.report.players[0].exchanges)).toEqual(['Gv1:hit', 'k:Rv4'])
  })
})

describe('interaction order (2.6.1 §11.7, C-19)', () => {
  it('C-19: beams first (first end, middle, second end), then strikes in record order, then scans, then kamikaze deaths', () => {
    const g = damaged(game(SETUP_A, SETUP_B), 0, 'Rv5 Rw4 Rx5')
    const r = turn(g, 'sRz3 kRv4 Yz1 Rz3 bRz4Rz2', '')
    expect(show(r.report.players[0].exchanges)).toEqual([
      'bRz4:hit',
      'bRz3:hit',
      'bRz2:hit',
      'Yz1:hit',
      'Rz3:duplicate-hit',
      'sRz3:ship-destroyed',
      'k:Rv4',
    ])
  })

  it('§11.7.2.1: which player resolves first never changes a result (mirror game)', () => {
    const g = game(SETUP_A, SETUP_A)
    const r = turn(g, 'Rv1 mBz2 Rv2 sYy3', 'Rv1 mBz2 Rv2 sYy3')
    expect(show(r.report.players[0].exchanges)).toEqual(show(r.report.players[1].exchanges))
  })
})

describe('scans (2.6.1 §8.3.4, C-22)', () => {
  it('C-22: empty, ship or ship-destroyed as of the moment it resolves; never the type', () => {
    const r = turn(game(SETUP_A, SETUP_B), 'sRv1', '')
    expect(show(r.report.players[0].exchanges)).toEqual(['sRv1:empty'])
    expect(show(turn(game(SETUP_A, SETUP_B), 'sRz2', '').report.players[0].exchanges)).toEqual(['sRz2:ship'])
    // After the same player's strikes this turn, and the opponent's kamikaze launches.
    expect(show(turn(game(SETUP_A, SETUP_B), 'sRz2 Rz2', '').report.players[0].exchanges)).toEqual([
      'Rz2:hit',
      'sRz2:ship-destroyed',
    ])
    const g = damaged(game(SETUP_A, SETUP_B), 0, 'Rv5 Rw4 Rx5')
    expect(show(turn(g, 'kRv4 Gv1', 'sRv4').report.players[1].exchanges)).toEqual(['sRv4:ship-destroyed'])
  })

  it('§8.3.4.2: a scan has no effect on either player', () => {
    const g = game(SETUP_A, SETUP_B)
    const r = turn(g, 'sRz2', '')
    expect(r.game.players[1].destroyed).toEqual(g.players[1].destroyed)
  })
})

describe('destruction reports and flashcube data (2.6.1 §2.2.4, §7, C-23, C-24)', () => {
  it('C-23: a ship destroyed this turn is reported with its type and all its cells', () => {
    const r = turn(game(SETUP_A, SETUP_B), 'Yx1 Yx2', '')
    expect(r.report.players[1].destructions).toEqual([
      { ship: 4, type: 'HS', id: undefined, name: 'HS', cells: cells('Yx1 Yx2') },
    ])
    expect(r.report.players[0].destructions).toEqual([])
  })

  it('C-23: own kamikaze launches destroying the last cell count; ships destroyed earlier are not reported again', () => {
    let g = damaged(game(SETUP_A, SETUP_B), 0, 'Rv5 Rw4 Rx5 Rw5 Rx4')
    const r = turn(g, 'kRv4 Gv1', '')
    expect(r.report.players[0].destructions.map((d) => d.name)).toEqual(['KC'])
    g = r.game
    expect(turn(g, '', 'Rv4').report.players[0].destructions).toEqual([])
  })

  it("C-24: the opponent gives flashcube data for its own cells at the destroyed ship's coordinates, end of turn", () => {
    // B destroys A's flying saucer Bv1 Bv2 Bw1 Bw2, the coordinates of B's own death star; A hits Bv1 this turn.
    const r = turn(game(SETUP_A, SETUP_B), 'Bv1', 'Bv1 Bv2 Bw1 Bw2')
    expect(r.report.players[0].destructions.map((d) => d.name)).toEqual(['FS'])
    expect(r.report.players[1].flashcube).toEqual([
      [
        { cell: cell('Bv1'), kind: 'ship', destroyed: true, type: 'DS', id: undefined, name: 'DS' },
        { cell: cell('Bv2'), kind: 'ship', destroyed: false, type: 'DS', id: undefined, name: 'DS' },
        { cell: cell('Bw1'), kind: 'ship', destroyed: false, type: 'DS', id: undefined, name: 'DS' },
        { cell: cell('Bw2'), kind: 'ship', destroyed: false, type: 'DS', id: undefined, name: 'DS' },
      ],
    ])
    // And empty space answers `empty` (A destroys B's HS at Yx1 Yx2, where A has nothing).
    const r2 = turn(game(SETUP_A, SETUP_B), 'Yx1 Yx2', '')
    expect(r2.report.players[0].flashcube).toEqual([
      [
        { cell: cell('Yx1'), kind: 'empty' },
        { cell: cell('Yx2'), kind: 'empty' },
      ],
    ])
  })
})

describe('classic resolution (classic §4.4.3, §5.1.3, §6.6.3)', () => {
  const CLASSIC =
    'DS Rv1 Rv2 Rw1 Rw2 Ov1 Ov2 Ow1 Ow2\nKC Rv4 Rv5 Rw4 Rw5 Rx4 Rx5\nFS Bv1 Bv2 Bw1 Bw2\nMD Bz1 Bz2 Bz3\nHF Yy3 Yy4'

  it('strikes are judged against the start of the turn: repeated strikes on one cell are all hits', () => {
    const r = turn(game(CLASSIC, CLASSIC, CLASSIC_RULESET), 'Rv1 Rv1', '')
    expect(show(r.report.players[0].exchanges)).toEqual(['Rv1:hit', 'Rv1:hit'])
    expect(show(turn(r.game, 'Rv1', '').report.players[0].exchanges)).toEqual(['Rv1:duplicate-hit'])
  })

  it('missiles still unfired after reveal explode; kamikaze launch cells die at the end of the turn', () => {
    const g = game(CLASSIC, CLASSIC, CLASSIC_RULESET)
    expect(show(turn(g, 'Bz2', '').report.players[0].exchanges)).toEqual(['Bz2:hit!Bz2,Bz1,Bz3'])
    expect(show(turn(g, 'Bz2', 'mBz2 Rv1').report.players[0].exchanges)).toEqual(['Bz2:hit'])
    const beam = turn(g, 'bRv', '')
    expect(show(beam.report.players[0].exchanges)).toEqual([
      'bRv1:hit',
      'bRv2:hit',
      'bRv3:miss',
      'bRv4:hit',
      'bRv5:hit',
    ])
    // Classic reports neither destructions nor flashcube data.
    const hf = turn(g, 'Yy3 Yy4', '')
    expect(hf.report.players[1].destructions).toEqual([])
  })

  it('classic §4.4: a kamikaze launch cell struck in the same turn is still a hit', () => {
    const g = damaged(game(CLASSIC, CLASSIC, CLASSIC_RULESET), 0, 'Yy4')
    const r = turn(g, 'kYy3 Rv1', 'Yy3')
    expect(show(r.report.players[1].exchanges)).toEqual(['Yy3:hit'])
    expect(r.game.players[0].destroyed[cell('Yy3')]).toBe(1)
  })
})
