import { defineConfig } from 'vitest/config'

/** `npm run soak`: long opt-in runs (thousands of games, network faults); CI runs them after the tests. */
export default defineConfig({
  test: {
    include: ['test/soak/**/*.soak.ts'],
    maxWorkers: 2,
    testTimeout: 600_000,
  },
})
