/**
 * Verdicts pinned byte for byte: every transcript vector, each with its neighbour, and thousands of
 * hostile copies of them (each line deleted, each line's signature broken, each line's body
 * altered, each line doubled out of place) give exactly the verdict they gave when the pins were
 * written. A speed change to the verifier must not move any of them; a verdict meant to change
 * (a rule of SPEC §12 changed) is re-pinned on purpose with UPDATE_VERDICT_PINS=1, and the diff of
 * the pins file shows which cases moved.
 *
 * A pin is the first 16 hex digits of SHA-256 over the verdict's JSON, with its status beside it,
 * so the file stays small and a moved case names the status it had.
 */
import { createHash } from 'node:crypto'
import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { verifyFiles } from '../../src/games/spaceships/verify/verify.js'

const DIR = new URL('../../protocol/vectors/', import.meta.url)
const PINS = new URL('./verdict-pins.json', import.meta.url)
const update = process.env['UPDATE_VERDICT_PINS'] === '1'

/** A base64url character other than `c` (a line altered in one character stays base64url). */
function other(c: string): string {
  return c === 'A' ? 'B' : 'A'
}

/** The hostile copies of one file: name → content. */
function copiesOf(name: string, text: string): [string, string][] {
  const rows = text.split('\n')
  const [header, ...rest] = rows
  const last = rest.pop() ?? ''
  const out: [string, string][] = [[name, text]]
  const rebuild = (lines: readonly string[]): string => [header, ...lines, last].join('\n')
  rest.forEach((line, i) => {
    out.push([`${name} without line ${i + 2}`, rebuild(rest.filter((_, j) => j !== i))])
    if (line.length < 2) return
    // The signature's first character (86 characters before the end): a broken signature.
    const s = Math.max(0, line.length - 86)
    out.push([
      `${name} line ${i + 2} signature broken`,
      rebuild(rest.map((l, j) => (j === i ? l.slice(0, s) + other(l[s] ?? '') + l.slice(s + 1) : l))),
    ])
    // A character in the body: another envelope under the same signature.
    const m = Math.floor(s / 2)
    out.push([
      `${name} line ${i + 2} body altered`,
      rebuild(rest.map((l, j) => (j === i ? l.slice(0, m) + other(l[m] ?? '') + l.slice(m + 1) : l))),
    ])
    // The line again at the end, out of place.
    out.push([`${name} line ${i + 2} doubled at the end`, rebuild([...rest, line])])
  })
  return out
}

function pin(content: readonly string[]): string {
  const v = verifyFiles(content.map((c, i) => ({ name: `f${i}`, content: c })))
  return `${v.status} ${createHash('sha256').update(JSON.stringify(v)).digest('hex').slice(0, 16)}`
}

describe('verdicts pinned on the vectors and their hostile copies', () => {
  it('every case gives the verdict it was pinned with', () => {
    const names = readdirSync(DIR)
      .filter((f) => f.endsWith('.transcript'))
      .sort()
    const texts = new Map(names.map((n) => [n, readFileSync(new URL(n, DIR), 'utf8')]))
    const got: Record<string, string> = {}
    for (const [n, t] of texts) for (const [c, content] of copiesOf(n, t)) got[c] = pin([content])
    // Each file with the next (two files of one game, or of two games).
    names.forEach((n, i) => {
      const next = names[(i + 1) % names.length] ?? n
      got[`${n} + ${next}`] = pin([texts.get(n) ?? '', texts.get(next) ?? ''])
    })
    if (update) writeFileSync(PINS, `${JSON.stringify(got, null, 1)}\n`)
    const pinned = JSON.parse(readFileSync(PINS, 'utf8')) as Record<string, string>
    expect(Object.keys(got).length).toBeGreaterThan(3000)
    expect(got).toEqual(pinned)
  }, 300_000)
})
