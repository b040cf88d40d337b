/**
 * Names over real libp2p streams (SPEC §2.4 kind 6, PROTOCOL-4.md §9): in a version 4 game each
 * node sends its name on the stream it plays on, and the other's session reports it; in a version
 * 3 game neither sends one (a version 3 node of package 0.4 would stop the game on it), so neither
 * side hears a name frame at all, not even one it would drop.
 */
import { describe, expect, it } from 'vitest'
import type { SessionEvent } from '../../src/games/spaceships/session/session.js'
import { NET_TERMS, playOverNet } from './helpers.js'

const TERMS = { ...NET_TERMS, maxTurns: 3 }

/** The name events a side heard, and anything it noted about a name frame. */
const heard = (events: readonly SessionEvent[]): string[] =>
  events.flatMap((e) =>
    e.kind === 'name' ? [`name ${e.name}`] : e.kind === 'ignored' && e.detail.includes('name') ? [e.detail] : [],
  )

describe('names between two nodes (SPEC §2.4 kind 6)', () => {
  it('version 4: each side hears the other’s name; the transcripts are the game’s alone', async () => {
    const seen = { host: [] as SessionEvent[], join: [] as SessionEvent[] }
    const g = await playOverNet('names/v4', {
      terms: TERMS,
      version: 4,
      hostExtra: { name: 'alice', onSessionEvent: (e) => seen.host.push(e) },
      joinExtra: { name: 'Bob B', onSessionEvent: (e) => seen.join.push(e) },
    })
    expect(g.host.verdict.status).toBe('complete')
    expect(heard(seen.host)).toEqual(['name Bob B'])
    expect(heard(seen.join)).toEqual(['name alice'])
    const text = Buffer.concat(g.host.transcript).toString('latin1')
    expect(text.includes('alice') || text.includes('Bob B')).toBe(false)
  })

  it('version 3: no name frame crosses the wire, whatever names are set', async () => {
    const seen = { host: [] as SessionEvent[], join: [] as SessionEvent[] }
    const g = await playOverNet('names/v3', {
      terms: TERMS,
      version: 3,
      hostExtra: { name: 'alice', onSessionEvent: (e) => seen.host.push(e) },
      joinExtra: { name: 'Bob B', onSessionEvent: (e) => seen.join.push(e) },
    })
    expect(g.host.verdict.status).toBe('complete')
    expect(g.host.transcript[0]?.[0]).toBe(3)
    expect(heard(seen.host)).toEqual([])
    expect(heard(seen.join)).toEqual([])
  })
})
