import { sql } from 'kysely';
import type SQLite from 'better-sqlite3';
import type { Database } from '../../db/connection';
import { IS_PUBLIC_SQL_TEXT, isPublicSql } from '../resources/visibility';

/** One download to record: of resource `id` on `day`, by `visitor` (null: every download counts), limited under `rateKey` (null: no limit). */
export interface DownloadAttempt {
  id: number;
  day: string;
  visitor: string | null;
  rateKey: string | null;
}

export type DownloadOutcome =
  /** `count` is the resource's count after this download (or, when it did not count, after the batch it was in). */
  | { kind: 'recorded'; url: string; count: number; counted: boolean }
  | { kind: 'missing' }
  | { kind: 'limited'; retryMs: number };

interface Pending {
  attempt: DownloadAttempt;
  resolve: (outcome: DownloadOutcome) => void;
  reject: (error: unknown) => void;
}

export interface RecorderOptions {
  /** Recorded downloads per rate key per window; 0 = no limit. */
  rateLimit: number;
  windowMs?: number;
  now?: () => Date;
}

export const DOWNLOAD_RATE_WINDOW_MS = 60_000;

/** What a batch's writes report back, for `answer` to turn into one outcome per attempt. */
interface Written {
  /** Per attempt: how long until its client may record again, or null when within its limit. */
  limited: (number | null)[];
  /** Resources found, with their count before this batch. */
  rows: Map<number, { url: string; before: number }>;
  /** Per attempt: whether it added a download. */
  counted: boolean[];
}

/**
 * Records downloads with group commit: the downloads that arrive together (everything queued
 * until the event loop's next check phase on SQLite, or while the previous batch is being
 * written on PostgreSQL) are written together — the rate-limit hits, the day's visitor set
 * (insert-on-conflict: a visitor already in it adds nothing), one `count = count + n` per
 * resource, its per-day row and the day's total — and each request is answered only after that
 * commit. Nothing is counted twice or lost: the counting writes of a batch commit or fail as a
 * whole (every request in it then gets the error), and each counted download sees its own exact
 * count (the k-th of n counted downloads of a row whose count became C sees C - n + k).
 *
 * Why: a commit per download wrote the same few pages again for every download and, on
 * PostgreSQL, waited for a WAL flush and the row lock each time; a popular resource serialised
 * every download behind one another.
 */
