/**
 * `spaceships play`: a game against the built-in bot on this machine, both sides in one process
 * but over a real libp2p connection on loopback with the full protocol.
 */
import { moveAlerts, notifier } from './alerts.js'
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { systemSecrets } from '../core/commit/secrets.js'
import { hostGame, joinGame } from '../games/spaceships/net/game.js'
import { ephemeralIdentity } from '../core/net/identity.js'
import { formatInvite, parseInvite } from '../games/spaceships/net/invite.js'
import type { PlayerStrategy } from '../games/spaceships/session/strategy.js'
import { memoryStore } from '../games/spaceships/protocol/file.js'
import { SCREEN_COLUMNS, UNWITNESSED_TERMS, outcomeLine, wrap } from '../games/spaceships/ui/panel.js'
import { type GameMeta, endedMeta, forgetGame, writeMeta } from './games.js'
import { type CliIo, UserError } from './io.js'
import {
  type GameFlags,
  NO_TERMINAL,
  type TermsFlags,
  botName,
  checkSetupFile,
  playerMeta,
  randomSeed,
  termsFrom,
} from './flags.js'
import { botStrategy, playerFor, watched } from './players.js'
import { eventPrinter, finishGame, noticesFor, waitingPrinter } from './screen.js'
import { identityFor } from './identity.js'
import { withGameFiles } from './net.js'
import { guarded, interruptible } from './guarded.js'
import { ownNameFor } from './peer-names.js'

const env = (io: CliIo): NodeJS.ProcessEnv => io.env ?? process.env

/**
 * The main job: a game against the built-in bot on this machine, over a real libp2p connection
 * on loopback with the full protocol; the transcript is written and verified at the end.
 */
export function playCommand(io: CliIo, f: GameFlags & TermsFlags): Promise<number> {
  return guarded(io, 'play', async () => {
    // Before anything is created or opened: a misspelt level is a usage error, not a half-started game.
    const level = botName(f.bot)
    if (f.autoplay !== true && io.prompter?.() === undefined) throw new UserError(NO_TERMINAL)
    const terms = termsFrom(f)
    checkSetupFile(f, terms)
    const own = ownNameFor(f, io)
    const seed = f.seed ?? randomSeed()
    const you = await identityFor(f, io)
    const botIdentity = await ephemeralIdentity()
    const id = randomBytes(16).toString('hex')
    const meta: GameMeta = {
      v: 1,
      id,
      role: 'host',
      invite: '',
      listen: ['/ip4/127.0.0.1/tcp/0'],
      relays: [],
      player: playerMeta({ ...f, seed: `${seed}/you` }),
      against: level,
    }
    writeMeta(meta, env(io))
    return withGameFiles(id, io, you, meta.listen, async (files) => {
      // The transcript lives in the game's own directory; nothing goes to the current directory
      // unless --out asks, and --out never replaces a file: this game has only begun, so whatever
      // the file holds is not its transcript (sysexits EX_CANTCREAT).
      const out = f.out
      if (
        out !== undefined &&
        (await io.readFile(out).then(
          () => true,
          () => false,
        ))
      ) {
        forgetGame(id, env(io))
        throw new UserError(
          `--out: ${out} already exists and holds no transcript of this game, which has only begun; choose another file or move that one away`,
          73,
        )
      }
      const seen: { ctx?: Parameters<PlayerStrategy['record']>[0] } = {}
      let sendInvite: (text: string) => void = () => undefined
      const invited = new Promise<string>((r) => (sendInvite = r))
      if (f.json !== true)
        io.stdout(
          `You are A (${you.peerId.toString()})\nagainst the ${level} bot, over libp2p on loopback. Rules ${terms.ruleset}.\n${wrap(UNWITNESSED_TERMS, SCREEN_COLUMNS, '')}\n`,
        )
      const notices = noticesFor(io)
      const waitingFor = waitingPrinter(io, f, 'A', () => `the ${level} bot`, notices)
      const notify = notifier(io, f.notify, id)
      const alerts = moveAlerts('A', {
        bell: f.json !== true && f.autoplay !== true && io.isTty === true,
        io,
        notify,
      })
      const hosted = hostGame({
        identity: you,
        secrets: systemSecrets,
        store: files.store,
        journal: files.journal,
        strategy: watched(
          playerFor(f, io, meta.player, () => `the ${level} bot`, undefined, notices),
          seen,
        ),
        listen: meta.listen,
        inviteId: id,
        terms,
        waitMs: 30_000,
        onEvent: eventPrinter(io, true),
        // Sent as to any opponent (SPEC §2.4 kind 6); the bot's node reads it and shows nothing.
        ...(own === undefined ? {} : { name: own }),
        onSessionEvent: (e) => {
          alerts(e)
          waitingFor?.(e)
        },
        onReady: (node) => {
          sendInvite(formatInvite({ id, peer: you.peerId.toString(), addrs: node.getMultiaddrs().map(String), terms }))
        },
      })
      const invite = parseInvite(await invited)
      if (!invite.ok) throw new Error(`own invite unreadable: ${invite.error.message}`)
      const joined = joinGame({
        identity: botIdentity,
        secrets: systemSecrets,
        store: memoryStore(),
        strategy: botStrategy(level, f.seed === undefined ? undefined : `${seed}/bot`),
        listen: [],
        invite: invite.value,
      })
      const [result] = await interruptible(() => Promise.all([hosted, joined]))
      notify('ended')
      writeMeta(endedMeta(meta, result.verdict, outcomeLine(result.verdict, 'A')), env(io))
      return finishGame(io, f, result, join(files.dir, 'transcript'), seen.ctx, 'A', id)
    })
  })
}
