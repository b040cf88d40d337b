/**
 * A Spaaace! node's transcript on disk (protocol/SPAAACE-PEERS.md §2): the header line, the genesis
 * line, then each envelope the node holds, one line each, flushed to stable storage before the
 * envelope is sent or acted on (§6.8, §8 Receive). The same file is what `spaceships verify` reads.
 * A torn last line (the process died mid-write) was never sent or acted on, and is cut off when the
 * file is opened again, as the two-player store does (core/session/file-store.ts).
 *
 * Only this node's own envelopes are flushed to stable storage (fsync) before they go out; another
 * author's is written (it survives the process dying) and flushed with the next own envelope. That
 * keeps §6.8's guarantee: whatever an envelope of this node names was flushed with it, so a crash
 * of the machine never leaves a signed statement whose evidence is lost, and what a crash can lose
 * (envelopes received since the last own one) was never acted on by a signature and comes back by
 * resume. A flush per received envelope cost 13 to 16 flushes in series on a tick's critical path.
 */
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { toBase64url } from '../../../core/commit/bytes.js'
import {
  StorageError,
  appendLine,
  appendLineDurably,
  ioMessage,
  readRepaired,
} from '../../../core/session/file-store.js'
import type { TranscriptStore } from '../../../core/transcript/file.js'
import { describeProtocolError } from '../../../core/wire/errors.js'
import { LINE_KIND, TRANSCRIPT_HEADER } from '../peers/domain.js'
import type { SealedGenesis } from '../peers/genesis.js'
import { readPeersTranscript } from '../peers/transcript.js'
import type { PeerSecrets } from './secrets.js'

/**
 * Opens (or creates) the transcript of `genesis` at `path` for roster index `self` (whose envelopes
 * are flushed before they are sent); refuses a file of another game.
 */
export function spaaaceFileStore(
  path: string,
  genesis: SealedGenesis,
  self: number,
): TranscriptStore & { receipts(): readonly Uint8Array[] } {
  const text = readRepaired(path)
  const envelopes: Uint8Array[] = []
  // A witnessed game's receipts (SPAAACE-WITNESSED §8.1): written, never flushed alone (the notary
  // keeps them; a lost one is fetched again).
  const receipts: Uint8Array[] = []
  if (text === '') {
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
    } catch (e) {
      throw new StorageError(`cannot create the directory of ${path}: ${ioMessage(e)}`)
    }
    appendLineDurably(path, TRANSCRIPT_HEADER, 'transcript')
    appendLineDurably(path, toBase64url(genesis.bytes), 'transcript')
  } else {
    const read = readPeersTranscript(text)
    if (!read.ok) throw new StorageError(`${path} is not a Spaaace! transcript: ${describeProtocolError(read.error)}`)
    if (read.value.genesis.id !== genesis.id) throw new StorageError(`${path} is the transcript of another game`)
    if (read.value.setAside.length > 0)
      throw new StorageError(
        `${path} line ${read.value.setAside[0]?.line ?? 0} is damaged; the game cannot resume from it`,
      )
    for (const e of read.value.envelopes) envelopes.push(e.bytes)
    receipts.push(...read.value.receipts)
  }
  return {
    append(bytes) {
      const receipt = bytes[0] === LINE_KIND.receipt
      // Byte 1 of an envelope is its author (§4.1): only its own are flushed here.
      appendLine(path, toBase64url(bytes), 'transcript', !receipt && bytes[1] === self)
      if (receipt) receipts.push(bytes)
      else envelopes.push(bytes)
    },
    envelopes: () => envelopes,
    receipts: () => receipts,
  }
}

/**
 * `store`, journaling in `secrets` how many of its own envelopes node `self` has persisted, after
 * each is written and flushed and before the mesh sends it (§6.8): a transcript later lost or
 * replaced by an older copy then reads back shorter than that count, and the node knows it must
 * not sign until it holds its own envelopes again (`SpaaacePeer.start`).
 */
export function journalingSigned<S extends TranscriptStore>(
  store: S,
  secrets: Pick<PeerSecrets, 'keepSigned'>,
  self: number,
): S {
  return {
    ...store,
    append(bytes: Uint8Array): void {
      store.append(bytes)
      // §4.1: u8 version ‖ u8 author ‖ u16 seq, big-endian; a receipt line is not an envelope.
      if (bytes[0] === LINE_KIND.envelope && bytes[1] === self && bytes.length >= 4)
        secrets.keepSigned((((bytes[2] ?? 0) << 8) | (bytes[3] ?? 0)) + 1)
    },
  }
}
