/**
 * What a command loads before it does anything: `spaceships verify` and `--version` start without
 * the network stack (libp2p and its hundreds of modules cost about half a second of every start),
 * which only the commands that open a node load, when they run; `verify` of a Spaceships file
 * loads none of Spaaace!'s verifier, engine, bots or screens (the bench's cold start goal: 150 ms).
 */
import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'

const BIN = new URL('../dist/cli/bin.js', import.meta.url).pathname
const VECTOR = new URL('../protocol/vectors/honest-a.transcript', import.meta.url).pathname

/** libp2p's modules but its logger, which the scoped loggers of every component use (core/log.ts). */
const network = (modules: readonly string[]): string[] =>
  modules.filter((m) => m.includes('libp2p') && !m.includes('@libp2p/logger/'))

/** Every module URL the command loads, written to stderr by a loader hook, one line each. */
const HOOK =
  'data:text/javascript,import{registerHooks}from"node:module";' +
  'registerHooks({load(u,c,n){process.stderr.write("LOADED "+u+"\\n");return n(u,c)}})'

function loaded(args: string[]): { code: number | null; modules: string[]; out: string } {
  const r = spawnSync(process.execPath, ['--import', HOOK, BIN, ...args], { encoding: 'utf8' })
  const modules = r.stderr
    .split('\n')
    .filter((l) => l.startsWith('LOADED '))
    .map((l) => l.slice(7))
  return { code: r.status, modules, out: r.stdout }
}

describe('start-up: a command loads what it uses', () => {
  it('verify reaches its verdict (SPEC §12.8) without loading libp2p', () => {
    const r = loaded(['verify', VECTOR])
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/^complete:/)
    expect(network(r.modules)).toEqual([])
    // Nor Spaaace!'s verifier, engine, bots or screens: they load when a Spaaace! file is given.
    expect(r.modules.filter((m) => /\/games\/spaaace\/(verify|referee|bot|ui|node|witness)\//.test(m))).toEqual([])
    expect(r.modules.length).toBeGreaterThan(20)
    expect(r.modules.length).toBeLessThan(200)
  })

  it('--version loads no network code', () => {
    const r = loaded(['--version'])
    expect(r.code).toBe(0)
    expect(network(r.modules)).toEqual([])
    expect(r.modules.length).toBeLessThan(150)
  })
})
