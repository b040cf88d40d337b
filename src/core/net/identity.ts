/**
 * The player's persistent identity: one Ed25519 key that is both the libp2p PeerId (so the
 * connection gater admits exactly the invited opponent) and the transcript signing key (SPEC §5),
 * so the peer a player connected to is provably the peer that signed the transcript.
 *
 * Stored as the 32-byte RFC 8032 seed in base64url, mode 0600, under the XDG config directory.
 */
import { chmodSync, lstatSync, mkdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { privateKeyFromRaw } from '@libp2p/crypto/keys'
import { peerIdFromPrivateKey } from '@libp2p/peer-id'
import type { Ed25519PrivateKey, PeerId } from '@libp2p/interface'
import { concatBytes, fromBase64url, toBase64url } from '../commit/bytes.js'
import { type KeyPair, keyPairFromSecret } from '../commit/keys.js'
import { type SecretSource, systemSecrets } from '../commit/secrets.js'
import { IdentityFileError } from './identity-error.js'

export { IdentityFileError } from './identity-error.js'

const IDENTITY_HEADER = 'spaceships-identity 1'

export interface Identity {
  readonly keys: KeyPair
  readonly privateKey: Ed25519PrivateKey
  readonly peerId: PeerId
  /** Where it is stored ('' for an ephemeral identity). */
  readonly path: string
}

const nonEmpty = (v: string | undefined): string | undefined => (v === undefined || v === '' ? undefined : v)

/** `$XDG_CONFIG_HOME/spaceships` (default `~/.config/spaceships`). */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = nonEmpty(env['XDG_CONFIG_HOME']) ?? join(homedir(), '.config')
  return join(base, 'spaceships')
}

/** `$XDG_STATE_HOME/spaceships` (default `~/.local/state/spaceships`): games in progress. */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = nonEmpty(env['XDG_STATE_HOME']) ?? join(homedir(), '.local', 'state')
  return join(base, 'spaceships')
}

export function defaultIdentityPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), 'identity')
}

export function identityFromSecret(secret: Uint8Array, path = ''): Promise<Identity> {
  const keys = keyPairFromSecret(secret)
  // libp2p's raw Ed25519 private key is seed ‖ public key. The public key is derived natively
  // (commit/keys.ts): deriving it again in @libp2p/crypto's pure JS cost 60 ms at start-up.
  const privateKey = privateKeyFromRaw(concatBytes(secret, keys.publicKey)) as Ed25519PrivateKey
  return Promise.resolve({ keys, privateKey, peerId: peerIdFromPrivateKey(privateKey), path })
}

/** A throwaway identity (the built-in bot's, or a test peer's). */
export function ephemeralIdentity(source: SecretSource = systemSecrets): Promise<Identity> {
  return identityFromSecret(source.bytes(32))
}

/**
 * Loads the identity at `path`, creating it (and its directory, mode 0700) on first use. The file
 * is written with mode 0600 before the key is used, and an existing file readable by others is
 * tightened rather than trusted silently.
 */
export async function loadOrCreateIdentity(
  path: string,
  source: SecretSource = systemSecrets,
): Promise<{ identity: Identity; created: boolean; exposedMode?: number }> {
  let text: string | undefined
  try {
    text = readFileSync(path, 'utf8')
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new IdentityFileError(path, (e as Error).message)
  }
  if (text === undefined) {
    // A symbolic link to nowhere reads as missing, yet a new key cannot be written through it:
    // the key it pointed at is gone (a moved disk, a deleted backup), which its owner must hear.
    const target = danglingLink(path)
    if (target !== undefined) throw new IdentityFileError(path, `a symbolic link to ${target}, which does not exist`)
    const secret = source.bytes(32)
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
    writeFileSync(path, `${IDENTITY_HEADER}\n${toBase64url(secret)}\n`, { mode: 0o600, flag: 'wx' })
    return { identity: await identityFromSecret(secret, path), created: true }
  }
  const [header, encoded] = text.split('\n')
  const secret = encoded === undefined ? undefined : fromBase64url(encoded)
  if (header !== IDENTITY_HEADER || secret?.length !== 32)
    throw new IdentityFileError(
      path,
      `not a spaceships identity (expected "${IDENTITY_HEADER}" and a 32-byte base64url key)`,
    )
  // A key others could write is refused: anyone could have put a key of theirs there, and this
  // player would then sign as them. A key others could read is reported (the caller warns), then
  // made private.
  const mode = statSync(path).mode & 0o777
  if ((mode & 0o022) !== 0)
    throw new IdentityFileError(
      path,
      `writable by others (mode ${mode.toString(8)}), so anyone could have replaced it with a key of theirs; if its PeerId is still yours, make it private (chmod 600 ${path}) and run again`,
    )
  if ((mode & 0o077) !== 0) chmodSync(path, 0o600)
  return {
    identity: await identityFromSecret(secret, path),
    created: false,
    ...((mode & 0o077) !== 0 ? { exposedMode: mode } : {}),
  }
}

/** Where `path` points when it is a symbolic link whose target does not exist. */
function danglingLink(path: string): string | undefined {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined
  } catch {
    return undefined
  }
}
