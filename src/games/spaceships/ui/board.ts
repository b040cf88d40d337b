/**
 * The terminal picture of a game: each 5x5x5 space as five 5x5 grids, one per colour (R O Y G B),
 * rows v..z, columns 1..5 (2.6.1 §11 notation). Own space: ships with damage and fired missiles.
 * The opponent's space: only what this player has learnt (misses, hits, scans, explosions,
 * destruction reports, flashcube data). Pure functions of game data; colour is optional and
 * carries no information the letters do not (NO_COLOR users see the same board).
 */
import { COLOURS, LETTERS, NUMBERS, cellOf } from '../rules/coords.js'
import type { PlayerState } from '../rules/state.js'
import type { Knowledge } from '../knowledge/knowledge.js'

export type Style = 'plain' | 'dim' | 'ship' | 'damage' | 'hit' | 'miss' | 'scan' | 'known'
export interface Mark {
  /** Exactly two characters. */
  readonly text: string
  readonly style: Style
}
export type Paint = (text: string, style: Style) => string

export const NO_PAINT: Paint = (t) => t

const UNKNOWN: Mark = { text: ' ·', style: 'dim' }
const EMPTY: Mark = { text: ' ·', style: 'dim' }

/** Own space: ship type codes; lowercase once destroyed; `^` for a fired missile cell. */
export function ownMarks(state: PlayerState): Mark[] {
  return Array.from(state.shipAt, (ship, cell): Mark => {
    const s = ship < 0 ? undefined : state.ships[ship]
    if (s === undefined) return EMPTY
    if (state.destroyed[cell] === 1) return { text: s.type.toLowerCase(), style: 'damage' }
    if (state.fired[cell] === 1) return { text: `${s.type[0] ?? '?'}^`, style: 'ship' }
    return { text: s.type, style: 'ship' }
  })
}

export function knowledgeMark(k: Knowledge): Mark {
  switch (k.kind) {
    case 'unknown':
      return UNKNOWN
    case 'empty':
      return { text: k.how === 'miss' ? ' o' : ' -', style: 'miss' }
    case 'ship':
      return { text: ' s', style: 'scan' }
    case 'hit':
      return { text: ' X', style: 'hit' }
    case 'explosion':
      return { text: ' *', style: 'hit' }
    case 'destroyed':
      return { text: ' x', style: 'hit' }
    case 'identified':
      return { text: k.destroyed ? k.type.toLowerCase() : k.type, style: k.destroyed ? 'damage' : 'known' }
  }
}

export const OWN_LEGEND = 'DS..LG ship   ds destroyed   M^ fired missile   · empty'
export const OPPONENT_LEGEND =
  'o miss   - empty (scan, flashcube)   s ship (scan)   X hit   x destroyed\n* missile explosion   ds destroyed (report)   DS ship (flashcube)   · unknown'

/** The width of five grids side by side, with the indent. */
export const BOARD_COLUMNS = 92

/** The widest line of text drawn (the narrowest terminal the game is laid out for). */
const TEXT_COLUMNS = 100

/**
 * A space's title with its legend after it on the same line, the legend's items (separated by
 * three spaces or a line break in `legend`) carried on to indented lines as the width requires.
 */
export function titleWithLegend(
  title: string,
  legend: string,
  paint: Paint = NO_PAINT,
  columns = TEXT_COLUMNS,
): string {
  const width = Math.min(TEXT_COLUMNS, columns)
  const lines: string[] = []
  let plain = title
  let shown = title
  for (const item of legend.split(/\n| {3,}/)) {
    if (Array.from(`${plain}   ${item}`).length <= width) {
      plain += `   ${item}`
      shown += paint(`   ${item}`, 'dim')
    } else {
      lines.push(shown)
      plain = `  ${item}`
      shown = paint(plain, 'dim')
    }
  }
  lines.push(shown)
  return lines.join('\n')
}

/**
 * Five grids side by side (92 columns): a title, the colour headings, then rows v..z. On a
 * narrower terminal (`columns` under 92, e.g. 80) the grids come in two bands, R O Y then G B,
 * with a blank line between them unless `bandGap` is false.
 */
export function renderSpace(
  title: string,
  marks: readonly Mark[],
  paint: Paint = NO_PAINT,
  columns = BOARD_COLUMNS,
  bandGap = true,
): string[] {
  const bands =
    columns >= BOARD_COLUMNS
      ? [COLOURS.map((_, c) => c)]
      : [
          [0, 1, 2],
          [3, 4],
        ]
  const lines = [title]
  for (const [b, band] of bands.entries()) {
    if (b > 0 && bandGap) lines.push('')
    lines.push(
      ('  ' + band.map((c) => `${COLOURS[c] ?? '?'} ${NUMBERS.map((n) => ` ${n}`).join(' ')}  `).join('')).trimEnd(),
    )
    for (let l = 0; l < LETTERS.length; l++) {
      const row = band.map((c) => {
        const cells = NUMBERS.map((_, n) => {
          const m = marks[cellOf(c, l, n)] ?? UNKNOWN
          return paint(m.text, m.style)
        })
        return `${LETTERS[l] ?? '?'} ${cells.join(' ')}  `
      })
      lines.push(('  ' + row.join('')).trimEnd())
    }
  }
  return lines
}
