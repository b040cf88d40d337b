import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/build-once.ts'],
    // Two cores, three workers: the longest files (cli-net, cli-witnessed, cli-check-in, the
    // Spaaace! nodes) mostly wait on child processes and protocol windows, not on the CPU, so a
    // third worker overlaps that waiting (257 s with two workers, 221 s with three, on the 2-core
    // VM); more would let the property tests and bot arenas starve each other.
    maxWorkers: 3,
    testTimeout: 60_000,
  },
})
