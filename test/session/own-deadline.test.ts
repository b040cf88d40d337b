/**
 * When a player's own step is due, as its prompt and waiting line say (session/player.ts
 * `ownStepDeadline`): in a witnessed check-in, the receipts' D in the notary's time (PROTOCOL-4.md
 * §4.2), as `games` says it; a check-in had counted a day from when this machine fetched the
 * other side's move, so a player checking in late was told it had a whole day.
 */
import { describe, expect, it } from 'vitest'
import { ownStepDeadline } from '../../src/games/spaceships/session/player.js'
import { WITNESS_MARGIN_MS } from '../../src/games/spaceships/witness/registrar.js'

const DAY = 86_400_000

describe("a player's own deadline (PROTOCOL-4.md §4.2, SPEC §6.6)", () => {
  it("the receipts' D where they say this side owes the step, whatever was fetched since", () => {
    const receipted = 1_790_000_000_000 + DAY + WITNESS_MARGIN_MS
    // Fetched 20 hours after the other side's move was receipted: 4 hours are left, not a day.
    const fetchedAt = 1_790_000_000_000 + 20 * 3_600_000
    expect(ownStepDeadline('A', { side: 'A', deadline: receipted }, true, fetchedAt, DAY)).toBe(receipted)
  })

  it('counted from the last envelope received where the receipts say nothing of this side', () => {
    expect(ownStepDeadline('A', { side: 'B', deadline: 5 }, true, 1_000, DAY)).toBe(1_000 + DAY + WITNESS_MARGIN_MS)
    expect(ownStepDeadline('A', { side: 'A', deadline: undefined }, true, 1_000, DAY)).toBe(
      1_000 + DAY + WITNESS_MARGIN_MS,
    )
    // Unwitnessed: no notary, no margin (SPEC §6.6).
    expect(ownStepDeadline('B', undefined, false, 1_000, 600_000)).toBe(601_000)
  })
})
