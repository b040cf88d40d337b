/**
 * SPAAACE-WITNESSED §7.4, §7.6 rules 1 and 2 against someone who deletes a line of a published
 * file: evidence lost is a gap, never a false end. A file that lacks the genesis receipt its
 * later receipts name is undecided, not "not started"; one that lacks the envelopes of a tick below
 * a notary fault is undecided, not "stalled (notary fault)" for good; and merged with a file that
 * holds what was deleted, each decides as the whole game does. Every single-line deletion of these
 * vectors is tried.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { decideTexts } from './vectors.js'

const DIR = new URL('../../../../protocol/vectors/spaaace-witnessed/', import.meta.url)
const read = (name: string): string => readFileSync(new URL(name, DIR), 'latin1')

/** Each deletion of one line after the file's header and genesis lines (those make it no transcript). */
function deletions(text: string): { line: number; text: string }[] {
  const lines = text.split('\n')
  const out: { line: number; text: string }[] = []
  for (let k = 2; k < lines.length; k++)
    if (lines[k] !== '') out.push({ line: k + 1, text: [...lines.slice(0, k), ...lines.slice(k + 1)].join('\n') })
  return out
}

describe('a line deleted from a witnessed Spaaace! file (SPAAACE-WITNESSED §7.4, §7.6)', () => {
  for (const [file, other] of [
    ['honest-5-p1.transcript', 'honest-5-p2.transcript'],
    ['conviction-beyond-fault-p2.transcript', undefined],
    ['seed-wrong-p1.transcript', undefined],
  ] as const)
    it(`${file}: no deletion makes the end "not started" or a notary-fault stall the whole file does not give`, () => {
      const whole = decideTexts([read(file)]).decision.end
      const seen = new Set<string>()
      for (const d of deletions(read(file))) {
        const end = decideTexts([d.text]).decision.end
        seen.add(end.kind === 'ongoing' ? `ongoing ${end.gap ?? ''}` : end.kind)
        if (end.kind === 'not-started') expect(whole.kind, `line ${d.line}`).toBe('not-started')
        if (end.kind === 'stalled' && end.cause === 'notary-fault')
          expect(whole, `line ${d.line}`).toMatchObject({ kind: 'stalled', cause: 'notary-fault', tick: end.tick })
        // §7.4: what one file lost, another file gives back.
        if (other !== undefined && end.kind === 'ongoing' && end.gap === 'genesis')
          expect(decideTexts([d.text, read(other)]).decision.end, `line ${d.line}`).toEqual(
            decideTexts([read(file), read(other)]).decision.end,
          )
      }
      // The cases the rules name are met, not only the property (the helper's reproductions).
      if (file === 'honest-5-p1.transcript') expect(seen).toContain('ongoing genesis')
      if (file === 'conviction-beyond-fault-p2.transcript') expect(seen).toContain('ongoing content')
    })
})
