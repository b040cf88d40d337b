/**
 * What a game command shows: the screen it draws on, the lines printed while a game runs (the
 * opponent's chat and moves awaited, the node's connection events) and the end of a game, with
 * the verifier's verdict on its transcript.
 */
import type { NetEvent } from '../games/spaceships/net/game.js'
import type { WitnessEvent } from '../games/spaceships/net/witness.js'
import { systemClock } from '../core/session/clock.js'
import type { SessionEvent, SessionResult } from '../games/spaceships/session/session.js'
import type { TurnContext } from '../games/spaceships/session/strategy.js'
import { formatTranscript } from '../games/spaceships/protocol/file.js'
import { type Role, otherRole } from '../games/spaceships/protocol/messages.js'
import { decodeEnvelope } from '../games/spaceships/protocol/envelope.js'
import type { Setup } from '../games/spaceships/rules/setup.js'
import { initialPlayerState } from '../games/spaceships/rules/state.js'
import { ownMarks, renderSpace } from '../games/spaceships/ui/board.js'
import { SCREEN_COLUMNS, chatLine, clockText, outcomeLine, shortId, wrap } from '../games/spaceships/ui/panel.js'
import { verifyTranscript } from '../games/spaceships/verify/verify.js'
import { Notices, type Screen, colourEnabled, painter, renderBoards } from '../games/spaceships/ui/terminal.js'
import { type CliIo, LineLimiter, REPEAT_LINE_MS, commandName } from './io.js'
import { exitFor, renderVerdict } from './verify.js'
import type { GameFlags } from './flags.js'

const env = (io: CliIo): NodeJS.ProcessEnv => io.env ?? process.env

export function screenFor(io: CliIo): Screen {
  return {
    print: (t) => {
      io.stdout(t + '\n')
    },
    paint: painter(colourEnabled(env(io), io.isTty ?? false)),
    ...(io.columns === undefined ? {} : { columns: io.columns }),
  }
}

/**
 * One command's notices (ui/terminal.ts): its printers and every game it plays (a rematch too)
 * share them, so no line is glued onto whichever record prompt is open.
 */
const NOTICES = new WeakMap<CliIo, Notices>()
export function noticesFor(io: CliIo): Notices {
  let n = NOTICES.get(io)
  if (n === undefined) NOTICES.set(io, (n = new Notices()))
  return n
}

/** A human's side prints who it waits for and how long it may take; a bot's side stays quiet. */
export function waitingPrinter(
  io: CliIo,
  f: GameFlags,
  me: Role,
  opponent: () => string | undefined,
  notices = new Notices(),
  witnessed = false,
  /**
   * A check-in (PROTOCOL-4.md §4): it never waits for the opponent's move, it ends and says when
   * to come back. Its session knows the opponent's deadline only from this machine's clock until
   * the notary's receipt of this side's move comes, so a time left here could be the one just met.
   */
  checkIn = false,
): ((e: SessionEvent) => void) | undefined {
  if (f.json === true || f.autoplay === true) return undefined
  let myMoveDue = false
  let lastWait = ''
  // The opponent's move awaited while the player still chooses a record is said once it is
  // signed (Notices.whenChosen), and not at all if the opponent's next envelope comes first.
  let dropWait = (): void => undefined
  // Through the notices: a line that arrives while the player types is never glued onto the prompt;
  // and wrapped to the terminal (100 columns at most), words whole.
  const width = Math.min(SCREEN_COLUMNS, io.columns ?? SCREEN_COLUMNS)
  const out = {
    stdout: (text: string): void => {
      notices.say(() => {
        io.stdout(
          text
            .split('\n')
            .map((l) => (l === '' ? l : wrap(l, width, '')))
            .join('\n'),
        )
      })
    },
  }
  return (e) => {
    if (e.kind === 'chat') out.stdout(`${chatLine(`${shortId(opponent() ?? 'your opponent')} says:`, e.text)}\n`)
    // Version 4 (SPEC §7.11, §7.12): an offer made to this player, told as it arrives (a line of
    // its own, never onto the prompt), and what became of this player's own.
    else if (e.kind === 'draw' && e.what === 'offered')
      out.stdout(
        'Your opponent offers a draw: type accept at your record prompt to take it; your next move declines it.\n',
      )
    else if (e.kind === 'draw')
      out.stdout(
        e.what === 'accepted'
          ? 'Your opponent accepted the draw: both reveal, and the game ends drawn.\n'
          : 'Your opponent played on: your offer of a draw lapsed.\n',
      )
    else if (e.kind === 'envelope' && e.direction === 'received') dropWait()
    else if (e.kind === 'waiting') {
      myMoveDue = e.side === me && e.what.includes('commit')
      // Said once per wait: the session restates what it waits for after every event it handles.
      const key = `${e.side} ${e.what} ${e.deadline}`
      if (!checkIn && e.side !== me && e.what.includes('commit') && key !== lastWait) {
        dropWait()
        dropWait = notices.whenChosen(() => {
          io.stdout(`waiting for your opponent's move (${clockText(e.deadline - systemClock.now())} left)\n`)
        })
      }
      lastWait = key
    } else if (e.kind === 'stopped' && e.by !== me) {
      // Said from what this side saw, never as a loss on time (SPEC §12.7): a claim proves only that
      // the opponent stopped waiting, and the game is then adjudicated on the committed turns.
      if (e.reason === 'resignation') out.stdout('Your opponent resigned.\n')
      else if (e.reason === 'accusation')
        out.stdout(`Your opponent stopped the game, accusing your side: ${e.detail}\n`)
      else if (e.reason === 'claim' && myMoveDue)
        out.stdout(
          witnessed
            ? // PROTOCOL-4.md §4.4: a claim the notary receipted after the deadline is a loss on time.
              "Your opponent claimed the win on time while your move was due: the notary's receipts decide whether your move was in by its deadline.\n"
            : 'Your opponent stopped the game while your move was due: it is adjudicated on the turns both committed.\n',
        )
      else if (e.reason === 'claim') out.stdout(`Your opponent stopped the game: ${e.detail}\n`)
    } else if (e.kind === 'stopped' && e.reason === 'claim') {
      // This node's own claim (SPEC §6.5, §6.6): what it did and what it now waits for.
      // The stop's own detail names protocol parts ("no commit+aspects within the deadline").
      const late = /^no (\S+) within the deadline$/.exec(e.detail)
      const why =
        late === null
          ? e.detail
          : `your opponent's ${late[1]?.includes('commit') === true ? 'move' : 'reply'} did not come within the deadline`
      out.stdout(`Your node stopped the game (${why}); waiting for your opponent's node to answer with its reveal.\n`)
    }
  }
}

