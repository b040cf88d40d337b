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
    // Each worker runs file after file in one module graph instead of a fresh one per file: most
    // files import libp2p and the engines, and loading them again 179 times was a quarter of the
    // suite's CPU (415 s of CPU and 276 s with isolation, 305 s and 210 s without, on the 2-core
    // VM). No test mocks a module or stubs a global, and every file builds its own nodes, homes and
    // clocks, so nothing one file leaves is another's input.
    isolate: false,
    testTimeout: 60_000,
  },
})
