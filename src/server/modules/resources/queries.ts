import { type Expression, type ExpressionBuilder, type Kysely, sql, type SqlBool } from 'kysely';
import type { CategoryValue } from '../../../contract/categories';
import type { Sort } from '../../../contract/resources';
import type SQLite from 'better-sqlite3';
import type { Db, Dialect } from '../../db/connection';
import type { Database } from '../../db/schema';
import { SORT_COLUMNS } from './cursor';
import { tagKeys } from './mappers';

/** Everything but download_url and admin_id: the URL is handed out only by recording a download. */
const PUBLIC_COLUMNS = [
  'resources.id',
  'resources.title',
  'resources.description',
  'resources.category',
  'resources.thumbnail_url',
  'resources.is_premium',
  'resources.download_count',
  'resources.popularity',
  'resources.tags',
  'resources.created_at',
  'resources.updated_at',
] as const;

export interface ResourceFilters {
  category?: CategoryValue;
  q?: string;
  tags?: string[];
}

export interface ListOptions {
  dialect: Dialect;
  filters: ResourceFilters;
  sort: Sort;
  limit: number;
  /** Continue strictly after this row in sort order. */
  after?: { keys: (string | number)[]; id: number };
  /**
   * The data version (migration 002) read before this query: totals are remembered per filter
   * under it, so later pages, other sorts and repeated first pages skip counting.
   */
  dataVersion?: number;
}

/** Filter → total, valid while the data version is unchanged; bounded like the response cache. */
const totals = new Map<string, { version: number; total: number }>();
const MAX_TOTALS = 1000;

function rememberTotal(key: string, version: number | undefined, total: number) {
  if (version === undefined) return;
  if (totals.size >= MAX_TOTALS && !totals.has(key)) totals.delete(totals.keys().next().value!);
  totals.set(key, { version, total });
}

/** User text inside a LIKE pattern matches itself, wildcards included. */
export function escapeLike(input: string): string {
  return input.replace(/[\\%_]/g, (c) => `\\${c}`);
}

type Eb = ExpressionBuilder<Database, 'resources'>;

/**
 * Case-insensitive LIKE with backslash as the escape. PostgreSQL needs lower() on both sides. SQLite's
 * LIKE already folds ASCII case, exactly as far as its lower() does (ASCII only), so the same
 * result comes without lower()'s copy of every title and description (about a third faster).
 */
function likeIgnoringCase(dialect: Dialect, column: Expression<string>, pattern: string) {
  return dialect === 'postgres'
    ? sql<SqlBool>`lower(${column}) like lower(${pattern}) escape '\\'`
    : sql<SqlBool>`${column} like ${pattern} escape '\\'`;
}

function filterConditions(eb: Eb, f: ResourceFilters, dialect: Dialect): Expression<SqlBool>[] {
  const conditions: Expression<SqlBool>[] = [];
  if (f.category) conditions.push(eb('resources.category', '=', f.category));
  if (f.q) {
    const pattern = `%${escapeLike(f.q)}%`;
    // resource_tags is stored lower-cased, so a lower-cased pattern is enough there.
    conditions.push(
      eb.or([
        likeIgnoringCase(dialect, eb.ref('resources.title'), pattern),
        likeIgnoringCase(dialect, eb.ref('resources.description'), pattern),
        eb(
          'resources.id',
          'in',
          eb
            .selectFrom('resource_tags')
            .select('resource_tags.resource_id')
            .where(sql<SqlBool>`${sql.ref('resource_tags.tag')} like ${pattern.toLowerCase()} escape '\\'`),
        ),
      ]),
    );
  }
  const tags = f.tags ? tagKeys(f.tags) : [];
  if (tags.length > 0) {
    conditions.push(
      eb('resources.id', 'in', eb.selectFrom('resource_tags').select('resource_tags.resource_id').where('resource_tags.tag', 'in', tags)),
    );
  }
  return conditions;
}

/** Row-value comparison `(k1, k2, id) < (v1, v2, vid)`: exactly "after this row" for an all-descending order. */
function afterCondition(sort: Sort, after: NonNullable<ListOptions['after']>): Expression<SqlBool> {
  const columns = [...SORT_COLUMNS[sort].map((c) => sql.ref(`resources.${c}`)), sql.ref('resources.id')];
  const values = [...after.keys, after.id].map((v) => sql.val(v));
  return sql<SqlBool>`(${sql.join(columns)}) < (${sql.join(values)})`;
}

