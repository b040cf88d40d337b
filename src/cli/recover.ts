/**
 * `resume` of a witnessed game whose transcript lost envelopes this node signed (its journal counts
 * them, SPEC §2.2): the envelopes are fetched back from the notary (PROTOCOL-4.md §6) and the
 * transcript rebuilt, in a causal order, before the game resumes. Without a notary, or when the
 * notary lacks one of them, nothing is rewritten and the session refuses to sign, as before.
 */
import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { fromBase64url } from '../core/commit/bytes.js'
import { parseInvite } from '../games/spaceships/net/invite.js'
import { recoverFromNotary } from '../games/spaceships/net/recover.js'
import { formatLine, formatTranscript } from '../games/spaceships/protocol/file.js'
import { ROLE_INDEX } from '../games/spaceships/protocol/messages.js'
import { journaledSigning } from '../games/spaceships/session/journal.js'
import { isReceiptLine } from '../games/spaceships/verify/receipts.js'
import { type GameMeta, openGameFiles, sideOf, versionOfMeta } from './games.js'
import type { GameFlags } from './flags.js'
import { identityFor } from './identity.js'
import type { CliIo } from './io.js'

const env = (io: CliIo): NodeJS.ProcessEnv => io.env ?? process.env

/** This side's envelopes among `lines` (an envelope's second byte is its sender, SPEC §5.1). */
function ownCount(lines: readonly Uint8Array[], me: 0 | 1): number {
  return lines.filter((b) => !isReceiptLine(b) && b[1] === me).length
}

/** Rebuilds a lost transcript from the notary when it can; says in one line what it did. */
export async function recoverIfLost(io: CliIo, f: GameFlags, meta: GameMeta): Promise<void> {
  const invite = parseInvite(meta.invite)
  const game = meta.game === undefined ? undefined : fromBase64url(meta.game, 32)
  if (!invite.ok || invite.value.notary === undefined || invite.value.terms.notary === undefined || game === undefined)
    return
  const version = versionOfMeta(meta)
  const files = openGameFiles(meta.id, env(io), version)
  try {
    const sent = journaledSigning(files.journal).count()
    const held = files.store.envelopes()
    const me = ROLE_INDEX[sideOf(meta)]
    const mine = ownCount(held, me)
    if (sent === undefined || sent <= mine) return
    io.stderr(
      `the transcript holds ${mine} of the ${sent} envelopes this node signed; fetching them back from the notary\n`,
    )
    const r = await recoverFromNotary({
      identity: await identityFor(f, io),
      role: sideOf(meta),
      game,
      notary: { key: invite.value.terms.notary, addrs: invite.value.notary },
      held: held.filter((b) => !isReceiptLine(b)),
    })
    if (!r.ok) {
      io.stderr(`cannot recover from the notary: ${r.why}\n`)
      return
    }
    const recovered = ownCount(r.envelopes, me)
    if (recovered < sent) {
      io.stderr(
        `the notary holds ${recovered} of the ${sent} envelopes this node signed: the transcript is left as it is\n`,
      )
      return
    }
    // Written whole beside the old file, flushed, then renamed over it: a crash leaves one or the other.
    const path = join(files.dir, 'transcript')
    const text = formatTranscript(r.envelopes, version) + r.receipts.map((b) => `${formatLine(b)}\n`).join('')
    const temp = `${path}.recovered`
    const fd = openSync(temp, 'w', 0o600)
    try {
      writeSync(fd, text)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(temp, path)
    io.stderr(
      `recovered ${r.envelopes.length - held.filter((b) => !isReceiptLine(b)).length} envelopes from the notary; resuming\n`,
    )
  } finally {
    files.release()
  }
}
