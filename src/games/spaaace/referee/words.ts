/** A words description of a tick, for people reading a referee's run: what each step did (S-70). */
import type { TickEvent, TickOutcome } from '../rules/tick.js'
import type { Battle, PlayerIndex } from '../rules/types.js'

/** The engine's 'not pilotable' means defeated or engaging (S-22, S-23): said so, an engaging ship with full armour is not "unpilotable" to a reader. */
function pilotable(why: string): string {
  return why === 'not pilotable'
    ? 'its ship is not pilotable (defeated or engaging, S-22, S-23)'
    : why === 'target not pilotable'
      ? 'the target is not pilotable (defeated or engaging, S-22, S-23)'
      : why
}

function sentence(e: TickEvent, name: (i: PlayerIndex) => string): string {
  const battle = (b: Battle): string => `${name(b.a)} against ${name(b.b)} (initiated in tick ${b.initiated})`
  switch (e.kind) {
    case 'silent':
      return `${name(e.player)} committed nothing (S-61).`
    case 'malformed':
      return `${name(e.player)}'s order set is malformed: ${e.reason}; it counts as empty, an offence.`
    case 'declare':
      return `${name(e.player)} ${e.made === 'ally' ? 'declares alliance with' : 'breaks its declaration for'} ${name(e.other)}${e.changed ? '' : ' (no change)'} (S-31).`
    case 'repair':
    case 'buy': {
      const what = e.kind === 'repair' ? 'armour' : 'energy'
      if (e.points === 0)
        return `${name(e.player)}'s ${e.kind} ${e.asked} has no effect: ${pilotable(e.why ?? '')} (S-38).`
      const cut = e.points < e.asked ? ` (asked ${e.asked}, cut to ${e.points}: S-38)` : ''
      return `${name(e.player)} ${e.kind === 'repair' ? 'repairs' : 'buys'} ${e.points} ${what}${cut} (${e.kind === 'repair' ? 'S-30' : 'S-32'}).`
    }
    case 'move': {
      const route = [e.from, ...e.entered].join(' -> ')
      const stop = e.why === null ? '' : `, stopping: ${pilotable(e.why)} (S-38)`
      return e.entered.length === 0
        ? `${name(e.player)}'s move ${e.asked.join(' ')} has no effect: ${pilotable(e.why ?? '')} (S-38).`
        : `${name(e.player)} moves ${route}${stop} (S-33).`
    }
    case 'battle': {
      const b = e.battle
      const [sa, sb] = b.spent ?? [0, 0]
      const [ba, bb] = b.bids ?? [0, 0]
      const won = b.winner === null ? 'no winner' : `${name(b.winner)} wins`
      // S-43 said with the win: a winner's fame falling after a won battle had read as a mistake.
      const fame =
        b.winner === null
          ? ''
          : " Fame (S-43): a win over an infamous player raises the winner's by 1, any other win lowers it by 1; the loser's moves one toward 0."
      return `Battle ${battle(b)}: bids ${ba} and ${bb}, spent ${sa} and ${sb}; ${won} (S-42).${fame}`
    }
    case 'unused-bid':
      return `${name(e.player)}'s bid has no battle awaiting it (S-38).`
    case 'penalty':
      return e.cause === 'equivocated'
        ? `${name(e.player)} equivocated: empty orders, bids 0, fame toward 0 (S-80).`
        : `${name(e.player)} ${e.cause === 'withheld' ? 'withheld its orders' : 'revealed orders that do not match its commitment'}: energy ${e.energyLost} lost, fine ${e.fine} coins, fame toward 0 (S-62).`
    case 'attack':
      return e.refused === null
        ? `${name(e.player)} attacks ${name(e.target)} in sector ${e.sector}; the battle awaits bids next tick (S-40).`
        : `${name(e.player)}'s attack on ${name(e.target)} has no effect: ${pilotable(e.refused)} (S-40).`
    case 'claim':
      return e.made
        ? `${name(e.player)} claims the win; it wins in two ticks if it keeps its fame and its ship stays pilotable (S-50).`
        : `${name(e.player)}'s claim has no effect: ${e.why ?? ''} (S-38).`
    case 'removed':
      return `${name(e.player)} is removed for ${e.cause === 'offence' ? 'an offence (S-80)' : 'absence (S-81)'}; its ship is defeated.`
    case 'void':
      return `The battle ${battle(e.battle)} is void: a combatant was removed (S-41).`
    case 'end': {
      const who =
        e.winners.length === 0
          ? 'nobody wins'
          : `${e.winners.map(name).join(', ')} ${e.winners.length === 1 ? 'wins' : 'win together'}`
      const why =
        e.cause === 'claim'
          ? 'by a claim made two ticks ago (S-50)'
          : e.cause === 'last'
            ? 'with fewer than two active players (S-82)'
            : 'by the last tick (S-51)'
      return `The game ends ${why}: ${who}.`
    }
  }
}

/** The tick's events and closing positions, one line each. */
export function describeTick(outcome: TickOutcome, roster: readonly string[]): string {
  const name = (i: PlayerIndex): string => roster[i] ?? ''
  const s = outcome.state
  const lines = [`tick ${s.tick}`]
  for (const e of outcome.events) lines.push(`  ${sentence(e, name)}`)
  if (outcome.events.length === 0) lines.push('  Nothing but income.')
  for (const [i, sh] of s.ships.entries()) {
    const p = s.players[i]
    if (p === undefined) continue
    const status = p.status === 'removed' ? ', removed' : sh.engaging ? ', engaging' : ''
    lines.push(
      `  = ${name(i)}: sector ${sh.sector}, armour ${sh.armour}, energy ${sh.energy}, coins ${p.coins}, fame ${p.fame}${status}`,
    )
  }
  return `${lines.join('\n')}\n`
}
