/**
 * The project's own debug logs, one scoped logger per component in the js-libp2p way:
 * `DEBUG=spaceships:*` shows them (with `libp2p:*` for the network stack underneath). Nothing here
 * is ever part of a transcript or a verdict.
 */
import { type Logger, logger } from '@libp2p/logger'

export type { Logger }

/** The logger of component `name`: `spaceships:<name>`. */
export function componentLogger(name: string): Logger {
  return logger(`spaceships:${name}`)
}
