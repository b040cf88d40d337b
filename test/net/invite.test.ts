import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { INVITE_PREFIX, formatInvite, parseInvite, relaysOf } from '../../src/games/spaceships/net/invite.js'
import { PROTOCOL_VERSION } from '../../src/games/spaceships/protocol/messages.js'
import { NET_TERMS, testIdentity } from './helpers.js'

describe('invites (SPEC §2.3)', () => {
  it('round-trip: any id, addresses and terms come back unchanged', async () => {
    const peer = (await testIdentity('invite')).peerId.toString()
    fc.assert(
      fc.property(
        fc.stringMatching(/^[0-9a-f]{32}$/),
        fc.array(fc.integer({ min: 1, max: 65535 }), { maxLength: 16 }),
        fc.integer({ min: 1, max: 1000 }),
        (id, ports, maxTurns) => {
          const invite = {
            id,
            peer,
            addrs: ports.map((p) => `/ip4/127.0.0.1/tcp/${p}/p2p/${peer}`),
            terms: { ...NET_TERMS, maxTurns },
          }
          expect(parseInvite(formatInvite(invite))).toEqual({
            ok: true,
            value: { version: PROTOCOL_VERSION, ...invite },
          })
          // SPEC §2.3: the prefix names the version; a version 3 invite stays a version 3 invite.
          expect(parseInvite(formatInvite({ ...invite, version: 3 }))).toEqual({
            ok: true,
            value: { ...invite, version: 3 },
          })
        },
      ),
    )
  })

  it('deadlines: up to a day in version 3, up to 30 days in version 4 (SPEC §6.1)', () => {
    const invite = { id: '0'.repeat(32), peer: '12D3KooWEyoppNCUx8Yx66oV9fJnriXwCcXwDDUA2kj6vnc6iDEp', addrs: [] }
    const week = { ...NET_TERMS, turnMs: 7 * 86_400_000 }
    expect(parseInvite(formatInvite({ ...invite, version: 4, terms: week })).ok).toBe(true)
    const v3 = parseInvite(formatInvite({ ...invite, version: 3, terms: week }))
    expect(v3.ok ? '' : v3.error.field).toBe('terms.turnMs')
    const unknown = parseInvite('spaceships9.e30')
    expect(unknown.ok ? '' : unknown.error.message).toContain('versions 3 and 4')
  })

  it('hostile text never throws: it is refused with the field at fault', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 300 }),
          fc.string({ maxLength: 300 }).map((s) => INVITE_PREFIX + s),
          fc.jsonValue().map((j) => INVITE_PREFIX + Buffer.from(JSON.stringify(j)).toString('base64url')),
        ),
        (text) => {
          const r = parseInvite(text)
          if (!r.ok) expect(r.error.field.length).toBeGreaterThan(0)
        },
      ),
      { numRuns: 2000 },
    )
  })

  it('names the field and the rule broken', async () => {
    const peer = (await testIdentity('invite')).peerId.toString()
    const enc = (o: unknown): string => INVITE_PREFIX + Buffer.from(JSON.stringify(o)).toString('base64url')
    // An invite carries a single game's terms (SPEC §2.3): no match field.
    const terms: Record<string, unknown> = { ...NET_TERMS }
    delete terms['match']
    const good = { id: 'ab'.repeat(16), peer, addrs: [], terms }
    expect(parseInvite(enc(good))).toMatchObject({ ok: true })
    expect(parseInvite(enc({ ...good, id: 'AB'.repeat(16) }))).toMatchObject({ ok: false, error: { field: 'id' } })
    expect(parseInvite(enc({ ...good, peer: 'QmNotAPeer' }))).toMatchObject({ ok: false, error: { field: 'peer' } })
    expect(parseInvite(enc({ ...good, addrs: ['not a multiaddr'] }))).toMatchObject({
      ok: false,
      error: { field: 'addrs[0]' },
    })
    expect(parseInvite(enc({ ...good, terms: { ...terms, maxTurns: 0 } }))).toMatchObject({
      ok: false,
      error: { field: 'terms.maxTurns' },
    })
    expect(parseInvite(enc({ ...good, terms: NET_TERMS }))).toMatchObject({
      ok: false,
      error: { field: 'terms.match' },
    })
    const v1 = parseInvite('spaceships1.' + Buffer.from(JSON.stringify(good)).toString('base64url'))
    expect(v1.ok ? '' : `${v1.error.field}: ${v1.error.message}`).toMatch(/^invite: an invite of protocol version 1/)
    expect(parseInvite('x'.repeat(5000))).toMatchObject({ ok: false, error: { field: 'invite' } })
  })

  it('finds the relays of circuit addresses, which the joiner must admit', () => {
    expect(
      relaysOf([
        '/ip4/1.2.3.4/tcp/4001/p2p/12D3KooWRelay/p2p-circuit/p2p/12D3KooWHost',
        '/ip4/1.2.3.4/tcp/5/p2p/12D3KooWHost',
      ]),
    ).toEqual(['12D3KooWRelay'])
  })
})
