/** Human-readable rendering of an adjudication: turn by turn, then the end or the offence. */
import { describeViolation } from '../rules/errors.js'
import { entitlementLine } from '../rules/entitlement-view.js'
import type { Adjudication, ExchangeView, FlashcubeView, GameView, PlayerName } from './adjudicate.js'

const OTHER: Record<PlayerName, PlayerName> = { A: 'B', B: 'A' }

export function exchangeLine(x: ExchangeView): string {
  switch (x.kind) {
    case 'beam-strike':
    case 'strike': {
      const label = x.kind === 'beam-strike' ? 'beam strike' : 'strike'
      const result = x.result.replace('-', ' ')
      return `${label} ${x.target}: ${result}${x.explosions.length > 0 ? `, missile explosions in ${x.explosions.join(' ')}` : ''}`
    }
    case 'scan':
      return `scan ${x.target}: ${x.result.replace('-', ', ')}`
    case 'kamikaze-death':
      return `kamikaze death ${x.cell}`
  }
}

export function flashcubeLine(list: readonly FlashcubeView[]): string {
  return list
    .map((f) => (f.empty ? `${f.cell} empty` : `${f.cell} ${f.ship} ${f.destroyed ? 'destroyed' : 'undamaged'}`))
    .join(', ')
}

function renderGame(a: Adjudication, g: GameView, out: string[]): void {
  const names = { A: a.players[0], B: a.players[1] }
  const label = (p: PlayerName): string => (names[p] === p ? p : `${p} (${names[p]})`)
  if (a.games.length > 1 || a.match !== 'single')
    out.push(
      `== Game ${g.game}${g.additional[0] + g.additional[1] > 0 ? ` (additional ships: A ${g.additional[0]}, B ${g.additional[1]})` : ''}`,
    )
  if (g.setups !== undefined) {
    for (const [k, p] of [
      [0, 'A'],
      [1, 'B'],
    ] as const) {
      out.push(`Setup ${label(p)}:`)
      for (const line of g.setups[k].split('\n')) out.push(`  ${line}`)
    }
  }
  for (const t of g.turns) {
    out.push('', `Turn ${t.turn}`)
    for (const [k, p] of [
      [0, 'A'],
      [1, 'B'],
    ] as const)
      out.push(`  ${p} may: ${entitlementLine(t.players[k].entitlements)}`)
    for (const [k, p] of [
      [0, 'A'],
      [1, 'B'],
    ] as const)
      out.push(`  ${p} records: ${t.players[k].record === '' ? '(nothing)' : t.players[k].record}`)
    for (const [k, p] of [
      [0, 'A'],
      [1, 'B'],
    ] as const) {
      const pt = t.players[k]
      if (pt.exchanges.length === 0) continue
      out.push(`  ${p} -> ${OTHER[p]}:`)
      for (const x of pt.exchanges) out.push(`    ${exchangeLine(x)}`)
      for (const b of pt.burnouts) out.push(`    ${b}'s beam weapon burns out (§8.2.4)`)
    }
    for (const [k, p] of [
      [0, 'A'],
      [1, 'B'],
    ] as const) {
      const other = t.players[k === 0 ? 1 : 0]
      t.players[k].destroyed.forEach((d, i) => {
        out.push(`  ${p} reports ${d.ship} destroyed: ${d.cells.join(' ')}`)
        const fc = other.flashcube[i]
        if (fc !== undefined) out.push(`    ${OTHER[p]} flashcube: ${flashcubeLine(fc)}`)
      })
    }
  }
  if (g.end !== undefined) {
    const e = g.end
    const why =
      e.reason === 'fleet-destroyed'
        ? `${e.by.map((p) => `${label(p)}'s fleet`).join(' and ')} destroyed`
        : `${e.by.map(label).join(' and ')} had only kamikaze strikes and scans and recorded only scans`
    const result = e.winner === 'draw' ? 'Draw' : `${label(e.winner)} wins`
    out.push(
      '',
      `Game ${g.game} ends after turn ${e.turn}: ${why} (${e.rule}). Score A ${e.scores[0]}, B ${e.scores[1]}. ${result}.`,
    )
  }
}

/** The whole adjudication as text, ending in a one-line verdict. */
export function renderAdjudication(a: Adjudication): string {
  const out: string[] = [`Ruleset: ${a.ruleset}${a.match === 'single' ? '' : `; ${a.match} match`}`]
  for (const g of a.games) {
    out.push('')
    renderGame(a, g, out)
  }
  out.push('')
  switch (a.status) {
    case 'complete': {
      const r = a.result
      if (r !== undefined && (a.games.length > 1 || a.match !== 'single')) {
        out.push(
          `Match complete: overall score A ${r.scores[0]}, B ${r.scores[1]}; ${r.winner === 'draw' ? 'a draw' : `${r.winner} wins`} (§9.4, §9.5).`,
        )
      }
      out.push('LEGAL: every setup and record obeys the rules.')
      break
    }
    case 'unfinished':
      out.push(`LEGAL SO FAR: the record stops before the end of game ${a.games.at(-1)?.game ?? 1}.`)
      break
    case 'malformed':
      out.push(`MALFORMED: ${a.malformed ?? ''}`)
      break
    case 'illegal': {
      const o = a.offence
      if (o === undefined) break
      const where = o.turn === 0 ? 'setup' : `turn ${o.turn}`
      out.push(`ILLEGAL: ${o.kind} by ${o.player}, game ${o.game}, ${where} (line ${o.line}):`)
      for (const v of o.violations) out.push(`  ${describeViolation(v)}`)
      break
    }
  }
  return `${out.join('\n')}\n`
}
