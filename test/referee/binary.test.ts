import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))

describe('the installed spaceships binary (package.json bin, built by npm ci / pretest)', () => {
  it('referee prints the verdict and exits with the documented status', () => {
    const ok = spawnSync(process.execPath, ['dist/cli/main.js', 'referee', 'protocol/examples/no-actions.record'], {
      cwd: root,
      encoding: 'utf8',
    })
    expect(ok.status).toBe(0)
    expect(ok.stdout).toMatch(/LEGAL: every setup and record obeys the rules\./)
    const bad = spawnSync(
      process.execPath,
      ['dist/cli/main.js', 'referee', 'protocol/examples/illegal-missile.record'],
      { cwd: root, encoding: 'utf8' },
    )
    expect(bad.status).toBe(1)
    expect(bad.stdout).toMatch(/ILLEGAL: illegal record by B, game 1, turn 2/)
  })
})
