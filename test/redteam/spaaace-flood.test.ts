/**
 * Red team, Spaaace! among peers: floods (protocol/SPAAACE-PEERS.md §14 vector 14). A peer that
 * relays thousands of frames that are garbage, forged or another game's gets nothing kept and
 * nothing forwarded: a node drops what it holds before checking anything, and authenticates
 * before it persists or forwards (§8 Receive, SPEC §5.4). A player that signs far more envelopes
 * than a tick allows gets those beyond `2 + SEQ_PER_TICK · t_e` treated as not evidence: not
 * kept, not forwarded (§4.2, §8, §10). Either way the honest nodes finish on time, agree, and
 * their transcripts stay about as small as an honest game's (§10: about 1 KB per player per tick).
 */
import { describe, expect, it } from 'vitest'
import { sha256 } from '../../src/core/commit/hash.js'
import { seededSecrets } from '../../src/core/commit/secrets.js'
import { envelopeFrame, resumeFrame, wantFrame } from '../../src/core/mesh/frames.js'
import type { MeshNode } from '../../src/core/mesh/node.js'
import { MAX_FRAME, withinSeqBound } from '../../src/games/spaaace/peers/domain.js'
import { sealEnvelope } from '../../src/games/spaaace/peers/envelope.js'
import {
  type CheatContext,
  type RedTeamGame,
  label,
  readOrThrow,
  redTeamGame,
  secureOutcome,
  timesOf,
} from './spaaace-helpers.js'

const CHEATER = 4
const TICKS = 3
/** Frames the relay injects into each honest peer's link, per burst. */
const BURST = 1000

/** An honest file's envelope lines, read. */
function linesOf(g: RedTeamGame, seat: number) {
  return (g.result.transcripts[seat] ?? '')
    .trim()
    .split('\n')
    .slice(2)
    .map((l) => readOrThrow(Buffer.from(l, 'base64url'), g.genesis))
}

/** §10: an honest file is about 1 KB per player per tick; allow the accepts, seeds and fork parts twice over. */
function withinHonestSize(g: RedTeamGame): void {
  const players = g.genesis.genesis.keys.length
  for (const i of g.honest) {
    const bytes = (g.result.transcripts[i] ?? '').length
    expect(bytes, `${label(i)}'s transcript bytes`).toBeLessThanOrEqual(2 * 1024 * players * (TICKS + 1))
  }
}

function flip(bytes: Uint8Array, at: number, mask: number): Uint8Array {
  const out = Uint8Array.from(bytes)
  out[at] = (out[at] ?? 0) ^ mask
  return out
}

/** Garbage of every kind a relay can send, built from what the cheater's own mesh holds. */
function garbage(ctx: CheatContext, mesh: MeshNode, k: number): Uint8Array[] {
  const rng = seededSecrets(`flood/${k}`)
  const held = mesh.store.held().map((s) => s.envelope.bytes)
  const out: Uint8Array[] = []
  for (let j = 0; j < BURST; j++) {
    const pick = held[j % Math.max(1, held.length)] ?? new Uint8Array(200)
    switch (j % 8) {
      case 0: // random bytes
        out.push(rng.bytes(1 + (j % 300)))
        break
      case 1: {
        // an envelope of another player with a flipped signature byte (same hash, §4.1)
        out.push(envelopeFrame(flip(pick, pick.length - 1 - (j % 64), 0x01)))
        break
      }
      case 2: {
        // a flipped body byte: another hash, no valid signature
        out.push(envelopeFrame(flip(pick, 70 + (j % Math.max(1, pick.length - 140)), 0x80)))
        break
      }
      case 3: {
        // another game's envelope, validly signed by the cheater's key
        const other = sha256(rng.bytes(32))
        out.push(
          envelopeFrame(
            sealEnvelope(ctx.keys, {
              author: ctx.self,
              seq: 0,
              game: other,
              prev: other,
              heads: [],
              parts: [{ type: 'accept' }],
            }).bytes,
          ),
        )
        break
      }
      case 4: // a frame beyond MAX_FRAME
        out.push(new Uint8Array(MAX_FRAME + 1 + (j % 17)))
        break
      case 5: // wants for envelopes nobody holds
        out.push(wantFrame({ author: j % 5, seq: j % 40, hash: rng.bytes(32) }))
        break
      case 6: // repeated resume frames claiming nothing held
        out.push(resumeFrame([0, 0, 0, 0, 0]))
        break
      default: // unknown frame types and empty frames
        out.push(j % 16 === 7 ? new Uint8Array(0) : Uint8Array.of(0x40 + (j % 64), ...rng.bytes(j % 40)))
    }
  }
  return out
}