/** "; 42 s left before the deadline" (SPEC §6.6), when a message is owed. */
function timeLeft(deadline: number | undefined): string {
  if (deadline === undefined) return ''
  // As the prompts' clock writes it (9:41, 23:58:06), not a count of seconds.
  return `; ${clockText(deadline - systemClock.now())} left before the deadline`
}

/** How often a joiner that has not reached the host says it is still dialling. */
const DIAL_LINE_MS = 20_000

/**
 * The node's events as lines on standard error. A condition that repeats (a flapping connection,
 * a peer dialling again and again) is said at most once per REPEAT_LINE_MS, with how many times it
 * was held back, so it never scrolls a player's board away.
 */
export function eventPrinter(
  io: CliIo,
  json: boolean,
  notices = new Notices(),
  /** Who dials after a cut: the joiner does; the host waits to be dialled (SPEC §2.2). */
  role: 'host' | 'join' = 'join',
): (e: NetEvent) => void {
  const limit = new LineLimiter(REPEAT_LINE_MS, () => systemClock.now())
  const say = (kind: string, line: string): void => {
    const held = limit.take(kind)
    if (held !== undefined)
      notices.say(() => {
        io.stderr(`${line}${held > 0 ? ` (${held} more like it since the last such line)` : ''}\n`)
      })
  }
  // Dialling a host not reached yet is said now and then (at the start nothing else is said, and
  // a player saw nothing at all for the reply time before "no game"); a lost connection's redials
  // are covered by its own line.
  const dialLimit = new LineLimiter(DIAL_LINE_MS, () => systemClock.now())
  let met = false
  return (e) => {
    if (json) return
    if (e.kind === 'connected') met = true
    // (A refusal is said once, when the node gives up: guarded.ts.)
    if (e.kind === 'redial-failed') {
      if (met || e.detail.startsWith('the host refused')) return
      const held = dialLimit.take('dial')
      const why = (e.detail.split('\n')[0] ?? '').slice(0, 120)
      if (held !== undefined)
        notices.say(() => {
          io.stderr(
            `cannot reach the host yet (${why}); dialling again${held > 0 ? ` (${held} more tries since the last such line)` : ''}\n`,
          )
        })
      return
    }
    if (e.kind === 'connected')
      say(
        e.restored ? 'restored' : 'connected',
        e.restored
          ? `connection restored${e.relayed ? ' (through a relay)' : ''}${timeLeft(e.deadline)}`
          : `connected to ${e.peer}${e.relayed ? ' (through a relay)' : ''}`,
      )
    else if (e.kind === 'disconnected')
      say(
        'lost',
        `connection lost; ${role === 'host' ? 'waiting for your opponent to reconnect' : 'dialling the host again'}${timeLeft(e.deadline)}`,
      )
    else if (e.kind === 'refused') say(`refused ${e.why}`, `refused ${e.peer}: ${e.why}`)
    else if (e.kind === 'relay')
      say(
        `relay ${e.status} ${e.relay}`,
        e.status === 'reserving'
          ? `asking the relay ${e.relay} for a slot...`
          : e.status === 'reserved'
            ? 'relay slot reserved: your opponent can reach you through the relay (the invite names it)'
            : `lost the relay ${e.relay}; dialling it again`,
      )
  }
}

