/**
 * The files behind names (SPEC §2.4 kind 6): this player's own name, in `config.json`
 * (`{ "name": ... }`), and the address book, `names.json`, both in the config directory beside the
 * identity key (`$XDG_CONFIG_HOME/spaceships`). The address book is there, not in the state
 * directory, because it is what the player decided, as the key is: worth a backup, and carried to
 * a new machine with the key, where the games in progress are not. Both are written to a
 * temporary file renamed over the old one, so a crash never leaves half a file.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { configDir } from '../core/net/identity.js'
import { nameProblem } from '../games/spaceships/protocol/name.js'
import type { AddressBook } from '../games/spaceships/ui/names.js'
import { EXIT, UserError } from './io.js'

const BOOK_VERSION = 1

export const bookPath = (env: NodeJS.ProcessEnv): string => join(configDir(env), 'names.json')
export const configPath = (env: NodeJS.ProcessEnv): string => join(configDir(env), 'config.json')

/** A PeerId as `spaceships id` prints it (base58btc, Ed25519 keys inline): the shape, checked cheaply. */
export const PEER_ID = /^12D3KooW[1-9A-HJ-NP-Za-km-z]{44}$/

/** Why `text` is not a player's PeerId, or undefined if it is one. */
export async function peerIdProblem(text: string): Promise<string | undefined> {
  if (!PEER_ID.test(text)) return 'not a PeerId'
  const { peerIdFromString } = await import('@libp2p/peer-id')
  try {
    return peerIdFromString(text).type === 'Ed25519' ? undefined : 'not the PeerId of an Ed25519 key'
  } catch {
    return 'not a PeerId (its checksum or key does not decode)'
  }
}

/** A JSON file of ours, or undefined when it does not exist; any other failure as one line. */
function readJson(path: string): { value: unknown } | undefined {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw e
  }
  try {
    return { value: JSON.parse(text) as unknown }
  } catch {
    throw new UserError(`${path} is damaged (not JSON); fix it or move it away`, EXIT.ioError)
  }
}

function writeJson(path: string, value: unknown): void {
  mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 })
  const tmp = `${path}.${process.pid}.tmp`
  writeFileSync(tmp, JSON.stringify(value, null, 2) + '\n', { mode: 0o600 })
  renameSync(tmp, path)
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * The address book, checked entry by entry: a file edited by hand with a PeerId or a name that
 * breaks the rules is refused as a whole, never half read (a dropped pin would stop flagging).
 */
export function readBook(env: NodeJS.ProcessEnv): AddressBook {
  const path = bookPath(env)
  const read = readJson(path)
  if (read === undefined) return { pins: {} }
  const o = read.value
  const damaged = (why: string): UserError =>
    new UserError(`${path} is damaged: ${why}; fix it or move it away`, EXIT.ioError)
  if (!isObject(o) || o['v'] !== BOOK_VERSION || !isObject(o['pins']))
    throw damaged(`expected {"v": ${BOOK_VERSION}, "pins": {PeerId: name, ...}}`)
  const pins: Record<string, string> = {}
  for (const [peer, name] of Object.entries(o['pins'])) {
    if (!PEER_ID.test(peer)) throw damaged(`${JSON.stringify(peer)} is not a PeerId`)
    if (typeof name !== 'string') throw damaged(`the name pinned to ${peer} is not text`)
    const p = nameProblem(name)
    if (p !== undefined) throw damaged(`the name pinned to ${peer}: ${p.message}`)
    pins[peer] = name
  }
  return { pins }
}

export function writeBook(book: AddressBook, env: NodeJS.ProcessEnv): void {
  const pins = Object.fromEntries(Object.entries(book.pins).sort(([, a], [, b]) => a.localeCompare(b)))
  writeJson(bookPath(env), { v: BOOK_VERSION, pins })
}

/** The name this player gives itself (`spaceships name NAME`), if one is set. */
export function readOwnName(env: NodeJS.ProcessEnv): string | undefined {
  const path = configPath(env)
  const read = readJson(path)
  if (read === undefined) return undefined
  if (!isObject(read.value))
    throw new UserError(`${path} is damaged: not a JSON object; fix it or move it away`, EXIT.ioError)
  const name = read.value['name']
  if (name === undefined) return undefined
  const p = typeof name === 'string' ? nameProblem(name) : { message: 'not text' }
  if (p !== undefined)
    throw new UserError(
      `${path}: its name is unusable: ${p.message}; set another with: spaceships name NAME`,
      EXIT.ioError,
    )
  return name as string
}

/** Sets (or, undefined, clears) this player's name, keeping whatever else config.json holds. */
export function writeOwnName(name: string | undefined, env: NodeJS.ProcessEnv): void {
  const path = configPath(env)
  const read = readJson(path)
  const rest = read !== undefined && isObject(read.value) ? read.value : {}
  const others = Object.fromEntries(Object.entries(rest).filter(([k]) => k !== 'name'))
  writeJson(path, name === undefined ? others : { ...others, name })
}

/** A name given on the command line, checked against SPEC §2.4's rule, or a usage error naming it. */
export function checkedName(name: string, where?: string): string {
  const at = where === undefined ? '' : `${where}: `
  const p = nameProblem(name)
  if (p !== undefined) throw new UserError(`${at}${JSON.stringify(name)} is not a usable name: ${p.message}`)
  // Stricter than the wire (SPEC §2.4 lets a peer send them): spaces at the ends or in a row make
  // two names look alike on the screen.
  if (name !== name.trim() || name.includes('  '))
    throw new UserError(`${at}${JSON.stringify(name)} is not a usable name: no spaces at its ends or two in a row`)
  return name
}
