/**
 * `spaceships join`: a game from the host's invite (or a file holding it), its terms accepted
 * first; a game already begun here resumes instead.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type Invite, parseInvite } from '../games/spaceships/net/invite.js'
import { SCREEN_COLUMNS, deadlineText, witnessText, wrap } from '../games/spaceships/ui/panel.js'
import { notaryKeyOf } from '../games/spaceships/net/invite.js'
import { type GameMeta, gameDir, readMeta, writeMeta } from './games.js'
import { type CliIo, EXIT, UserError, fileReason } from './io.js'
import { type GameFlags, checkSetupFile, checkSide, playerMeta, withPlayer } from './flags.js'
import { runJoin } from './net.js'
import { guarded } from './guarded.js'
import { ownNameFor, peerNamesFor } from './peer-names.js'

const env = (io: CliIo): NodeJS.ProcessEnv => io.env ?? process.env

/** `join @FILE`: the invite from a file, or one line saying why it cannot be read. */
function readInviteFile(path: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    const why = code === undefined ? (e as Error).message : fileReason(code)
    throw new UserError(`cannot read the invite from ${path}: ${why}`, EXIT.ioError)
  }
}

export function joinCommand(io: CliIo, inviteText: string, f: GameFlags): Promise<number> {
  return guarded(io, 'join', async () => {
    const text = inviteText.startsWith('@') ? readInviteFile(inviteText.slice(1)) : inviteText
    const parsed = parseInvite(text)
    if (!parsed.ok) throw new UserError(`that invite is not usable: ${parsed.error.field}: ${parsed.error.message}`)
    const invite = parsed.value
    checkSetupFile(f, invite.terms)
    checkSide(io, f)
    ownNameFor(f, io)
    const existing = readMeta(invite.id, env(io))
    if (existing !== undefined && (existing.finished === undefined || existing.provisional === true)) {
      if (f.json !== true) io.stderr(`resuming game ${invite.id}\n`)
      // A game that never began (the host not reached: nothing signed, SessionResult.unmet) is
      // joined with the invite given now, which may carry the host's right addresses; one that
      // began keeps the invite its transcript was played under.
      const fresh =
        existing.invite !== text.trim() && !begun(invite.id, env(io)) && sameGame(existing.invite, invite)
          ? { ...existing, invite: text.trim() }
          : existing
      if (fresh !== existing) writeMeta(fresh, env(io))
      return runJoin(io, f, withPlayer(fresh, f, io))
    }
    if (existing !== undefined)
      throw new UserError(
        `game ${invite.id} is already over (${existing.finished ?? ''}); its transcript is in ${gameDir(invite.id, env(io))}`,
      )
    const t = invite.terms
    // The address book's name for the host's key (SPEC §2.4 kind 6); the key itself is what Noise proves.
    const pinned = peerNamesFor(io).pinnedAs(invite.peer)
    if (f.json !== true)
      io.stdout(
        `You are B (the joiner). Host ${invite.peer}${pinned === undefined ? ' (not in your address book)' : `: ${pinned}, as pinned in your address book`}\nTerms: ${t.ruleset}; at most ${t.maxTurns} turns; ${deadlineText(t.turnMs)} per move, ${deadlineText(t.replyMs)} per automatic reply.\n${wrap(witnessText(invite.notary), SCREEN_COLUMNS, '')}\n${
          // PROTOCOL-4.md §4: a notary is trusted for time; one run by the host is no witness at all.
          invite.notary !== undefined &&
          notaryKeyOf(invite.notary[0] ?? '').ok &&
          invite.notary[0]?.endsWith(`/p2p/${invite.peer}`) === true
            ? `${wrap('Warning: the notary is the host itself, so it witnesses nothing the host could not make up: decline unless you trust the host.', SCREEN_COLUMNS, '')}\n`
            : ''
        }`,
      )
    if (f.yes !== true && f.autoplay !== true) {
      const prompter = io.prompter?.()
      if (prompter === undefined) throw new UserError('no terminal to accept the terms on: use --yes')
      if (!(await prompter.confirm({ message: 'Accept these terms and play?' }))) return EXIT.ok
    }
    // The invite itself is stored, never "@file": the game must stay joinable from this machine.
    const meta: GameMeta = {
      v: 1,
      id: invite.id,
      role: 'join',
      invite: text.trim(),
      opponent: invite.peer,
      listen: f.listen ?? [],
      relays: f.relay ?? [],
      player: playerMeta(f),
      ...(f.rematch === undefined || f.rematch <= 0 ? {} : { rematch: f.rematch }),
    }
    writeMeta(meta, env(io))
    return runJoin(io, f, meta)
  })
}

/** Whether this machine's transcript of the game holds an envelope (a game that began). */
function begun(id: string, e: NodeJS.ProcessEnv): boolean {
  try {
    return readFileSync(join(gameDir(id, e), 'transcript'), 'utf8')
      .split('\n')
      .slice(1)
      .some((l) => l !== '')
  } catch {
    return false
  }
}

/** The same game offered again: the same host and terms (its addresses may differ). */
function sameGame(stored: string, invite: Invite): boolean {
  const before = parseInvite(stored)
  return (
    before.ok &&
    before.value.peer === invite.peer &&
    JSON.stringify(before.value.terms) === JSON.stringify(invite.terms) &&
    JSON.stringify(before.value.notary ?? null) === JSON.stringify(invite.notary ?? null)
  )
}
