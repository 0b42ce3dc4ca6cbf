import { sql } from 'kysely';
import type SQLite from 'better-sqlite3';
import type { Db } from '../../db/connection';

export interface DownloadResult {
  download_url: string;
  download_count: number;
}

interface Pending {
  id: number;
  resolve: (result: DownloadResult | undefined) => void;
  reject: (error: unknown) => void;
}

/** Per resource id in a batch: how many downloads, and the row after adding them all. */
type Totals = Map<number, { url: string; count: number } | undefined>;

/**
 * Records downloads with group commit: the downloads that arrive together (everything queued
 * until the event loop's next check phase on SQLite, or while the previous batch is being
 * written on PostgreSQL) are written in ONE transaction — one atomic `count = count + n` per
 * resource and one per-day increment — and each request is answered only after that commit.
 * Nothing is counted twice or lost: a batch commits or fails as a whole (every request in it then
 * gets the error), and each request gets its own exact count (the k-th of n downloads of a row
 * whose count became C sees C - n + k).
 *
 * Why: a commit per download wrote the same few pages (row, two indexes holding download_count,
 * per-day row) again for every download and, on PostgreSQL, waited for a WAL flush and the row
 * lock each time; a popular resource serialised every download behind one another.
 */
export function createDownloadRecorder(database: Db, dayOf: () => string) {
  let queue: Pending[] = [];
  let scheduled = false;
  let writing = false;

  const write = (ids: Map<number, number>, day: string): Promise<Totals> | Totals => {
    // Kysely may hold a transaction open on the one SQLite connection; then wait for it through Kysely.
    if (database.sqlite && !database.sqlite.inTransaction) return sqliteBatch(database.sqlite)(ids, day);
    return kyselyBatch(database, ids, day);
  };

  const flush = async () => {
    scheduled = false;
    if (writing || queue.length === 0) return;
    const batch = queue;
    queue = [];
    writing = true;
    const n = new Map<number, number>();
    for (const p of batch) n.set(p.id, (n.get(p.id) ?? 0) + 1);
    try {
      const totals = await write(n, dayOf());
      const seen = new Map<number, number>();
      for (const p of batch) {
        const row = totals.get(p.id);
        if (!row) {
          p.resolve(undefined);
          continue;
        }
        const k = (seen.get(p.id) ?? 0) + 1;
        seen.set(p.id, k);
        p.resolve({ download_url: row.url, download_count: row.count - n.get(p.id)! + k });
      }
    } catch (error) {
      for (const p of batch) p.reject(error);
    } finally {
      writing = false;
      if (queue.length > 0) schedule();
    }
  };

  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(flush);
  };

  /** One download of resource `id`: its URL and new count, or undefined when there is no such resource. */
  return function recordDownload(id: number): Promise<DownloadResult | undefined> {
    return new Promise((resolve, reject) => {
      queue.push({ id, resolve, reject });
      schedule();
    });
  };
}

const sqliteBatches = new WeakMap<SQLite.Database, (ids: Map<number, number>, day: string) => Totals>();

/** SQLite: prepared statements in one synchronous transaction (no other request interleaves). */
function sqliteBatch(sqlite: SQLite.Database) {
  let run = sqliteBatches.get(sqlite);
  if (!run) {
    const increment = sqlite.prepare<[number, number], { download_url: string; download_count: number }>(
      'update resources set download_count = download_count + ? where id = ? returning download_url, download_count',
    );
    const perDay = sqlite.prepare<[string, number, number]>(
      'insert into download_days (day, count) values (?, ?) on conflict (day) do update set count = download_days.count + ?',
    );
    run = sqlite.transaction((ids: Map<number, number>, day: string): Totals => {
      const totals: Totals = new Map();
      let counted = 0;
      for (const [id, n] of ids) {
        const row = increment.get(n, id);
        totals.set(id, row && { url: row.download_url, count: Number(row.download_count) });
        if (row) counted += n;
      }
      if (counted > 0) perDay.run(day, counted, counted);
      return totals;
    });
    sqliteBatches.set(sqlite, run);
  }
  return run;
}

/**
 * PostgreSQL (and SQLite while Kysely holds its transaction): both writes in one statement
 * (data-modifying CTEs), atomic on its own and one round trip. Rows are locked in id order, so
 * two instances writing overlapping batches cannot deadlock.
 */
async function kyselyBatch(database: Db, ids: Map<number, number>, day: string): Promise<Totals> {
  const totals: Totals = new Map();
  const entries = [...ids].sort(([a], [b]) => a - b);
  if (database.dialect === 'postgres') {
    const { rows } = await sql<{ id: number; download_url: string; download_count: number }>`
      with c (id, n) as (select * from unnest(${entries.map(([id]) => id)}::int[], ${entries.map(([, n]) => n)}::int[])),
      l as (select r.id from resources r join c on c.id = r.id order by r.id for update of r),
      u as (
        update resources set download_count = download_count + c.n from c join l on l.id = c.id
        where resources.id = c.id returning resources.id, download_url, download_count, c.n
      ), d as (
        insert into download_days (day, count) select ${day}, sum(n) from u having count(*) > 0
        on conflict (day) do update set count = download_days.count + excluded.count
      )
      select id, download_url, download_count from u`.execute(database.db);
    for (const [id] of entries) totals.set(id, undefined);
    for (const r of rows) totals.set(Number(r.id), { url: r.download_url, count: Number(r.download_count) });
    return totals;
  }
  return database.db.transaction().execute(async (trx) => {
    let counted = 0;
    for (const [id, n] of entries) {
      const row = await trx
        .updateTable('resources')
        .set((eb) => ({ download_count: eb('download_count', '+', n) }))
        .where('id', '=', id)
        .returning(['download_url', 'download_count'])
        .executeTakeFirst();
      totals.set(id, row && { url: row.download_url, count: Number(row.download_count) });
      if (row) counted += n;
    }
    if (counted > 0) {
      await trx
        .insertInto('download_days')
        .values({ day, count: counted })
        .onConflict((oc) => oc.column('day').doUpdateSet((eb) => ({ count: eb('download_days.count', '+', counted) })))
        .execute();
    }
    return totals;
  });
}
