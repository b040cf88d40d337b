/**
 * The honest node of a witnessed game (protocol/SPAAACE-WITNESSED.md §8) against the notary in
 * process, on one virtual clock: seats that check in at the times their plans ask, bots choosing.
 */
import { describe, expect, it } from 'vitest'
import { run } from '../../../../src/cli/main.js'
import type { CliIo } from '../../../../src/cli/io.js'
import { formatPeersTranscript } from '../../../../src/games/spaaace/peers/transcript.js'
import { seededSecrets } from '../../../../src/core/commit/secrets.js'
import { NotaryClient, type Transport } from '../../../../src/core/notary-net/client.js'
import { decodeRequest, encodeResponse } from '../../../../src/core/notary/messages.js'
import { Notary } from '../../../../src/core/notary-service/notary.js'
import { NotaryStore } from '../../../../src/core/notary-service/store.js'
import { VirtualClock } from '../../../../src/core/session/clock.js'
import { randomBot } from '../../../../src/games/spaaace/bot/random.js'
import { sensibleBot } from '../../../../src/games/spaaace/bot/sensible.js'
import { signAccept, tickTimes } from '../../../../src/games/spaaace/peers/genesis.js'
import { seededRng } from '../../../../src/games/spaaace/referee/random.js'
import { botChooser } from '../../../../src/games/spaaace/node/choosers.js'
import { memorySecrets } from '../../../../src/games/spaaace/node/secrets.js'
import { WitnessedSeat, memoryWitnessedStore } from '../../../../src/games/spaaace/node/witnessed.js'
import { SPAAACE_NOTARY_DOMAIN, SPAAACE_NOTARY_PROTOCOL } from '../../../../src/games/spaaace/witness/domain.js'
import { decideFromFiles } from '../../../../src/games/spaaace/witness/evidence.js'
import { spaaaceRegistrar } from '../../../../src/games/spaaace/witness/registrar.js'
import { NOTARY_W, witnessed } from '../witness/fixtures.js'

function inProcess(notary: Notary, key: Uint8Array): Transport {
  return (request) => {
    const q = decodeRequest(request, SPAAACE_NOTARY_PROTOCOL)
    if (!q.ok) return Promise.reject(new Error('a request that does not decode'))
    return Promise.resolve(encodeResponse(notary.handle(q.value, { peer: Buffer.from(key).toString('hex'), key })))
  }
}

describe('witnessed Spaaace! nodes and the notary (SPAAACE-WITNESSED §8)', () => {
  it('three honest nodes checking in when their plans say: every tick final, one state per tick in every file, complete, sealed', async () => {
    const w = witnessed(3, { maxTicks: 4 })
    const clock = new VirtualClock(w.genesis.genesis.timing.start - 30_000)
    const notary = new Notary({
      keys: NOTARY_W,
      registrar: spaaaceRegistrar,
      clock,
      store: new NotaryStore(':memory:'),
    })
    const accepts = w.players.map((k, i) => signAccept(k, w.genesis.game, i).bytes)
    const stores = w.players.map((_, i) => memoryWitnessedStore([accepts[i] as Uint8Array]))
    const seats = w.players.map(
      (keys, i) =>
        new WitnessedSeat({
          genesis: w.genesis,
          keys,
          self: i,
          client: new NotaryClient({
            transport: inProcess(notary, keys.publicKey),
            clock,
            domain: SPAAACE_NOTARY_DOMAIN,
            notaryKey: NOTARY_W.publicKey,
            protocol: SPAAACE_NOTARY_PROTOCOL,
          }),
          store: stores[i] ?? memoryWitnessedStore(),
          secrets: memorySecrets(seededSecrets(`witnessed seat ${i}`)),
          random: seededSecrets(`witnessed deposits ${i}`),
          chooser: botChooser(i === 0 ? sensibleBot() : randomBot, seededRng(`witnessed bot ${i}`)),
          clock,
          accepts: () => accepts,
        }),
    )
    const next = seats.map(() => clock.now())
    const signal = new AbortController().signal
    // Past the horizon (§9.4: the seal comes at the latest at C_{maxTicks+1} + L).
    const end = tickTimes(w.genesis.genesis.timing, 7).start
    for (let k = 0; k < 400; k++) {
      const i = next.indexOf(Math.min(...next))
      const at = next[i] ?? end
      if (at > end) break
      clock.advanceTo(Math.max(clock.now(), at))
      const r = await (seats[i] as WitnessedSeat).checkIn(signal)
      next[i] = r.plan.next ?? end + 1
    }
    const files = stores.map((s) => decideFromFiles(w.genesis, s.receipts(), s.envelopes()))
    for (const f of files) {
      expect(f.log.faults).toEqual([])
      expect(f.decision.offences).toEqual([])
      expect(f.decision.end).toMatchObject({ kind: 'complete', tick: 4, provisional: false })
      expect(f.decision.ticks.map((x) => x.status)).toEqual(['final', 'final', 'final', 'final'])
      expect(f.decision.ticks.map((x) => x.stateHash)).toEqual(files[0]?.decision.ticks.map((x) => x.stateHash))
      expect(f.log.sealed).toBe(true)
    }
    // Every seat played every tick: nobody missing or withheld.
    for (const t of files[0]?.decision.ticks ?? []) expect(t.submissions?.map((s) => s.kind)).not.toContain('missing')

    // `spaceships verify` on each file alone and on all three: the same decision (SPAAACE-WITNESSED §7).
    const texts = new Map(
      stores.map((st, i) => [
        `p${i + 1}.transcript`,
        formatPeersTranscript(w.genesis.bytes, [...st.envelopes(), ...st.receipts()]),
      ]),
    )
    const verify = async (names: string[]): Promise<{ code: number; out: string }> => {
      let out = ''
      const io: CliIo = {
        stdout: (t) => (out += t),
        stderr: (t) => (out += t),
        readFile: (path) => Promise.resolve(new TextEncoder().encode(texts.get(path) ?? '')),
        writeFile: () => Promise.resolve(),
        env: {},
      }
      return { code: await run(['verify', ...names], io), out }
    }
    for (const names of [['p1.transcript'], ['p3.transcript'], [...texts.keys()]]) {
      const v = await verify(names)
      expect(v.code, v.out).toBe(0)
      expect(v.out).toMatch(/witnessed/)
      expect(v.out).toMatch(/tick 4: final/)
      expect(v.out).toMatch(/Decided from the notary's receipts \(SPAAACE-WITNESSED §7\): complete after tick 4: /)
      expect(v.out).not.toMatch(/offence|notary fault/)
    }
  })
})