/**
 * What the link to a witnessed game's notary does, said once per change on stderr (PROTOCOL-4.md
 * §4.1): an envelope the notary has not receipted counts for nothing, so a player whose node
 * cannot reach it must know, and know when it is back.
 */
export function witnessPrinter(io: CliIo, json: boolean, notices = new Notices()): (e: WitnessEvent) => void {
  return (e) => {
    if (json || e.kind === 'receipt') return
    const line =
      e.kind === 'unreachable'
        ? `the notary cannot be reached (${e.detail}): whatever your node signs meanwhile is kept here and deposited once it answers; until then your opponent cannot see it`
        : e.kind === 'reachable'
          ? 'the notary answers again: your envelopes are being deposited'
          : `the notary refused: ${e.detail}`
    notices.say(() => {
      io.stderr(`${wrap(line, SCREEN_COLUMNS, '')}\n`)
    })
  }
}

/** The opponent's setup from its reveal in this transcript, if it revealed. */
function revealedFleet(transcript: readonly Uint8Array[], them: Role): Setup | undefined {
  for (const bytes of transcript) {
    const d = decodeEnvelope(bytes)
    if (!d.ok || d.value.envelope.sender !== them) continue
    const reveal = d.value.envelope.parts.find((p) => p.t === 'reveal')
    if (reveal?.t === 'reveal') return reveal.setup
  }
  return undefined
}

/** The end of a game on this side: the final boards, the score, and the verifier's verdict. */
export async function finishGame(
  io: CliIo,
  f: GameFlags,
  result: SessionResult,
  transcriptPath: string,
  lastView: TurnContext | undefined,
  me: Role,
  id: string,
): Promise<number> {
  const text = formatTranscript(result.transcript)
  if (f.out !== undefined) await io.writeFile(f.out, text)
  const audited = verifyTranscript(text)
  if (f.json === true) {
    io.stdout(
      `${JSON.stringify({ game: id, you: me, transcript: f.out ?? transcriptPath, verdict: result.verdict, verifier: audited }, null, 2)}\n`,
    )
    return exitFor(audited)
  }
  const screen = screenFor(io)
  if (lastView !== undefined) screen.print(renderBoards(lastView, screen.paint, screen.columns))
  const theirs = revealedFleet(result.transcript, otherRole(me))
  if (theirs !== undefined)
    screen.print(
      [
        '',
        ...renderSpace(
          'Their fleet, as they revealed it (where each ship was placed)',
          ownMarks(initialPlayerState(theirs)),
          screen.paint,
          screen.columns,
        ),
      ].join('\n'),
    )
  // Wrapped to the terminal (100 columns at most), words whole: an outcome can be two lines long.
  const width = Math.min(SCREEN_COLUMNS, io.columns ?? SCREEN_COLUMNS)
  io.stdout(`\n${screen.paint(wrap(outcomeLine(result.verdict, me), width, ''), 'hit')}\n`)
  io.stdout(
    `\nThe game is over. Your node's verdict (nothing signed states it: the transcript is the evidence):\n${renderVerdict(result.verdict)}`,
  )
  io.stdout(
    `Transcript: ${f.out ?? transcriptPath}\nThe verifier, reading it with no trust in either player:\n${renderVerdict(audited)}`,
  )
  const cmd = commandName(env(io))
  const checked = f.out ?? transcriptPath
  io.stdout(
    `Check it yourself: ${cmd} verify ${/^[\w./:@+-]+$/.test(checked) ? checked : JSON.stringify(checked)}\nSaved as game ${id.slice(0, 8)} (${cmd} games); its record for the referee: ${cmd} export ${id.slice(0, 8)}\n`,
  )
  return exitFor(audited)
}
