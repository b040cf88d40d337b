/**
 * The notary's database (PROTOCOL-4.md §5.4, NOTARY.md §8): node:sqlite, synchronous. Each receipt
 * is written with its deposit, the notary's last time and the bytes held in one transaction,
 * committed with `synchronous = FULL` before the receipt is returned, so a receipt anyone holds is
 * on disk, and the notary's time never goes back across a restart. node:sqlite runs without a flag
 * from Node 22.13, hence package.json `engines` (and cli/bin.ts MINIMUM_NODE).
 */
import { DatabaseSync } from 'node:sqlite'

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS games (
  game BLOB PRIMARY KEY, hello_a BLOB NOT NULL, hello_b BLOB NOT NULL, sealed_at INTEGER
) STRICT;
CREATE TABLE IF NOT EXISTS receipts (
  game BLOB NOT NULL, idx INTEGER NOT NULL, bytes BLOB NOT NULL, sender INTEGER, seq INTEGER,
  complainant INTEGER, PRIMARY KEY (game, idx)
) STRICT;
CREATE UNIQUE INDEX IF NOT EXISTS receipts_place ON receipts (game, sender, seq) WHERE sender IS NOT NULL;
CREATE TABLE IF NOT EXISTS deposits (game BLOB NOT NULL, idx INTEGER NOT NULL, bytes BLOB NOT NULL, PRIMARY KEY (game, idx)) STRICT;
`

export interface StoredGame {
  readonly helloA: Uint8Array
  readonly helloB: Uint8Array
  readonly sealedAt: number | undefined
}

/** One receipt to write, with what it brings: a new game, a deposit, a seal, a complaint's side. */
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
}

type Row = Record<string, unknown>
const blob = (v: unknown): Uint8Array => (v instanceof Uint8Array ? v : new Uint8Array())
const int = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : 0)

export class NotaryStore {
  private readonly db: DatabaseSync

  /** Opens (or creates) the database at `path` (`:memory:` for a test that needs no file). */
  constructor(path: string) {
    this.db = new DatabaseSync(path)
    this.db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;')
    this.db.exec(SCHEMA)
  }

  private meta(key: string): number {
    return int((this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as Row | undefined)?.['value'])
  }

  private setMeta(key: string, value: number): void {
    this.db
      .prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value')
      .run(key, value)
  }

  /** The time of the last receipt the notary signed (0 before any). */
  lastTime(): number {
    return this.meta('last_time')
  }

  /** Bytes of hellos, receipts and deposits held. */
  bytesHeld(): number {
    return this.meta('bytes_held')
  }

  game(game: Uint8Array): StoredGame | undefined {
    const row = this.db.prepare('SELECT hello_a, hello_b, sealed_at FROM games WHERE game = ?').get(game) as
      Row | undefined
    if (row === undefined) return undefined
    const sealed = row['sealed_at']
    return {
      helloA: blob(row['hello_a']),
      helloB: blob(row['hello_b']),
      sealedAt: sealed === null ? undefined : int(sealed),
    }
  }

  openGames(): number {
    return int((this.db.prepare('SELECT count(*) AS n FROM games WHERE sealed_at IS NULL').get() as Row)['n'])
  }

  /** Receipts from `from` in index order, as stored. */
  receipts(game: Uint8Array, from: number): Uint8Array[] {
    const rows = this.db
      .prepare('SELECT bytes FROM receipts WHERE game = ? AND idx >= ? ORDER BY idx')
      .all(game, from) as Row[]
    return rows.map((r) => blob(r['bytes']))
  }

  receiptCount(game: Uint8Array): number {
    return int((this.db.prepare('SELECT count(*) AS n FROM receipts WHERE game = ?').get(game) as Row)['n'])
  }

  /** The envelope receipt at a place, with its index. */
  atPlace(game: Uint8Array, sender: number, seq: number): { index: number; bytes: Uint8Array } | undefined {
    const row = this.db
      .prepare('SELECT idx, bytes FROM receipts WHERE game = ? AND sender = ? AND seq = ?')
      .get(game, sender, seq) as Row | undefined
    return row === undefined ? undefined : { index: int(row['idx']), bytes: blob(row['bytes']) }
  }

  lastSeq(game: Uint8Array, sender: number): number {
    return int(
      (this.db.prepare('SELECT max(seq) AS s FROM receipts WHERE game = ? AND sender = ?').get(game, sender) as Row)[
        's'
      ],
    )
  }

  /** The complaint receipts of one complainant, as stored. */
  complaints(game: Uint8Array, complainant: number): Uint8Array[] {
    const rows = this.db
      .prepare('SELECT bytes FROM receipts WHERE game = ? AND complainant = ? ORDER BY idx')
      .all(game, complainant) as Row[]
    return rows.map((r) => blob(r['bytes']))
  }

  deposit(game: Uint8Array, index: number): Uint8Array | undefined {
    const row = this.db.prepare('SELECT bytes FROM deposits WHERE game = ? AND idx = ?').get(game, index) as
      Row | undefined
    return row === undefined ? undefined : blob(row['bytes'])
  }

  private transaction(work: () => void): void {
    this.db.exec('BEGIN IMMEDIATE')
    try {
      work()
      this.db.exec('COMMIT')
    } catch (e) {
      this.db.exec('ROLLBACK')
      throw e
    }
  }

  /** Writes one receipt and all it brings, committed before this returns (NOTARY.md §8). */
  append(a: Append): void {
    this.transaction(() => {
      let bytes = a.bytes.length
      if (a.hellos !== undefined) {
        this.db
          .prepare('INSERT INTO games (game, hello_a, hello_b) VALUES (?, ?, ?)')
          .run(a.game, a.hellos.helloA, a.hellos.helloB)
        bytes += a.hellos.helloA.length + a.hellos.helloB.length
      }
      this.db
        .prepare('INSERT INTO receipts (game, idx, bytes, sender, seq, complainant) VALUES (?, ?, ?, ?, ?, ?)')
        .run(a.game, a.index, a.bytes, a.place?.sender ?? null, a.place?.seq ?? null, a.complainant ?? null)
      if (a.deposit !== undefined) {
        this.db.prepare('INSERT INTO deposits (game, idx, bytes) VALUES (?, ?, ?)').run(a.game, a.index, a.deposit)
        bytes += a.deposit.length
      }
      if (a.seal === true) this.db.prepare('UPDATE games SET sealed_at = ? WHERE game = ?').run(a.time, a.game)
      this.setMeta('last_time', Math.max(this.lastTime(), a.time))
      this.setMeta('bytes_held', this.bytesHeld() + bytes)
    })
  }

  /** Deletes the deposits of games sealed at or before `sealedBy` (PROTOCOL-4.md §4.6); how many. */
  deleteDeposits(sealedBy: number): number {
    let deleted = 0
    this.transaction(() => {
      const where = 'game IN (SELECT game FROM games WHERE sealed_at IS NOT NULL AND sealed_at <= ?)'
      const freed = int(
        (this.db.prepare(`SELECT total(length(bytes)) AS n FROM deposits WHERE ${where}`).get(sealedBy) as Row)['n'],
      )
      deleted = int(this.db.prepare(`DELETE FROM deposits WHERE ${where}`).run(sealedBy).changes)
      this.setMeta('bytes_held', this.bytesHeld() - freed)
    })
    return deleted
  }

  close(): void {
    this.db.close()
  }
}