describe('red team: relayed floods (§4.2, §8, §10, SPEC §5.4)', () => {
  it('p5 relays 12,000 garbage, forged and foreign frames to every honest peer: none kept or forwarded, the game completes, the files stay small', async () => {
    let bursts = 0
    let injected = 0
    const g = await redTeamGame({
      seed: 'rt-relay-flood',
      ticks: TICKS,
      cheaters: {
        [CHEATER]: {
          publish(bytes, mesh, ctx) {
            mesh.publish(bytes)
            if (bursts > 0) return
            bursts = 1
            // Three bursts: after the accepts, just before tick 1's commit cut, just before tick 2's.
            const at = [timesOf(ctx, 1).start + 200, timesOf(ctx, 1).commitCut - 300, timesOf(ctx, 2).commitCut - 300]
            for (const [k, t] of at.entries())
              void ctx.clock.sleep(t - ctx.clock.now()).then(() => {
                for (const to of [0, 1, 2, 3])
                  for (const f of garbage(ctx, mesh, k * 10 + to)) {
                    ctx.frameTo(to, f)
                    injected++
                  }
              })
          },
        },
      },
    })
    expect(injected).toBe(3 * 4 * BURST)
    // The cheater plays honestly otherwise: no offence, its orders count.
    secureOutcome(g, {
      end: 'complete',
      offences: { [CHEATER]: [] },
      submissions: { [CHEATER]: { 1: 'orders', 2: 'orders' } },
      settledTo: TICKS,
    })
    for (const i of g.honest) {
      // Nothing unauthenticated or foreign was persisted: every line of the file is authenticated evidence.
      const [v] = [g.result.transcripts[i] ?? ''].map((text) => text.trim().split('\n').length)
      const d = g.result.peers[i]?.decision()
      expect(d?.unauthenticated, label(i)).toEqual([])
      expect(v, `${label(i)}: lines`).toBe(2 + (g.result.meshes[i]?.store.held().length ?? 0))
      const drops = g.result.meshes[i]?.drops
      expect(drops?.get('unauthenticated') ?? 0, `${label(i)}: forged envelopes dropped`).toBeGreaterThan(0)
      // What an honest node forwarded is only what it held (the mesh sends nothing it did not keep).
      const forwarded = g.result.meshes[i]?.traffic.sentByCause.get('forward')?.frames ?? 0
      expect(forwarded, `${label(i)}: forwards`).toBeLessThan(4 * (g.result.meshes[i]?.store.held().length ?? 0) + 1)
    }
    withinHonestSize(g)
  })

  /** p5's chain goes on from its accept with 50 votes that the game cannot start (admissible at t_e = 0, in chain order): seq 1..50, against a bound of 2 + 12·t_e. */
  async function seqFlood(): Promise<{ g: RedTeamGame; extra: string[] }> {
    const extra: string[] = []
    const g = await redTeamGame({
      seed: 'rt-seq-flood',
      ticks: TICKS,
      // An honest game of three ticks takes well under a second here.
      wallMs: 3000,
      cheaters: {
        [CHEATER]: {
          publish(bytes, mesh, ctx) {
            mesh.publish(bytes)
            const e = ctx.read(bytes)
            if (e.header.seq !== 0 || extra.length > 0) return
            let prev = e.hash
            for (let seq = 1; seq <= 50; seq++) {
              const next = sealEnvelope(ctx.keys, {
                author: ctx.self,
                seq,
                game: ctx.genesis.game,
                prev,
                heads: [],
                parts: [{ type: 'stop', tick: 0, reason: 'leaving' }],
              })
              extra.push(next.id)
              prev = next.hash
              mesh.publish(next.bytes)
            }
          },
        },
      },
    })
    return { g, extra }
  }

  it('p5 signs 50 envelopes in tick 1: no honest envelope names one beyond 2 + 12·t_e, the honest nodes finish and agree (§4.1, §4.2, §12)', async () => {
    // Found by this test: the honest node named them in its heads (node/named.ts), so each honest
    // envelope after named one that is not evidence, a gap for good in every decider: nothing
    // counted, no vote made a record, the game never ended.
    const { g, extra } = await seqFlood()
    expect(extra).toHaveLength(50)
    secureOutcome(g, { end: 'complete', offences: { [CHEATER]: [] }, settledTo: TICKS })
    for (const i of g.honest) {
      const named = linesOf(g, i)
        .filter((e) => e.header.author === i && e.body.ok)
        .flatMap((e) => (e.body.ok ? e.body.value.heads : []))
        .filter((h) => h.author === CHEATER)
      expect(Math.max(...named.map((h) => h.seq)), `${label(i)}'s heads for p5`).toBeLessThanOrEqual(2)
    }
  })

  // Found by this test: nothing gave the mesh the bound, so it persisted and forwarded all 50 (and
  // a player could sign thousands: the honest files would grow without bound, §10). The mesh now
  // checks it on receipt (`spaaaceWithinBound`), before anything is kept or forwarded.
  it('p5 signs 50 envelopes in tick 1: those beyond the bound are not kept in honest files, which stay small (§8, §10)', async () => {
    const { g } = await seqFlood()
    for (const i of g.honest) {
      const beyond = linesOf(g, i).filter((e) => e.header.author === CHEATER && !withinSeqBound(e.header.seq, 1))
      expect(beyond.length, `${label(i)}: p5's envelopes beyond the bound kept`).toBe(0)
    }
    withinHonestSize(g)
  })
})
