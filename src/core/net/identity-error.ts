/**
 * An identity file that cannot be used, apart from identity.ts so that a command's error handling
 * (cli/guarded.ts) names it without loading libp2p's key code at every start.
 */
export class IdentityFileError extends Error {
  constructor(
    readonly path: string,
    detail: string,
  ) {
    super(`${path}: ${detail}`)
  }
}