export function createDownloadRecorder(database: Database, options: RecorderOptions) {
  const windowMs = options.windowMs ?? DOWNLOAD_RATE_WINDOW_MS;
  const now = options.now ?? (() => new Date());
  let queue: Pending[] = [];
  let scheduled = false;
  let writing = false;

  const write = (attempts: DownloadAttempt[], day: string): Promise<Written> | Written => {
    const t = now();
    const clock = { now: t.toISOString(), nowMs: t.getTime(), resetAt: new Date(t.getTime() + windowMs).toISOString(), limit: options.rateLimit };
    if (database.sqlite) return sqliteWriter(database.sqlite)(attempts, day, clock);
    return postgresBatch(database, attempts, day, clock);
  };

  const flush = async () => {
    scheduled = false;
    if (writing || queue.length === 0) return;
    // Kysely may hold a transaction open on the one SQLite connection: write after it ends.
    if (database.sqlite?.inTransaction) {
      scheduled = true;
      setTimeout(flush, 1);
      return;
    }
    const batch = queue;
    queue = [];
    writing = true;
    try {
      // One batch is one day (a batch straddling midnight is written as two).
      const days = new Map<string, Pending[]>();
      for (const p of batch) {
        const same = days.get(p.attempt.day);
        if (same) same.push(p);
        else days.set(p.attempt.day, [p]);
      }
      for (const [day, pending] of days) {
        const attempts = pending.map((p) => p.attempt);
        const outcomes = answer(attempts, await write(attempts, day));
        pending.forEach((p, i) => p.resolve(outcomes[i]));
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

  return function recordDownload(attempt: DownloadAttempt): Promise<DownloadOutcome> {
    return new Promise((resolve, reject) => {
      queue.push({ attempt, resolve, reject });
      schedule();
    });
  };
}

interface Clock {
  now: string;
  nowMs: number;
  resetAt: string;
  limit: number;
}

/** Attempts per rate key, in order. */
function rateKeys(attempts: DownloadAttempt[], limit: number): Map<string, number> {
  const n = new Map<string, number>();
  if (limit > 0) for (const a of attempts) if (a.rateKey) n.set(a.rateKey, (n.get(a.rateKey) ?? 0) + 1);
  return new Map([...n].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
}

/** The j-th attempt under a key whose window now holds `count` after adding n is attempt count - n + j. */
function limitedAttempts(attempts: DownloadAttempt[], hits: Map<string, { count: number; n: number; resetAt: string }>, clock: Clock): (number | null)[] {
  const seen = new Map<string, number>();
  return attempts.map((a) => {
    const hit = a.rateKey ? hits.get(a.rateKey) : undefined;
    if (!hit) return null;
    const j = (seen.get(a.rateKey!) ?? 0) + 1;
    seen.set(a.rateKey!, j);
    return hit.count - hit.n + j > clock.limit ? Math.max(1, Date.parse(hit.resetAt) - clock.nowMs) : null;
  });
}

function answer(attempts: DownloadAttempt[], { limited, rows, counted }: Written): DownloadOutcome[] {
  const added = new Map<number, number>();
  attempts.forEach((a, i) => {
    if (counted[i]) added.set(a.id, (added.get(a.id) ?? 0) + 1);
  });
  const seen = new Map<number, number>();
  return attempts.map((a, i): DownloadOutcome => {
    const retryMs = limited[i];
    if (retryMs !== null) return { kind: 'limited', retryMs };
    const row = rows.get(a.id);
    if (!row) return { kind: 'missing' };
    if (!counted[i]) return { kind: 'recorded', url: row.url, count: row.before + (added.get(a.id) ?? 0), counted: false };
    const k = (seen.get(a.id) ?? 0) + 1;
    seen.set(a.id, k);
    return { kind: 'recorded', url: row.url, count: row.before + k, counted: true };
  });
}

type SqliteWrite = (attempts: DownloadAttempt[], day: string, clock: Clock) => Written;
const sqliteWriters = new WeakMap<SQLite.Database, SqliteWrite>();

/** SQLite: prepared statements in one synchronous transaction (no other request interleaves). */
function sqliteWriter(sqlite: SQLite.Database): SqliteWrite {
  let run = sqliteWriters.get(sqlite);
  if (run) return run;
  const hit = sqlite.prepare<[{ key: string; n: number; resetAt: string; now: string }], { count: number; reset_at: string }>(
    `insert into rate_limits (key, count, reset_at) values (@key, @n, @resetAt) on conflict (key) do update set
       count = case when rate_limits.reset_at <= @now then excluded.count else rate_limits.count + excluded.count end,
       reset_at = case when rate_limits.reset_at <= @now then excluded.reset_at else rate_limits.reset_at end
     returning count, reset_at`,
  );
  const find = sqlite.prepare<[number], { download_url: string; download_count: number }>(`select download_url, download_count from resources where id = ? and ${IS_PUBLIC_SQL_TEXT}`);
  const visit = sqlite.prepare<[string, number, string]>('insert into download_visitors (day, resource_id, visitor) values (?, ?, ?) on conflict do nothing');
  const increment = sqlite.prepare<[number, number]>('update resources set download_count = download_count + ? where id = ?');
  const perResource = sqlite.prepare<[number, string, number]>(
    'insert into resource_download_days (resource_id, day, count) values (?, ?, ?) on conflict (resource_id, day) do update set count = resource_download_days.count + excluded.count',
  );
  const perDay = sqlite.prepare<[string, number]>(
    'insert into download_days (day, count) values (?, ?) on conflict (day) do update set count = download_days.count + excluded.count',
  );
  run = sqlite.transaction((attempts: DownloadAttempt[], day: string, clock: Clock): Written => {
    const hits = new Map<string, { count: number; n: number; resetAt: string }>();
    for (const [key, n] of rateKeys(attempts, clock.limit)) {
      const row = hit.get({ key, n, resetAt: clock.resetAt, now: clock.now })!;
      hits.set(key, { count: Number(row.count), n, resetAt: row.reset_at });
    }
    const limited = limitedAttempts(attempts, hits, clock);
    const rows = new Map<number, { url: string; before: number }>();
    const added = new Map<number, number>();
    const counted = attempts.map((a, i) => {
      if (limited[i] !== null) return false;
      if (!rows.has(a.id)) {
        const row = find.get(a.id);
        if (row) rows.set(a.id, { url: row.download_url, before: Number(row.download_count) });
      }
      if (!rows.has(a.id)) return false;
      if (a.visitor !== null && visit.run(day, a.id, a.visitor).changes === 0) return false;
      added.set(a.id, (added.get(a.id) ?? 0) + 1);
      return true;
    });
    let total = 0;
    for (const [id, n] of added) {
      increment.run(n, id);
      perResource.run(id, day, n);
      total += n;
    }
    if (total > 0) perDay.run(day, total);
    return { limited, rows, counted };
  });
  sqliteWriters.set(sqlite, run);
  return run;
}

/**
 * PostgreSQL: the rate-limit hits in one statement, then every counting write in one more
 * (data-modifying CTEs: atomic on its own and one round trip). Resource rows are locked in id
 * order and rate keys written in key order, so two instances writing overlapping batches cannot
 * deadlock; a visitor inserted by another instance's uncommitted batch makes this one wait for
 * it and then add nothing.
 */
async function postgresBatch(database: Database, attempts: DownloadAttempt[], day: string, clock: Clock): Promise<Written> {
  const db = database.db;
  const hits = new Map<string, { count: number; n: number; resetAt: string }>();
  const keys = rateKeys(attempts, clock.limit);
  if (keys.size > 0) {
    const { rows } = await sql<{ key: string; count: number; reset_at: string }>`
      insert into rate_limits (key, count, reset_at)
      select k, n, ${clock.resetAt} from unnest(${[...keys.keys()]}::text[], ${[...keys.values()]}::int[]) as t (k, n) order by k
      on conflict (key) do update set
        count = case when rate_limits.reset_at <= ${clock.now} then excluded.count else rate_limits.count + excluded.count end,
        reset_at = case when rate_limits.reset_at <= ${clock.now} then excluded.reset_at else rate_limits.reset_at end
      returning key, count, reset_at`.execute(db);
    for (const r of rows) hits.set(r.key, { count: Number(r.count), n: keys.get(r.key)!, resetAt: r.reset_at });
  }
  const limited = limitedAttempts(attempts, hits, clock);

  // Each (resource, visitor) once; every-mode attempts (no visitor) each.
  const sent: DownloadAttempt[] = [];
  const firstOf = new Set<string>();
  const isFirst = attempts.map((a, i) => {
    if (limited[i] !== null) return false;
    if (a.visitor !== null) {
      const pair = `${a.id}\n${a.visitor}`;
      if (firstOf.has(pair)) return false;
      firstOf.add(pair);
    }
    sent.push(a);
    return true;
  });
  const rows = new Map<number, { url: string; before: number }>();
  const inserted = new Set<string>();
  if (sent.length > 0) {
    const { rows: out } = await sql<{ id: number; download_url: string | null; download_count: number | null; visitor: string | null }>`
      with c (id, visitor) as (select * from unnest(${sent.map((a) => a.id)}::int[], ${sent.map((a) => a.visitor)}::text[])),
      l as (select r.id, r.download_url, r.download_count from resources r where r.id in (select id from c) and ${isPublicSql('r')} order by r.id for update of r),
      v as (
        insert into download_visitors (day, resource_id, visitor)
        select ${day}, c.id, c.visitor from c join l on l.id = c.id where c.visitor is not null
        on conflict do nothing returning resource_id, visitor
      ),
      n as (
        select id, count(*)::int as n from (
          select resource_id as id from v union all select c.id from c join l on l.id = c.id where c.visitor is null
        ) x group by id
      ),
      u as (update resources set download_count = resources.download_count + n.n from n where resources.id = n.id returning resources.id),
      rd as (
        insert into resource_download_days (resource_id, day, count) select id, ${day}, n from n order by id
        on conflict (resource_id, day) do update set count = resource_download_days.count + excluded.count
      ),
      d as (
        insert into download_days (day, count) select ${day}, sum(n) from n having count(*) > 0
        on conflict (day) do update set count = download_days.count + excluded.count
      )
      select l.id, l.download_url, l.download_count, null::text as visitor from l
      union all select resource_id, null, null, visitor from v`.execute(db);
    for (const r of out) {
      if (r.visitor === null) rows.set(Number(r.id), { url: r.download_url!, before: Number(r.download_count) });
      else inserted.add(`${r.id}\n${r.visitor}`);
    }
  }
  const counted = attempts.map((a, i) => isFirst[i] && rows.has(a.id) && (a.visitor === null || inserted.has(`${a.id}\n${a.visitor}`)));
  return { limited, rows, counted };
}
