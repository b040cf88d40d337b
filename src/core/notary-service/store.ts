/**
 * The notary's database (PROTOCOL-4.md §5.4, NOTARY.md §8): node:sqlite, synchronous. Each receipt
 * is written with its deposit, the notary's last time and the bytes held in one transaction,
 * committed with `synchronous = FULL` before the receipt is returned, so a receipt anyone holds is
 * on disk, and the notary's time never goes back across a restart. node:sqlite runs without a flag
 * from Node 22.13, hence package.json `engines` (and cli/bin.ts MINIMUM_NODE).
 *
 * Group commit ("commits may be grouped"): between `beginGroup` and `commitGroup` every write goes
 * into one open transaction (each append in a savepoint of its own, so one that fails leaves the
 * others), and one COMMIT, one fsync, makes them all durable. The caller (group-commit.ts) answers
 * none of them before that COMMIT returns; a crash before it loses only receipts nobody was given.
 */
import { DatabaseSync, type StatementSync } from 'node:sqlite'

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS games (
  game BLOB PRIMARY KEY, hello_a BLOB NOT NULL, hello_b BLOB NOT NULL, sealed_at INTEGER
) STRICT;
CREATE TABLE IF NOT EXISTS receipts (
  game BLOB NOT NULL, idx INTEGER NOT NULL, bytes BLOB NOT NULL, sender INTEGER, seq INTEGER,
  complainant INTEGER, claim_sender INTEGER, claim_seq INTEGER, PRIMARY KEY (game, idx)
) STRICT;
CREATE TABLE IF NOT EXISTS deposits (game BLOB NOT NULL, idx INTEGER NOT NULL, bytes BLOB NOT NULL, PRIMARY KEY (game, idx)) STRICT;
CREATE TABLE IF NOT EXISTS relays (
  game BLOB NOT NULL, idx INTEGER NOT NULL, from_index INTEGER NOT NULL, to_index INTEGER NOT NULL, wrap BLOB NOT NULL,
  PRIMARY KEY (game, idx, from_index, to_index)
) STRICT;
`

/**
 * Columns added since the first schema, each with the statement that adds it to a database made
 * before it (nullable, so the receipts already held keep their meaning: none of them is a claim).
 */
const ADDED_COLUMNS = [
  ['receipts', 'claim_sender', 'ALTER TABLE receipts ADD COLUMN claim_sender INTEGER'],
  ['receipts', 'claim_seq', 'ALTER TABLE receipts ADD COLUMN claim_seq INTEGER'],
  ['receipts', 'mark_t', 'ALTER TABLE receipts ADD COLUMN mark_t INTEGER'],
  ['receipts', 'mark_cut', 'ALTER TABLE receipts ADD COLUMN mark_cut INTEGER'],
] as const

/**
 * An envelope receipt by its place (`sender`, `seq`), a claim receipt by its own (`claim_sender`,
 * `claim_seq`): PROTOCOL-4.md §4.4, one claim receipt per place, found again after a restart.
 */
const INDEXES = `
CREATE UNIQUE INDEX IF NOT EXISTS receipts_place ON receipts (game, sender, seq) WHERE sender IS NOT NULL;
CREATE UNIQUE INDEX IF NOT EXISTS receipts_claim ON receipts (game, claim_sender, claim_seq) WHERE claim_sender IS NOT NULL;
CREATE UNIQUE INDEX IF NOT EXISTS receipts_mark ON receipts (game, mark_t, mark_cut) WHERE mark_t IS NOT NULL;
`

export interface StoredGame {
  readonly helloA: Uint8Array
  readonly helloB: Uint8Array
  readonly sealedAt: number | undefined
}

/**
 * One receipt to write, with what it brings: a new game, an envelope's place and deposit, a seal,
 * a complaint's side, a claim's place.
 */
export interface Append {
  readonly game: Uint8Array
  readonly index: number
  readonly bytes: Uint8Array
  readonly time: number
  readonly hellos?: { readonly helloA: Uint8Array; readonly helloB: Uint8Array }
  readonly place?: { readonly sender: number; readonly seq: number }
  readonly deposit?: Uint8Array
  readonly complainant?: number
  readonly seal?: boolean
  /** A claim receipt's `(sender, seq)` (PROTOCOL-4.md §4.4), kept apart from the envelopes' places. */
  readonly claim?: { readonly sender: number; readonly seq: number }
  /** A mark receipt's `(t, cut)` (SPAAACE-WITNESSED §6.2: one per cut, found again after a restart). */
  readonly mark?: { readonly t: number; readonly cut: number }
}

/** SPAAACE-WITNESSED §5.4: a relay the notary holds (not a receipt). */
export interface StoredRelay {
  readonly index: number
  readonly from: number
  readonly to: number
  readonly wrap: Uint8Array
}

type Row = Record<string, unknown>
const blob = (v: unknown): Uint8Array => (v instanceof Uint8Array ? v : new Uint8Array())
const int = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : 0)

export class NotaryStore {
  private readonly db: DatabaseSync
  /** Prepared once: preparing a statement cost more than running it (profiled under load). */
  private readonly statements = new Map<string, StatementSync>()
  /** The meta values as committed or written in the open transaction (read from the file again after a rollback). */
  private cached: { lastTime: number; bytesHeld: number }
  private grouped = false

  /** Opens (or creates) the database at `path` (`:memory:` for a test that needs no file). */
  constructor(path: string) {
    this.db = new DatabaseSync(path)
    this.db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;')
    this.db.exec(SCHEMA)
    this.addColumns()
    this.db.exec(INDEXES)
    this.cached = this.readMeta()
  }

  /** Brings a database made by an earlier schema up to this one (ADDED_COLUMNS), in one transaction. */
  private addColumns(): void {
    const has = (table: string, column: string): boolean =>
      (this.db.prepare(`PRAGMA table_info(${table})`).all() as Row[]).some((r) => r['name'] === column)
    const missing = ADDED_COLUMNS.filter(([table, column]) => !has(table, column))
    if (missing.length === 0) return
    this.db.exec('BEGIN IMMEDIATE')
    try {
      for (const [, , statement] of missing) this.db.exec(statement)
      this.db.exec('COMMIT')
    } catch (e) {
      this.db.exec('ROLLBACK')
      throw e
    }
  }

  private sql(text: string): StatementSync {
    let st = this.statements.get(text)
    if (st === undefined) {
      st = this.db.prepare(text)
      this.statements.set(text, st)
    }
    return st
  }

  private meta(key: string): number {
    return int((this.sql('SELECT value FROM meta WHERE key = ?').get(key) as Row | undefined)?.['value'])
  }

  private readMeta(): { lastTime: number; bytesHeld: number } {
    return { lastTime: this.meta('last_time'), bytesHeld: this.meta('bytes_held') }
  }

  private setMeta(key: string, value: number): void {
    this.sql('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(
      key,
      value,
    )
  }

  /** The time of the last receipt the notary signed (0 before any). */
  lastTime(): number {
    return this.cached.lastTime
  }

  /** Bytes of hellos, receipts and deposits held. */
  bytesHeld(): number {
    return this.cached.bytesHeld
  }

  game(game: Uint8Array): StoredGame | undefined {
    const row = this.sql('SELECT hello_a, hello_b, sealed_at FROM games WHERE game = ?').get(game) as Row | undefined
    if (row === undefined) return undefined
    const sealed = row['sealed_at']
    return {
      helloA: blob(row['hello_a']),
      helloB: blob(row['hello_b']),
      sealedAt: sealed === null ? undefined : int(sealed),
    }
  }

  openGames(): number {
    return int((this.sql('SELECT count(*) AS n FROM games WHERE sealed_at IS NULL').get() as Row)['n'])
  }

  /** Receipts from `from` in index order, as stored. */
  receipts(game: Uint8Array, from: number): Uint8Array[] {
    const rows = this.sql('SELECT bytes FROM receipts WHERE game = ? AND idx >= ? ORDER BY idx').all(
      game,
      from,
    ) as Row[]
    return rows.map((r) => blob(r['bytes']))
  }

  receiptCount(game: Uint8Array): number {
    return int((this.sql('SELECT count(*) AS n FROM receipts WHERE game = ?').get(game) as Row)['n'])
  }

  /** The envelope receipt at a place, with its index. */
  atPlace(game: Uint8Array, sender: number, seq: number): { index: number; bytes: Uint8Array } | undefined {
    const row = this.sql('SELECT idx, bytes FROM receipts WHERE game = ? AND sender = ? AND seq = ?').get(
      game,
      sender,
      seq,
    ) as Row | undefined
    return row === undefined ? undefined : { index: int(row['idx']), bytes: blob(row['bytes']) }
  }

  /** The claim receipt of `sender` at `seq` (PROTOCOL-4.md §4.4), with its index. */
  claimAt(game: Uint8Array, sender: number, seq: number): { index: number; bytes: Uint8Array } | undefined {
    const row = this.sql('SELECT idx, bytes FROM receipts WHERE game = ? AND claim_sender = ? AND claim_seq = ?').get(
      game,
      sender,
      seq,
    ) as Row | undefined
    return row === undefined ? undefined : { index: int(row['idx']), bytes: blob(row['bytes']) }
  }

  /** The sender's last receipted envelope `seq` (0 before any); claim receipts are not envelopes. */
  lastSeq(game: Uint8Array, sender: number): number {
    return int(
      (this.sql('SELECT max(seq) AS s FROM receipts WHERE game = ? AND sender = ?').get(game, sender) as Row)['s'],
    )
  }

  /** The complaint receipts of one complainant, as stored. */
  complaints(game: Uint8Array, complainant: number): Uint8Array[] {
    const rows = this.sql('SELECT bytes FROM receipts WHERE game = ? AND complainant = ? ORDER BY idx').all(
      game,
      complainant,
    ) as Row[]
    return rows.map((r) => blob(r['bytes']))
  }

  /** The mark receipt of `(t, cut)` (SPAAACE-WITNESSED §6.2), with its index. */
  markAt(game: Uint8Array, t: number, cut: number): { index: number; bytes: Uint8Array } | undefined {
    const row = this.sql('SELECT idx, bytes FROM receipts WHERE game = ? AND mark_t = ? AND mark_cut = ?').get(
      game,
      t,
      cut,
    ) as Row | undefined
    return row === undefined ? undefined : { index: int(row['idx']), bytes: blob(row['bytes']) }
  }

  /** Whether a relay for `(index, from, to)` is held (SPAAACE-WITNESSED §5.4: one each). */
  hasRelay(game: Uint8Array, index: number, from: number, to: number): boolean {
    return (
      this.sql('SELECT 1 AS one FROM relays WHERE game = ? AND idx = ? AND from_index = ? AND to_index = ?').get(
        game,
        index,
        from,
        to,
      ) !== undefined
    )
  }

  /** The relays held for `to`, by index then sender (SPAAACE-WITNESSED §9.1 request 9). */
  relaysFor(game: Uint8Array, to: number): StoredRelay[] {
    const rows = this.sql(
      'SELECT idx, from_index, to_index, wrap FROM relays WHERE game = ? AND to_index = ? ORDER BY idx, from_index',
    ).all(game, to) as Row[]
    return rows.map((r) => ({
      index: int(r['idx']),
      from: int(r['from_index']),
      to: int(r['to_index']),
      wrap: blob(r['wrap']),
    }))
  }

  /**
   * Holds a relay (SPAAACE-WITNESSED §5.4), in a transaction of its own or the open group's
   * savepoint, with the bytes held (NOTARY.md §8's discipline: durable before it is acknowledged).
   */
  holdRelay(game: Uint8Array, r: StoredRelay): void {
    this.transaction(() => {
      this.sql('INSERT INTO relays (game, idx, from_index, to_index, wrap) VALUES (?, ?, ?, ?, ?)').run(
        game,
        r.index,
        r.from,
        r.to,
        r.wrap,
      )
      this.cached = { ...this.cached, bytesHeld: this.cached.bytesHeld + r.wrap.length }
      this.setMeta('bytes_held', this.cached.bytesHeld)
    })
  }

  deposit(game: Uint8Array, index: number): Uint8Array | undefined {
    const row = this.sql('SELECT bytes FROM deposits WHERE game = ? AND idx = ?').get(game, index) as Row | undefined
    return row === undefined ? undefined : blob(row['bytes'])
  }

  /** Whether a group is open (NOTARY.md §8: nothing written in it is durable before `commitGroup`). */
  get inGroup(): boolean {
    return this.grouped
  }

  /** Opens a group: the writes until `commitGroup` share one transaction and one fsync. */
  beginGroup(): void {
    if (this.grouped) throw new Error('a group is already open')
    this.db.exec('BEGIN IMMEDIATE')
    this.grouped = true
  }

  /** Commits the group, durably (`synchronous = FULL`); on failure rolls it back and throws. */
  commitGroup(): void {
    if (!this.grouped) throw new Error('no group is open')
    this.grouped = false
    try {
      this.db.exec('COMMIT')
    } catch (e) {
      this.rollbackGroup()
      throw e
    }
  }

  /** Drops everything written in the group (a failed commit; a test's crash before it). */
  rollbackGroup(): void {
    this.grouped = false
    if (this.db.isTransaction) this.db.exec('ROLLBACK')
    this.cached = this.readMeta()
  }

  /** One unit of writes: its own durable transaction, or a savepoint of the open group. */
  private transaction(work: () => void): void {
    const before = this.cached
    const [begin, commit, rollback] = this.grouped
      ? ['SAVEPOINT one', 'RELEASE one', 'ROLLBACK TO one; RELEASE one']
      : ['BEGIN IMMEDIATE', 'COMMIT', 'ROLLBACK']
    this.db.exec(begin)
    try {
      work()
      this.db.exec(commit)
    } catch (e) {
      this.cached = before
      if (this.db.isTransaction) this.db.exec(rollback)
      throw e
    }
  }

  /** Writes one receipt and all it brings, committed before this returns (NOTARY.md §8). */
  append(a: Append): void {
    this.transaction(() => {
      let bytes = a.bytes.length
      if (a.hellos !== undefined) {
        this.sql('INSERT INTO games (game, hello_a, hello_b) VALUES (?, ?, ?)').run(
          a.game,
          a.hellos.helloA,
          a.hellos.helloB,
        )
        bytes += a.hellos.helloA.length + a.hellos.helloB.length
      }
      this.sql(
        'INSERT INTO receipts (game, idx, bytes, sender, seq, complainant, claim_sender, claim_seq, mark_t, mark_cut) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ).run(
        a.game,
        a.index,
        a.bytes,
        a.place?.sender ?? null,
        a.place?.seq ?? null,
        a.complainant ?? null,
        a.claim?.sender ?? null,
        a.claim?.seq ?? null,
        a.mark?.t ?? null,
        a.mark?.cut ?? null,
      )
      if (a.deposit !== undefined) {
        this.sql('INSERT INTO deposits (game, idx, bytes) VALUES (?, ?, ?)').run(a.game, a.index, a.deposit)
        bytes += a.deposit.length
      }
      if (a.seal === true) this.sql('UPDATE games SET sealed_at = ? WHERE game = ?').run(a.time, a.game)
      const next = { lastTime: Math.max(this.cached.lastTime, a.time), bytesHeld: this.cached.bytesHeld + bytes }
      this.setMeta('last_time', next.lastTime)
      this.setMeta('bytes_held', next.bytesHeld)
      this.cached = next
    })
  }

  /** Deletes the deposits (and relays) of games sealed at or before `sealedBy` (PROTOCOL-4.md §4.6); how many deposits. */
  deleteDeposits(sealedBy: number): number {
    let deleted = 0
    this.transaction(() => {
      const where = 'game IN (SELECT game FROM games WHERE sealed_at IS NOT NULL AND sealed_at <= ?)'
      const freed = int(
        (this.sql(`SELECT total(length(bytes)) AS n FROM deposits WHERE ${where}`).get(sealedBy) as Row)['n'],
      )
      deleted = int(this.sql(`DELETE FROM deposits WHERE ${where}`).run(sealedBy).changes)
      // SPAAACE-WITNESSED §9.4: relays go with the deposits.
      const relayed = int(
        (this.sql(`SELECT total(length(wrap)) AS n FROM relays WHERE ${where}`).get(sealedBy) as Row)['n'],
      )
      this.sql(`DELETE FROM relays WHERE ${where}`).run(sealedBy)
      this.cached = { ...this.cached, bytesHeld: this.cached.bytesHeld - freed - relayed }
      this.setMeta('bytes_held', this.cached.bytesHeld)
    })
    return deleted
  }

  /** Closes the database; a group still open is rolled back, as a crash would leave it. */
  close(): void {
    this.grouped = false
    this.db.close()
  }
}