export async function listResources(db: Kysely<Database>, options: ListOptions) {
  const { dialect, filters, sort, limit, after } = options;
  // A text or tag search has no index to stop early on, so evaluating its filters twice (page,
  // then count) doubles the cost; on the first page the count rides along as a window instead.
  // A category page stops after limit+1 index entries and counts from a covering index: two queries are cheaper there.
  const totalKey = JSON.stringify([filters.category ?? null, filters.q ?? null, filters.tags ? tagKeys(filters.tags).sort() : null]);
  const known = totals.get(totalKey);
  const knownTotal = known && known.version === options.dataVersion ? known.total : undefined;
  const countInPage = knownTotal === undefined && !after && Boolean(filters.q || filters.tags?.length);
  let page = db
    .selectFrom('resources')
    .select(PUBLIC_COLUMNS)
    .$if(countInPage, (qb) => qb.select(sql<number>`count(*) over ()`.as('total_count')))
    .where((eb) => {
      const conditions = filterConditions(eb, filters, dialect);
      if (after) conditions.push(afterCondition(sort, after));
      return eb.and(conditions);
    });
  for (const column of SORT_COLUMNS[sort]) page = page.orderBy(`resources.${column}`, 'desc');
  // One row more than asked tells whether another page exists.
  const rows = await page.orderBy('resources.id', 'desc').limit(limit + 1).execute();

  let total: number;
  if (knownTotal !== undefined) {
    total = knownTotal;
  } else if (countInPage) {
    total = rows.length > 0 ? Number(rows[0].total_count) : 0;
  } else {
    const counted = await db
      .selectFrom('resources')
      .select((eb) => eb.fn.countAll().as('n'))
      .where((eb) => eb.and(filterConditions(eb, filters, dialect)))
      .executeTakeFirstOrThrow();
    total = Number(counted.n);
  }
  if (knownTotal === undefined) rememberTotal(totalKey, options.dataVersion, total);

  const items = rows.slice(0, limit).map(({ total_count: _omit, ...row }) => row);
  return { rows: items, hasMore: rows.length > limit, total };
}

export async function listByCategoryNewest(db: Kysely<Database>, category: CategoryValue, limit: number) {
  return db
    .selectFrom('resources')
    .select(PUBLIC_COLUMNS)
    .where('resources.category', '=', category)
    .orderBy('resources.created_at', 'desc')
    .orderBy('resources.id', 'desc')
    .limit(limit)
    .execute();
}

export async function getPublicResource(db: Kysely<Database>, id: number) {
  return db.selectFrom('resources').select(PUBLIC_COLUMNS).where('resources.id', '=', id).executeTakeFirst();
}

type DownloadResult = { download_url: string; download_count: number } | undefined;
const sqliteDownloads = new WeakMap<SQLite.Database, (id: number, day: string) => DownloadResult>();

/**
 * recordDownload on SQLite without Kysely: two prepared statements in one synchronous
 * transaction (no await, so no other request interleaves). Several times cheaper per download.
 */
function sqliteDownload(sqlite: SQLite.Database): (id: number, day: string) => DownloadResult {
  let run = sqliteDownloads.get(sqlite);
  if (!run) {
    const increment = sqlite.prepare<[number], { download_url: string; download_count: number }>(
      'update resources set download_count = download_count + 1 where id = ? returning download_url, download_count',
    );
    const perDay = sqlite.prepare<[string]>('insert into download_days (day, count) values (?, 1) on conflict (day) do update set count = download_days.count + 1');
    run = sqlite.transaction((id: number, day: string): DownloadResult => {
      const row = increment.get(id);
      if (!row) return undefined;
      perDay.run(day);
      return { download_url: row.download_url, download_count: Number(row.download_count) };
    });
    sqliteDownloads.set(sqlite, run);
  }
  return run;
}

/** One download; on SQLite the prepared-statement path unless Kysely has a transaction open on the connection. */
export async function recordDownloadOn(database: Db, id: number, day: string): Promise<DownloadResult> {
  if (database.sqlite && !database.sqlite.inTransaction) return sqliteDownload(database.sqlite)(id, day);
  if (database.dialect === 'postgres') return postgresDownload(database.db, id, day);
  return recordDownload(database.db, id, day);
}

/**
 * PostgreSQL: both writes in one statement (data-modifying CTEs), which is atomic on its own:
 * one round trip instead of four (begin, update, upsert, commit), and the row lock on a popular
 * resource is held for that one statement only. No day is counted for a missing resource.
 */
async function postgresDownload(db: Kysely<Database>, id: number, day: string): Promise<DownloadResult> {
  const { rows } = await sql<{ download_url: string; download_count: number }>`
    with r as (
      update resources set download_count = download_count + 1 where id = ${id} returning download_url, download_count
    ), d as (
      insert into download_days (day, count) select ${day}, 1 where exists (select 1 from r)
      on conflict (day) do update set count = download_days.count + 1
    )
    select download_url, download_count from r`.execute(db);
  const row = rows[0];
  return row ? { download_url: row.download_url, download_count: Number(row.download_count) } : undefined;
}

/**
 * One download: an atomic increment (never read-modify-write) and the per-day counter, in one
 * transaction so the two never disagree. Undefined when there is no such resource.
 */
export async function recordDownload(db: Kysely<Database>, id: number, day: string) {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('resources')
      .set((eb) => ({ download_count: eb('download_count', '+', 1) }))
      .where('id', '=', id)
      .returning(['download_url', 'download_count'])
      .executeTakeFirst();
    if (!row) return undefined;
    await trx
      .insertInto('download_days')
      .values({ day, count: 1 })
      .onConflict((oc) => oc.column('day').doUpdateSet((eb) => ({ count: eb('download_days.count', '+', 1) })))
      .execute();
    return { download_url: row.download_url, download_count: Number(row.download_count) };
  });
}
