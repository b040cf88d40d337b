/** Salts, commitments, hashes and signatures (DESIGN.md §2; protocol/SPEC.md §3-§5). */
export * from './bytes.js'
export * from './commitments.js'
export * from './hash.js'
export * from './keys.js'
export * from './secrets.js'
