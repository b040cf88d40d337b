import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/build-once.ts'],
    // Two cores: keep the pool small so property tests do not starve each other.
    maxWorkers: 2,
    testTimeout: 60_000,
  },
})
