/**
 * @noble/curves' ed25519, loaded at its first use instead of at start-up. The notary's point
 * arithmetic (`enc` checks, complaint proofs) serves witnessed games only, and loading the library
 * cost every `spaceships verify` about 35 ms of a 170 ms start (the bench's cold start goal is 150).
 * Node loads an ES module synchronously through `require` (Node 22.12 and later, which bin.ts
 * checks), and hands the same instance to `import`.
 */
import { createRequire } from 'node:module'
import type { ed25519 as Ed25519 } from '@noble/curves/ed25519.js'

const load = createRequire(import.meta.url)
let loaded: typeof Ed25519 | undefined

export function curve(): typeof Ed25519 {
  return (loaded ??= (load('@noble/curves/ed25519.js') as { ed25519: typeof Ed25519 }).ed25519)
}
