/**
 * Version 4's witnessed transcript vectors (SPEC §12.7a, §14; PROTOCOL-4.md §4.4): one honest game
 * played with terms naming a test notary, cut after A's turn-1 aspects and results, so that B owes
 * its results (a reply step); each case adds the stops it needs, signed with the players' own keys,
 * and the notary's receipts at chosen times (witnessed-builder.ts). The honest prefix is receipted a
 * second apart from the genesis, so no step is late and `D` of B's step is the last receipt's time +
 * `replyMs` + the whole reserve + `WITNESS_MARGIN`.
 */
import type { Terms } from '../../src/games/spaceships/protocol/messages.js'
import { outageMs } from '../../src/games/spaceships/verify/witnessed.js'
import { Case, W_TERMS, signStop, stageOf, witnessedFile, witnessedPlay } from './witnessed-builder.js'

type Play = (name: string, o: { version?: 3 | 4; terms?: Terms }) => Promise<{ a: string; b: string }>
type Add = (description: string, expect: Record<string, unknown>, named: Record<string, string>) => void

export async function witnessedVectors(play: Play, add: Add): Promise<void> {
  const played = await play('v4-w', { version: 4, terms: W_TERMS })
  const stage = stageOf(witnessedPlay('vector/v4-w', played.a))
  const { play: p, prefix, a3, b2, b4 } = stage

  const lost = new Case(stage)
  lost.claimByA(lost.D + 5_000, lost.D + 5_500)
  add(
    "Witnessed (PROTOCOL-4.md §4.4): B owes its turn-1 results and sends nothing; A's claim request is receipted 5 s after D, then A's claim stop, whose header names the claim receipt. s0 is A's claim, the cut walk leaves B owing, the claim receipt's time is above D: B lost on time (rule 5), final.",
    { status: 'abandoned', how: 'time', by: 'B', winner: 'A', provisional: false, witnessed: { result: 5, final: true } },
    { 'v4-w-lost-on-time.transcript': lost.file() },
  )

  const after = new Case(stage)
  after.claimByA(after.D + 5_000, after.D + 6_000, after.D, (c) => c.receipted(b4, c.D + 5_500))
  add(
    "Witnessed: B's results arrive and are receipted after A's claim receipt and before A's stop. The cut walk admits only envelopes receipted below s0's position (the claim receipt): an owed envelope receipted after the claim never rebuts it. B lost on time (rule 5).",
    { status: 'abandoned', how: 'time', by: 'B', winner: 'A', provisional: false },
    { 'v4-w-late-after-claim.transcript': after.file() },
  )

  const early = new Case(stage)
  early.claimByA(early.D - 5_000, early.D - 4_500, early.D - 20_000)
  add(
    "Witnessed: A's node states a deadline 20 s below the true D and the notary receipts its claim request 5 s before D (no fault of the notary: after the stated deadline). The claim is receipted at or before D: an early claim, a stop of A's own accord, and A loses (rule 8).",
    { status: 'abandoned', how: 'stopped', by: 'A', winner: 'B', provisional: false, witnessed: { result: 8 } },
    { 'v4-w-claim-early.transcript': early.file() },
  )

  const rebut = new Case(stage)
  rebut.receipted(b4, rebut.D + 2_000)
  rebut.claimByA(rebut.D + 5_000, rebut.D + 5_500)
  add(
    "Witnessed: B's results are receipted 2 s after D, late, and A's node claims afterwards all the same (its claim request saw B's receipt). The cut walk admits B's envelope, receipted below the claim, so A owes the next step: a claim by the side that owes, and A loses (rule 8). A late envelope receipted before a claim rebuts it.",
    { status: 'abandoned', how: 'stopped', by: 'A', winner: 'B', provisional: false, witnessed: { result: 8 } },
    { 'v4-w-late-envelope-rebuts.transcript': rebut.file() },
  )

  add(
    "Witnessed: the late-envelope-rebuts game as a file that lacks B's late results, whose receipt (below A's claim) it holds: the receipt proves the envelope was submitted, so it is a gap (rule 2), never B lost on time; B's own file fills it.",
    { status: 'incomplete', reason: 'gap', witnessed: { result: 2 } },
    { 'v4-w-envelope-missing.transcript': witnessedFile(rebut.lines.filter((l) => l !== b4)) },
  )

  const resign = new Case(stage)
  resign.receipted(signStop(p, 'B', 'resignation', prefix, a3), resign.D - 60_000)
  resign.receipted(signStop(p, 'A', 'resignation', prefix, b2), resign.D - 59_000)
  add(
    "Witnessed: both players resign and their stops cross (neither acknowledges the other's); B's is receipted first. Receipts order what crossed: s0 is B's resignation, and B loses (rule 6), not provisionally (version 3 would score the committed turns).",
    { status: 'resigned', by: 'B', winner: 'A', provisional: false, witnessed: { result: 6, final: true } },
    { 'v4-w-resigned.transcript': resign.file() },
  )

  const bare = new Case(stage)
  const stopA = signStop(p, 'A', 'claim', prefix, b2)
  bare.receipted(stopA, bare.D + 5_000)
  bare.receipted(signStop(p, 'B', 'answer', prefix, stopA), bare.D + 6_000)
  add(
    "Witnessed: A stops with a claim after D but never requested a claim receipt; B answers with its reveal. Only a witnessed claim claims: s0 is a stop of A's own accord, and A loses (rule 8), where version 3 would adjudicate.",
    { status: 'abandoned', how: 'stopped', by: 'A', winner: 'B', provisional: false, witnessed: { result: 8 } },
    { 'v4-w-unwitnessed-stop.transcript': bare.file() },
  )

  // The lost-on-time file with B's setup receipt (index 2) deleted: receipt 3 names it.
  const gapped = witnessedFile(lost.lines.filter((l) => l !== lost.log.receipts[2]))
  add(
    "Witnessed: the lost-on-time file with the notary's receipt 2 deleted by someone without a key: a receipt below s0's position is missing, a gap (rule 2), nobody convicted.",
    { status: 'incomplete', reason: 'gap', witnessed: { result: 2 } },
    { 'v4-w-receipt-gap.transcript': gapped },
  )

  const forked = new Case(stage)
  forked.claimByA(forked.D + 5_000, forked.D + 5_500)
  forked.push(forked.log.fork(3, forked.log.timeOf(3) + 1))
  add(
    "Witnessed: the lost-on-time game with a second receipt the notary signed at index 3 (another time), below s0's position: a notary fault, which voids the witnessed decision. Decided as unwitnessed: A claimed and revealed, B's reveal is missing (version 3's rule 7, provisional).",
    { status: 'abandoned', how: 'no-reveal', by: 'B', winner: 'A', provisional: true, witnessed: { final: false } },
    { 'v4-w-notary-fault.transcript': forked.file() },
  )

  const invalid = new Case(stage)
  invalid.claimByA(invalid.D + 5_000, invalid.D + 5_500)
  const three = invalid.log.receipts[3]
  add(
    "Witnessed (NOTARY.md §6 item 3): the lost-on-time game whose receipt 3, in the file, is one the notary signed over a header whose player signature fails (the valid receipt 3 is not held): bytes an honest notary never signs, the notary fault receipt-invalid at index 3, below s0's position and at the gap it leaves, which voids the witnessed decision. Decided as unwitnessed: A claimed and revealed, B's reveal is missing (version 3's rule 7, provisional); never B lost on time.",
    { status: 'abandoned', how: 'no-reveal', by: 'B', winner: 'A', provisional: true, witnessed: { final: false } },
    {
      'v4-w-receipt-invalid.transcript': witnessedFile(
        invalid.lines.map((l) => (l === three ? invalid.log.brokenHeader(3) : l)),
      ),
    },
  )

  add(
    "Witnessed: the game so far, no stop: nothing decides it; the verdict names the due side, its step and D, provisional until the notary seals its log (rule 9).",
    { status: 'incomplete', reason: 'no-claim', witnessed: { result: 9, sealed: false } },
    { 'v4-w-running.transcript': new Case(stage).file() },
  )

  const outage = new Case(stage)
  const outageA = signStop(p, 'A', 'outage', prefix, b2)
  outage.push(outageA)
  outage.receipted(signStop(p, 'B', 'answer', prefix, outageA), outage.D + outageMs(W_TERMS) + 1_000)
  add(
    "Witnessed: the notary receipts nothing after A's step; A, not due, stops by an outage it could not get receipted; B's answer is receipted more than OUTAGE_MS after D, with nothing between. A valid outage (PROTOCOL-4.md §4.5): decided as unwitnessed, the committed turns scored (rule 7, then version 3's rule 8).",
    { status: 'adjudicated', stoppedBy: ['A'], due: 'B', witnessed: { result: 7 } },
    { 'v4-w-outage.transcript': outage.file() },
  )

  const garbled = new Case(stage)
  // B's results receipted in time with a deposit A cannot open, never sent directly; A complains
  // (its complaint receipt carries the deposit), then stops with an accusation.
  garbled.push(garbled.log.envelope(b4, garbled.D - 60_000, { garbleRecipientWrap: true }))
  garbled.push(garbled.log.complaint('A', garbled.log.last, garbled.D - 59_000))
  garbled.receipted(signStop(p, 'A', 'accusation', prefix, b2), garbled.D - 58_000)
  add(
    "Witnessed (PROTOCOL-4.md §5.3): B's turn-1 results are receipted with a deposit whose recipient wrap A cannot open, and B never sends them directly; A's complaint (the Diffie-Hellman value of its wrap with its proof) is receipted, carrying the deposit, and A stops with an accusation. The verifier re-checks the complaint from the receipt alone: the deposit is the header's and does not open, so B's own signed header convicts it of false-deposit (rule 1), not a gap.",
    { status: 'offence', offender: 'B', class: 'false-deposit', seq: b4.envelope.seq, winner: 'A', witnessed: { result: 1 } },
    { 'v4-w-false-deposit.transcript': garbled.file() },
  )

  const busy = new Case(stage)
  busy.receipted(signStop(p, 'A', 'outage', prefix, b2), busy.D + 1_000, { outage: true })
  add(
    "Witnessed: A stops by an outage the notary receipts 1 s after D: the notary answers, so the outage is not valid (PROTOCOL-4.md §4.5), a stop of A's own accord, and A loses (rule 8).",
    { status: 'abandoned', how: 'stopped', by: 'A', winner: 'B', provisional: false, witnessed: { result: 8 } },
    { 'v4-w-outage-invalid.transcript': busy.file() },
  )
}
