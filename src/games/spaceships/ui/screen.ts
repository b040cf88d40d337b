/**
 * What the terminal game draws: where (`Screen`), in which colours (picocolors, which honours
 * NO_COLOR and FORCE_COLOR), both spaces as a player sees them, and a turn's results in words.
 */
import pc from 'picocolors'
import type { PlayerState } from '../rules/state.js'
import type { TurnContext } from '../session/strategy.js'
import type { TurnSummary } from '../knowledge/summary.js'
import { opponentKnowledge } from '../knowledge/knowledge.js'
import {
  NO_PAINT,
  OPPONENT_LEGEND,
  OWN_LEGEND,
  type Mark,
  type Paint,
  type Style,
  knowledgeMark,
  ownMarks,
  renderSpace,
  titleWithLegend,
} from './board.js'
import { type ShipNamer, WIRE_NAME } from './panel.js'

/** Where the game is drawn. `paint` is identity when colours are off. */
export interface Screen {
  print(text: string): void
  readonly paint: Paint
  /** The terminal's width, if known: under 92 columns the grids come in two bands. */
  readonly columns?: number
}

/** NO_COLOR (any value) turns colours off; FORCE_COLOR turns them on; otherwise a TTY decides. */
export function colourEnabled(env: NodeJS.ProcessEnv, isTty: boolean): boolean {
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false
  if (env['FORCE_COLOR'] !== undefined && env['FORCE_COLOR'] !== '0') return true
  return isTty
}

export function painter(enabled: boolean): Paint {
  if (!enabled) return NO_PAINT
  const c = pc.createColors(true)
  const styles: Record<Style, (s: string) => string> = {
    plain: (s) => s,
    dim: c.dim,
    ship: c.cyan,
    damage: c.red,
    hit: (s) => c.bold(c.red(s)),
    miss: c.blue,
    scan: c.yellow,
    known: c.magenta,
  }
  return (text, style) => styles[style](text)
}

/**
 * Both spaces as this player sees them after `history`, one under the other, each titled with its
 * legend beside the title (so a turn's screen fits a 50-row terminal).
 */
export function renderBoards(
  ctx: { state: TurnContext['state']; history: readonly TurnSummary[] },
  paint: Paint,
  columns?: number,
): string {
  const space = (title: string, legend: string, marks: readonly Mark[]): string[] =>
    renderSpace(titleWithLegend(title, legend, paint, columns), marks, paint, columns, false)
  return [
    ...space('Your space', OWN_LEGEND, ownMarks(ctx.state)),
    ...space("Opponent's space (what you know)", OPPONENT_LEGEND, opponentKnowledge(ctx.history).map(knowledgeMark)),
  ].join('\n')
}

/**
 * One line per answer the opponent gave last turn, in the order they resolved; `own` names own
 * ships as the setup does (C-05: a lone ship has no number), `theirs` the opponent's
 * (`opponentShipNames`; default: as the wire carries them).
 */
export function turnReport(t: TurnSummary, own?: PlayerState, theirs: ShipNamer = WIRE_NAME): string[] {
  const out: string[] = []
  const strike = (target: string, a: { result: string; explosions: readonly string[] } | undefined): string =>
    a === undefined
      ? `${target} ?`
      : `${target} ${a.result}${a.explosions.length > 1 ? ` (missiles exploded: ${a.explosions.slice(1).join(' ')})` : ''}`
  const mine = [
    ...t.myAspects.beams.flatMap((b, i) => b.map((c, j) => strike(c, t.theirResults.beams[i]?.[j]))),
    ...t.myAspects.strikes.map((c, i) => strike(c, t.theirResults.strikes[i])),
    ...t.myAspects.scans.map((c, i) => `scan ${c} ${t.theirResults.scans[i]?.result ?? '?'}`),
  ]
  // A kamikaze strike's visible aspects are a strike on its target and the death of its launch
  // cell in the striker's own space (2.6.1 §4.5.4, §5.4): both sides are told of both.
  const myDeaths =
    t.myAspects.kamikaze.length === 0
      ? ''
      : `; kamikaze launched from your ${t.myAspects.kamikaze.join(' ')} (that cell is destroyed)`
  out.push(`Turn ${t.turn}, yours: ${mine.length === 0 ? 'no strikes or scans' : mine.join(', ')}${myDeaths}`)
  for (const d of t.theirResults.destroyed)
    out.push(`  You destroyed their ${theirs(d.type, d.id)} at ${d.cells.map((c) => c.cell).join(' ')}`)
  const struck = [...t.theirAspects.beams.flat(), ...t.theirAspects.strikes]
  // Which of them hit a ship of mine, from my own answers when the summary has them.
  const answers = t.myResults === undefined ? undefined : [...t.myResults.beams.flat(), ...t.myResults.strikes]
  const hits =
    answers === undefined ? [] : struck.filter((_, i) => answers[i] !== undefined && answers[i].result !== 'miss')
  const theirDeaths =
    t.theirAspects.kamikaze.length === 0
      ? ''
      : `; kamikaze launched from their ${t.theirAspects.kamikaze.join(' ')} (destroyed in their space)`
  out.push(
    `Turn ${t.turn}, theirs: ${struck.length === 0 ? 'no strikes' : `strikes at ${struck.join(' ')}`}${hits.length > 0 ? ` (hits: ${hits.join(' ')})` : answers === undefined || struck.length === 0 ? '' : ' (all missed)'}${t.theirAspects.scans.length > 0 ? `; scans at ${t.theirAspects.scans.join(' ')}` : ''}${theirDeaths}`,
  )
  for (const r of t.myReports) {
    const name = own?.ships.find((s) => s.type === r.type && s.id === r.id)?.name ?? `${r.type}${r.id}`
    // A ship whose cells include this turn's own kamikaze launch was lost at least partly to it.
    const byOwnKamikaze = r.cells.some((c) => t.myAspects.kamikaze.includes(c.cell))
    out.push(
      byOwnKamikaze
        ? `  Your ${name} is destroyed (one of its cells launched your kamikaze strike)`
        : `  They destroyed your ${name}`,
    )
  }
  return out
}
