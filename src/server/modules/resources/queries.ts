import { type Kysely, type RawBuilder, type Selectable, sql, type SqlBool } from 'kysely';
import type { CategoryValue } from '../../../contract/categories';
import type { Sort } from '../../../contract/resources';
import type { Dialect } from '../../db/connection';
import type { Database, ResourcesTable } from '../../db/schema';
import { versionedMemo } from '../../db/versioned-memo';
import { SORT_COLUMNS, type SortKeyRow } from './cursor';
import { tagKeys } from './mappers';
import { searchSample, textPlan, type TextPlan } from './trigrams';

/**
 * PostgreSQL: the expression the search indexes cover (migrations 003, 007, 008): the lower-cased search text
 * with each space read as 'q', so the trigrams that span words are indexed. A row whose search text
 * contains q also contains q's joined form here (and each of its trigrams), so the index never misses
 * a match; a 'q' may stand for a space there, so the plain text is always checked too.
 */
export const SEARCH_JOIN = "replace(resources.search_text, ' ', 'q')";

/** SQLite search index rowids (migration 003): category code × this + resource id (ids stay below 2^31). */
export const SEARCH_ROWID_SPAN = 4294967296;

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
  /** Tests: a smaller SEARCH_TOTAL_CAP (and SQLITE_MATCHES_MAX), to reach the capped total and the sort-index walk with few rows. */
  totalCap?: number;
  /** Tests: SQLITE_MEMBER_MAX (default: totalCap when that is given, so no 'member' tier unless asked for). */
  memberMax?: number;
  /** Tests: smaller SHORT_Q_COUNT_SCAN / SHORT_Q_PAGE_SCAN, to reach the bounds with few rows. */
  shortQScan?: { count: number; page: number };
}

/**
 * A search (`q` or `tags`) counts its matches exactly up to this many; beyond, the total is
 * reported as "at least this many" (`totalExact: false`, shown "1,000+"): counting 100,000
 * matches exactly does not fit a 30 ms search, least of all on PostgreSQL (GIN has no
 * index-only scans). Plain lists (a category, or all) keep exact totals.
 */
export const SEARCH_TOTAL_CAP = 1000;

/**
 * SQLite: up to this many matches, a page is found from the matches themselves (FTS5, then a
 * lookup and sort of at most this many rows, ≈ 5 µs each); beyond it, by walking the sort index
 * (see SQLITE_MEMBER_MAX). Counting this far costs little there (the FTS5 index alone).
 * PostgreSQL's planner makes the same choice from its statistics.
 */
export const SQLITE_MATCHES_MAX = 1000;

/**
 * SQLite: up to this many matches (beyond SQLITE_MATCHES_MAX), a page walks the sort index and
 * keeps the rows whose id is among the matches, read once from FTS5 into a temporary set: the
 * walk stays inside the index (no row is read before it is known to match), so it costs about
 * 0.3 µs a match for the set plus 0.1–0.2 µs an index entry, instead of a lookup and sort of
 * every match or a row read (≈ 4 µs, memory-mapped) for every row walked. Beyond it, matches
 * are dense (≥ 0.5% of a million rows, 2.5% of a category) and walking the sort index checking
 * rows meets a page within about 5,000 rows (1,000 in a category), sooner than counting further
 * and building the set (counting a common word to 20,000 took 15 ms; its walk 3).
 */
export const SQLITE_MEMBER_MAX = 5_000;

interface Total {
  total: number;
  exact: boolean;
  /** The matches are few enough to start a page from them (see SQLITE_MATCHES_MAX). */
  few: boolean;
  /** SQLite: few enough to walk the sort index against a set of them (see SQLITE_MEMBER_MAX). */
  member?: boolean;
  /** Few matches, read by the count (SQLite: a text with tags; PostgreSQL: any search): the first page is found from them (not remembered). */
  ids?: number[];
}

/** Filter → total, valid while the data version is unchanged; bounded like the response cache. */
const totals = versionedMemo<Total>(1000);

/** User text inside a LIKE pattern matches itself, wildcards included. */
export function escapeLike(input: string): string {
  return input.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** User text as one FTS5 phrase: inside double quotes every character is text (quotes doubled). */
export function ftsPhrase(input: string): string {
  return `"${input.replace(/"/g, '""')}"`;
}

/** A trigram index needs at least three characters (code points) to narrow anything down. */
export function usesTextIndex(q: string): boolean {
  return [...q].length >= 3;
}

type Condition = RawBuilder<SqlBool>;

/**
 * The tag filter: any of the selected tags (resource_tags holds them lower-cased). PostgreSQL
 * `onRow`: checked on each row of a sort-index walk, in a form the GIN index cannot serve.
 */
function tagCondition(dialect: Dialect, tags: string[], onRow = false): Condition {
  // tag_keys: the lower-cased tags (migration 005), under the search GIN indexes with the text (migration 008).
  if (dialect === 'postgres') return onRow ? sql<SqlBool>`(resources.tag_keys || '{}'::text[]) && array[${sql.join(tags)}]::text[]` : sql<SqlBool>`resources.tag_keys && array[${sql.join(tags)}]::text[]`;
  return sql<SqlBool>`exists (select 1 from resource_tags where resource_tags.resource_id = resources.id and resource_tags.tag in (${sql.join(tags)}))`;
}

/**
 * `q` checked on the row itself, for walking a sort index. SQLite: LIKE folds ASCII case, which
 * is what the trigram index folds for an ASCII query (a query with other letters always goes
 * through the index, see `plan`). PostgreSQL (search_text is lower-cased): for a walk, a 1–2
 * character q and the dense count (PG_DENSE_SCAN); the `|| ''` keeps the planner from trying the index.
 */
function qOnRow(dialect: Dialect, q: string): Condition {
  const pattern = `%${escapeLike(q)}%`;
  if (dialect === 'postgres') return sql<SqlBool>`(resources.search_text || '') like lower(${pattern}) escape '\\'`;
  return sql<SqlBool>`(resources.title like ${pattern} escape '\\' or resources.description like ${pattern} escape '\\'
    or exists (select 1 from resource_tags where resource_tags.resource_id = resources.id and resource_tags.tag like ${pattern.toLowerCase()} escape '\\'))`;
}

/**
 * PostgreSQL: `q` through the search indexes over SEARCH_JOIN (migrations 003, 007, 008). The index is
 * asked for q's rarest trigrams only (`trigrams`, see trigrams.ts), each a LIKE of its own, and the
 * plain search text is checked against the whole of q: exact whatever q holds (a space, a 'q').
 * Without `trigrams` (none that pg_trgm indexes as they are, e.g. `---`), the index is asked for the
 * joined form of the whole of q.
 */
function indexedText(q: string, trigrams: string[] | undefined): Condition {
  const pattern = `%${escapeLike(q)}%`;
  const plain = sql<SqlBool>`resources.search_text like lower(${pattern}) escape '\\'`;
  const index = trigrams?.length ? trigrams.map((t) => `%${t}%`) : [sql<string>`replace(lower(${pattern}), ' ', 'q')`];
  return sql<SqlBool>`${plain} and ${sql.join(index.map((p) => sql`${sql.raw(SEARCH_JOIN)} like ${p} escape '\\'`), sql` and `)}`;
}

/** Row-value comparison `(k1, k2, id) < (v1, v2, vid)`: exactly "after this row" for an all-descending order. */
function afterCondition(sort: Sort, after: NonNullable<ListOptions['after']>): Condition {
  const columns = [...SORT_COLUMNS[sort].map((c) => sql.ref(`resources.${c}`)), sql.ref('resources.id')];
  const values = [...after.keys, after.id].map((v) => sql.val(v));
  return sql<SqlBool>`(${sql.join(columns)}) < (${sql.join(values)})`;
}

function where(conditions: Condition[]) {
  return conditions.length > 0 ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
}

/**
 * How rows are found. 'matches': start from the search's matches (the text index, or the tag
 * index) and sort them; 'member' (SQLite): walk the sort index keeping ids found in a set of the
 * matches read from the text index; 'walk': walk the sort index (per category, or global) and
 * filter rows.
 */
export type Strategy = 'matches' | 'member' | 'walk';

/** The FTS5 query for a filter's text and tags, or undefined when the index cannot narrow it (SQLite). */
function ftsQuery(f: NormalFilters): string | undefined {
  const parts: string[] = [];
  if (f.q !== undefined && usesTextIndex(f.q)) parts.push(ftsPhrase(f.q));
  // Each tag is indexed as \x01tag\x01 (migration 003): alone, that phrase is the whole tag, any
  // case. With a text, its first and last trigrams (\x01 and two characters, two characters and
  // \x01) are rare and narrow the text's rows to those with a tag that starts and one that ends
  // like it, far cheaper to intersect than the whole phrase of common trigrams; a superset, so
  // then every use also checks the tags exactly in resource_tags (see ftsTagsInexact).
  if (f.tags.length > 0) {
    const tagQuery = (t: string) => {
      const chars = [...t];
      if (chars.length < 2 || !ftsTagsInexact(f)) return ftsPhrase(`\u0001${t}\u0001`);
      return `(${ftsPhrase(`\u0001${chars.slice(0, 2).join('')}`)} AND ${ftsPhrase(`${chars.slice(-2).join('')}\u0001`)})`;
    };
    parts.push(`(${f.tags.map(tagQuery).join(' OR ')})`);
  }
  return parts.length > 0 ? parts.join(' AND ') : undefined;
}

/** ftsQuery's tag part is a superset (a text is in the query too): the tags must be checked exactly as well. */
function ftsTagsInexact(f: NormalFilters): boolean {
  return f.tags.length > 0 && f.q !== undefined && usesTextIndex(f.q);
}

/**
 * `from … where …` for a filter. With strategy 'matches', SQLite starts from the FTS5 index
 * (text and tags; a category is a rowid range of it) and looks the rows up: CROSS JOIN fixes
 * that join order; with 'walk' it walks a sort index and checks rows. PostgreSQL gets the same
 * conditions either way (text and tags as LIKE on search_text, under the trigram index) and its
 * planner picks between the GIN index and a sort index from its statistics.
 */
function fromWhere(dialect: Dialect, f: NormalFilters, strategy: Strategy, extra: Condition[] = []) {
  const conditions: Condition[] = [];
  let from = sql`from resources`;
  const fts = dialect === 'sqlite' && strategy !== 'walk' ? ftsQuery(f) : undefined;
  if (fts !== undefined && strategy === 'member') {
    // The set holds the matches read once from FTS5; the check uses the id only, so no row is read
    // before it matches. The unary + keeps the set from driving the query: the sort index is
    // walked, ids checked against the set. (A text with tags is not given this tier, see
    // countRows; were it, its FTS5 tag part is a superset and the tags are checked exactly too.)
    const range = f.category ? sql` and ${ftsRange(f.category)}` : sql``;
    if (f.category) conditions.push(sql<SqlBool>`resources.category = ${f.category}`);
    conditions.push(
      sql<SqlBool>`+resources.id in (select resources_fts.rowid % ${sql.lit(SEARCH_ROWID_SPAN)} from resources_fts
        where resources_fts match ${fts}${range})`,
    );
    if (ftsTagsInexact(f)) conditions.push(tagCondition(dialect, f.tags));
  } else if (fts !== undefined) {
    from = sql`from resources_fts cross join resources on resources.id = resources_fts.rowid % ${sql.lit(SEARCH_ROWID_SPAN)}`;
    conditions.push(sql<SqlBool>`resources_fts match ${fts}`);
    if (f.category) conditions.push(ftsRange(f.category));
    if (ftsTagsInexact(f)) conditions.push(ftsTagCheck(f.tags));
  } else if (f.category) {
    conditions.push(sql<SqlBool>`resources.category = ${f.category}`);
  }
  // Tags first: checked in the (tag, resource_id) index, before a row is read for the text.
  // PostgreSQL 'walk': every condition in its on-row form, so the planner walks the sort index
  // as the count decided (it estimates a trigram LIKE at ~100 rows whatever the text, and would
  // gather and sort 10,000 matches: 65 ms instead of ~5).
  const walk = strategy === 'walk';
  const tagCheck = f.tags.length > 0 && fts === undefined ? tagCondition(dialect, f.tags, walk) : undefined;
  const textCheck =
    f.q === undefined || (fts !== undefined && usesTextIndex(f.q))
      ? undefined
      : dialect === 'postgres' && usesTextIndex(f.q) && !walk
        ? indexedText(f.q, f.sampled?.trigrams)
        : qOnRow(dialect, f.q);
  // SQLite evaluates terms holding a subquery after the others, so the text check (which reads the
  // row) ran before the tag check (an index probe) on every entry walked: one CASE keeps the order
  // (a walk of 8,000 entries for 25 matches: 24 ms → 9).
  if (tagCheck && textCheck && dialect === 'sqlite') conditions.push(sql<SqlBool>`case when ${tagCheck} then ${textCheck} else 0 end`);
  else conditions.push(...[tagCheck, textCheck].filter((c) => c !== undefined));
  return sql`${from} ${where([...conditions, ...extra])}`;
}

/**
 * Only the FTS5 index, for counting on SQLite: every resource has exactly one row there
 * (triggers), so a count needs no lookup of the resources themselves.
 */
function ftsOnly(f: NormalFilters) {
  const fts = ftsQuery(f);
  if (fts === undefined || (f.q !== undefined && !usesTextIndex(f.q))) return undefined;
  const conditions: Condition[] = [sql<SqlBool>`resources_fts match ${fts}`];
  if (f.category) conditions.push(ftsRange(f.category));
  if (ftsTagsInexact(f)) conditions.push(ftsTagCheck(f.tags));
  return sql`from resources_fts ${where(conditions)}`;
}

/** The exact tag check for an FTS5 row (its tag query is a superset, see ftsQuery): the (tag, resource_id) index. */
function ftsTagCheck(tags: string[]): Condition {
  return sql<SqlBool>`exists (select 1 from resource_tags where resource_tags.tag in (${sql.join(tags)})
    and resource_tags.resource_id = resources_fts.rowid % ${sql.lit(SEARCH_ROWID_SPAN)})`;
}

/** A category's rowid range of the FTS5 index (migration 003: rowid = category code × SEARCH_ROWID_SPAN + id). */
function ftsRange(category: CategoryValue): Condition {
  const code = sql`(select code from search_categories where category = ${category})`;
  return sql<SqlBool>`resources_fts.rowid >= ${code} * ${sql.lit(SEARCH_ROWID_SPAN)} and resources_fts.rowid < (${code} + 1) * ${sql.lit(SEARCH_ROWID_SPAN)}`;
}

export interface NormalFilters {
  category?: CategoryValue;
  q?: string;
  tags: string[];
  /** PostgreSQL, a 3+ character q: what the search sample says of it (see `sampled`). */
  sampled?: TextPlan;
}

/** PostgreSQL, a 3+ character q: the trigrams the index is asked for, and the share of the scope's rows holding q (trigrams.ts). */
async function sampled(db: Kysely<Database>, dialect: Dialect, f: NormalFilters, version: number | undefined): Promise<TextPlan | undefined> {
  if (dialect !== 'postgres' || f.q === undefined || !usesTextIndex(f.q)) return undefined;
  return textPlan(await searchSample(db, version), f.q, f.category);
}

/** The count query: exact for a plain list; for a search up to `cap` + 1 (to know "more"). */
export function countQuery(dialect: Dialect, f: NormalFilters, cap = SEARCH_TOTAL_CAP) {
  if (f.q === undefined && f.tags.length === 0) return sql<{ n: number }>`select count(*) as n ${fromWhere(dialect, f, 'walk')}`;
  return sql<{ n: number }>`select count(*) as n from (${matchIdsQuery(dialect, f, cap)}) as capped`;
}

/** A search's matches, up to `cap` + 1 of their ids (one more than the cap tells "more"). */
export function matchIdsQuery(dialect: Dialect, f: NormalFilters, cap: number) {
  const fts = dialect === 'sqlite' ? ftsOnly(f) : undefined;
  if (fts) return sql<{ id: number }>`select resources_fts.rowid % ${sql.lit(SEARCH_ROWID_SPAN)} as id ${fts} limit ${cap + 1}`;
  if (dialect === 'postgres' && f.q === undefined && !f.category) {
    // Tags alone: the (tag, resource_id) index answers without reading resources (index-only). In a
    // category, its own search index (migration 008) holds the tags: a lookup of every tagged row
    // to check its category cost 150 ms for `Transitions` in Typography at 1M (168,610 rows, none there).
    return sql<{ id: number }>`select distinct resource_id as id from resource_tags where tag in (${sql.join(f.tags)}) limit ${cap + 1}`;
  }
  const strategy: Strategy = f.q === undefined || usesTextIndex(f.q) || f.tags.length > 0 ? 'matches' : 'walk';
  return sql<{ id: number }>`select resources.id ${fromWhere(dialect, f, strategy)} limit ${cap + 1}`;
}

/**
 * A 1–2 character `q` has no index (a trigram needs three characters). Its count reads at most
 * this many rows of the scope (category or all); when the scope is larger, the total is "at
 * least" what those rows hold. Its page walks at most SHORT_Q_PAGE_SCAN rows of the sort index
 * after the cursor; when those hold less than a page, the page is returned short with a cursor
 * after the last row read, so the next request continues there (no gap, no repeat). Either way a
 * request costs a bounded amount of work, even for a 2-character text that nothing contains.
 */
export const SHORT_Q_COUNT_SCAN = 10_000;
export const SHORT_Q_PAGE_SCAN = 2_000;

function isShortQ(f: NormalFilters): f is NormalFilters & { q: string } {
  return f.q !== undefined && !usesTextIndex(f.q);
}

/** The bounded count of a 1–2 character q: `examined` rows read (one more than the bound means "there were more"), `n` matched. */
export function shortQCountQuery(dialect: Dialect, f: NormalFilters & { q: string }, scan = SHORT_Q_COUNT_SCAN) {
  const columns = dialect === 'postgres' ? sql`id, search_text, tag_keys` : sql`id, title, description`;
  const conditions = [qOnRow(dialect, f.q), ...(f.tags.length > 0 ? [tagCondition(dialect, f.tags)] : [])];
  return sql<{ examined: number; n: number | null }>`select count(*) as examined,
    sum(case when ${sql.join(conditions, sql` and `)} then 1 else 0 end) as n
    from (select ${columns} from resources ${where(f.category ? [sql<SqlBool>`category = ${f.category}`] : [])} limit ${scan + 1}) as resources`;
}

/**
 * PostgreSQL, a text alone: a few thousand rows of the scope are read first (all: the table's first
 * PG_DENSE_SCAN.all rows, read in order; a category: its PG_DENSE_SCAN.category newest, through its
 * index), and when they hold more matches than the cap the total is "cap+" without the search
 * index. The index reads every row id its trigrams' posting lists hold, so a common word cost
 * 16–24 ms to count (`cinematic`: 77,113 of a category's 204,177 rows at 1M, 14% of all rows); these
 * reads stop at the cap, 5 ms at most. A word rarer than that (10% of all rows, 20% of a category)
 * costs those 5 ms more before its index count.
 */
export const PG_DENSE_SCAN = { all: 10_000, category: 5_000 };

/** The count of PG_DENSE_SCAN: matches of q among the scope's first rows, up to `cap` + 1. */
export function denseCountQuery(q: string, category: CategoryValue | undefined, cap: number) {
  const rows = category
    ? sql`select search_text from resources where category = ${category} order by created_at desc, id desc limit ${PG_DENSE_SCAN.category}`
    : sql`select search_text from resources limit ${PG_DENSE_SCAN.all}`;
  return sql<{ n: number }>`select count(*) as n from (select 1 from (${rows}) as resources where ${qOnRow('postgres', q)} limit ${cap + 1}) as capped`;
}

async function countRows(
  db: Kysely<Database>,
  dialect: Dialect,
  f: NormalFilters,
  cap: number,
  fewMax: number,
  scan: number,
  memberMax = fewMax,
): Promise<Total> {
  if (isShortQ(f)) {
    const { rows } = await shortQCountQuery(dialect, f, scan).execute(db);
    const examined = Number(rows[0]?.examined ?? 0);
    const n = Number(rows[0]?.n ?? 0);
    const all = examined <= scan;
    return { total: Math.min(n, cap), exact: all && n <= cap, few: all && n <= fewMax };
  }
  // SQLite, a text and tags: reading their intersection in FTS5 costs as much as the text's whole
  // match list (20–40 ms for a common word at 1M), so it is counted only up to the cap, and beyond
  // that the page walks the sort index checking rows: past 1,000 matches of a million (≥ 0.1%) the
  // walk meets a page within ~25,000 index entries, 3–25 ms for the bench's texts (a set of the
  // text's own matches cost 20 ms to count and 20–150 ms to build, more than the walk it saved).
  if (dialect === 'sqlite' && f.q !== undefined && f.tags.length > 0) {
    // The count reads the matches' ids (as cheap as counting them): when they are few, the page is
    // found from them, not from a second read of the intersection (about half of such a search).
    const { rows } = await matchIdsQuery(dialect, f, Math.max(cap, fewMax)).execute(db);
    const n = rows.length;
    return { total: Math.min(n, cap), exact: n <= cap, few: n <= fewMax, member: false, ids: n <= fewMax ? rows.map((r) => Number(r.id)) : undefined };
  }
  // Only when the sample suggests those rows hold half the cap or more: otherwise they would cost their time for nothing.
  const firstRows = f.category ? PG_DENSE_SCAN.category : PG_DENSE_SCAN.all;
  if (f.sampled && f.q !== undefined && f.tags.length === 0 && f.sampled.share * firstRows >= cap / 2) {
    const { rows } = await denseCountQuery(f.q, f.category, cap).execute(db);
    if (Number(rows[0]?.n ?? 0) > cap) return { total: cap, exact: false, few: false };
  }
  if (dialect === 'postgres' && (f.q !== undefined || f.tags.length > 0)) {
    // The count reads the matches' ids: when they are few, the first page is found from them, not
    // from a second read of the index and of every candidate row (`ntar`: 17,688 candidates, 880 matches).
    const { rows } = await matchIdsQuery(dialect, f, cap).execute(db);
    const n = rows.length;
    const few = n <= Math.min(cap, fewMax);
    return { total: Math.min(n, cap), exact: n <= cap, few, ids: few ? rows.map((r) => Number(r.id)) : undefined };
  }
  const probe = dialect === 'sqlite' ? Math.max(cap, fewMax, memberMax) : cap;
  const { rows } = await countQuery(dialect, f, probe).execute(db);
  const n = Number(rows[0]?.n ?? 0);
  if (f.q === undefined && f.tags.length === 0) return { total: n, exact: true, few: false };
  return { total: Math.min(n, cap), exact: n <= cap, few: n <= fewMax, member: n <= memberMax };
}

/**
 * PostgreSQL, a search page that walks a sort index checking rows: the planner would rather scan
 * the table in parallel and sort (it cannot know how soon matches come: 340 ms instead of 6 for a
 * text with 10,000 matches), and parallel workers cost ~20 ms to start for a walk of a few
 * thousand rows. These settings hold for that one statement (a transaction, set_config local).
 */
const INDEX_WALK = { enable_seqscan: 'off', enable_bitmapscan: 'off', max_parallel_workers_per_gather: '0' };

async function withIndexWalk<R>(db: Kysely<Database>, query: RawBuilder<R>): Promise<R[]> {
  return db.transaction().execute(async (trx) => {
    await sql`select ${sql.join(Object.entries(INDEX_WALK).map(([k, v]) => sql`set_config(${k}, ${v}, true)`))}`.execute(trx);
    return (await query.execute(trx)).rows;
  });
}

/**
 * The page strategy. A plain list walks its sort index. A search with few matches (see
 * SQLITE_MATCHES_MAX) starts from them; with more, walking the sort index meets a page soon. A 1–2
 * character `q` alone has no index to start from and always walks (its count walks too,
 * stopping at the cap). A `q` with non-ASCII letters always starts from the index on SQLite,
 * where LIKE folds only ASCII case.
 */
export function plan(dialect: Dialect, f: NormalFilters, few: boolean, member = false): Strategy {
  if (f.q === undefined && f.tags.length === 0) return 'walk';
  if (f.q !== undefined && !usesTextIndex(f.q) && f.tags.length === 0) return 'walk';
  // 'member' needs the FTS5 index to hold the whole filter (a 1–2 character q is not in it).
  const canMember = dialect === 'sqlite' && member && !(f.q !== undefined && !usesTextIndex(f.q));
  // eslint-disable-next-line no-control-regex
  if (f.q !== undefined && dialect === 'sqlite' && usesTextIndex(f.q) && /[^\u0000-\u007f]/.test(f.q)) return few || !canMember ? 'matches' : 'member';
  return few ? 'matches' : canMember ? 'member' : 'walk';
}

/** One page (limit + 1 rows: the extra one tells whether another page exists). */
export function pageQuery(
  dialect: Dialect,
  f: NormalFilters,
  strategy: Strategy,
  sort: Sort,
  limit: number,
  after?: ListOptions['after'],
  extra: Condition[] = [],
) {
  // PostgreSQL, few matches: an order no index provides, so the planner gathers the matches (GIN)
  // and sorts them, instead of walking a sort index in the hope that matches come soon (its
  // estimate assumes text and category independent: a word common elsewhere but absent from
  // this category would read the whole category).
  const gather = dialect === 'postgres' && strategy === 'matches';
  const order = sql.join(
    [...SORT_COLUMNS[sort], 'id'].map((c) => (gather && c !== 'created_at' ? sql`${sql.ref(`resources.${c}`)} + 0 desc` : gather ? sql`${sql.ref(`resources.${c}`)} || '' desc` : sql`${sql.ref(`resources.${c}`)} desc`)),
  );
  return sql<PageRow>`select ${sql.join(PUBLIC_COLUMNS.map((c) => sql.ref(c)))}
    ${fromWhere(dialect, f, strategy, [...(after ? [afterCondition(sort, after)] : []), ...extra])}
    order by ${order} limit ${limit + 1}`;
}

/** One page of the rows with these ids (a thousand at most, looked up by primary key), sorted; limit + 1 rows. */
function idsPageQuery(dialect: Dialect, ids: number[], sort: Sort, limit: number, after?: ListOptions['after']) {
  const order = sql.join([...SORT_COLUMNS[sort], 'id'].map((c) => sql`${sql.ref(`resources.${c}`)} desc`));
  const among = dialect === 'postgres' ? sql<SqlBool>`resources.id = any(${ids}::int[])` : sql<SqlBool>`resources.id in (select value from json_each(${JSON.stringify(ids)}))`;
  return sql<PageRow>`select ${sql.join(PUBLIC_COLUMNS.map((c) => sql.ref(c)))} from resources
    where ${among}${after ? sql` and ${afterCondition(sort, after)}` : sql``}
    order by ${order} limit ${limit + 1}`;
}

export function normalFilters(filters: ResourceFilters): NormalFilters {
  return { category: filters.category, q: filters.q || undefined, tags: filters.tags ? tagKeys(filters.tags) : [] };
}

export async function listResources(db: Kysely<Database>, options: ListOptions) {
  const { dialect, sort, limit, after } = options;
  const cap = options.totalCap ?? SEARCH_TOTAL_CAP;
  const fewMax = options.totalCap ?? SQLITE_MATCHES_MAX;
  const f = normalFilters(options.filters);
  f.sampled = await sampled(db, dialect, f, options.dataVersion);
  const memberMax = options.memberMax ?? options.totalCap ?? SQLITE_MEMBER_MAX;
  const shortScan = options.shortQScan ?? { count: SHORT_Q_COUNT_SCAN, page: SHORT_Q_PAGE_SCAN };
  const totalKey = JSON.stringify([f.category ?? null, f.q ?? null, [...f.tags].sort(), cap, memberMax, shortScan.count]);
  let total = totals.get(db, totalKey, options.dataVersion);
  let ids: number[] | undefined;
  if (!total) {
    const { ids: found, ...counted } = await countRows(db, dialect, f, cap, fewMax, shortScan.count, memberMax);
    ids = found;
    total = counted;
    totals.set(db, totalKey, options.dataVersion, total);
  }
  // Nothing matches: no page to look for.
  if (total.exact && total.total === 0) return { rows: [], hasMore: false, total: 0, totalExact: true };
  const strategy = plan(dialect, f, total.few, total.member);
  if (strategy === 'walk' && isShortQ(f)) {
    // Bounded: the SHORT_Q_PAGE_SCAN-th row after the cursor (an index-only walk) ends the range read.
    const end = (await boundaryQuery(dialect, f.category, sort, after, shortScan.page).execute(db)).rows[0];
    const bound = end ? [notAfterCondition(sort, end)] : [];
    const rows = await pageRows(db, dialect, f, strategy, pageQuery(dialect, f, strategy, sort, limit, after, bound));
    if (rows.length > limit || !end) return { rows: rows.slice(0, limit), hasMore: rows.length > limit, total: total.total, totalExact: total.exact };
    return { rows, hasMore: true, continueAfter: end, total: total.total, totalExact: total.exact };
  }
  const query = ids && strategy === 'matches' ? idsPageQuery(dialect, ids, sort, limit, after) : pageQuery(dialect, f, strategy, sort, limit, after);
  const rows = await pageRows(db, dialect, f, strategy, query);
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit, total: total.total, totalExact: total.exact };
}

/**
 * A page's rows. On PostgreSQL a search that walks (text or tags, strategy 'walk') walks its sort
 * index whatever the planner estimates (INDEX_WALK); a plain list needs no help.
 */
export async function pageRows<R>(db: Kysely<Database>, dialect: Dialect, f: NormalFilters, strategy: Strategy, query: RawBuilder<R>): Promise<R[]> {
  const search = f.q !== undefined || f.tags.length > 0;
  return dialect === 'postgres' && strategy === 'walk' && search ? withIndexWalk(db, query) : (await query.execute(db)).rows;
}

/**
 * The search rule for a text alone, in one place for the public list and the admin list: how many
 * rows of the scope (a category, or all) contain `q` (title, description or a tag, ignoring case),
 * counted up to `cap` + 1, and how a page finds them: 'matches' (no more than `cap`, or a text
 * LIKE cannot fold on SQLite) starts from the trigram index and sorts what it finds; 'walk' walks
 * the caller's order index checking rows. For a 3+ character q only (a 1–2 character q has no index).
 */
export async function textSearchPlan(
  db: Kysely<Database>,
  dialect: Dialect,
  q: string,
  category: CategoryValue | undefined,
  cap = SEARCH_TOTAL_CAP,
  dataVersion?: number,
): Promise<{ total: number; exact: boolean; strategy: Strategy; sampled?: TextPlan }> {
  const f: NormalFilters = { category, q, tags: [] };
  f.sampled = await sampled(db, dialect, f, dataVersion);
  const counted = await countRows(db, dialect, f, cap, cap, SHORT_Q_COUNT_SCAN, Math.max(cap, SQLITE_MEMBER_MAX));
  return { total: counted.total, exact: counted.exact, strategy: plan(dialect, f, counted.few, counted.member), sampled: f.sampled };
}

/**
 * `from … where …` selecting exactly the rows of the scope that contain `q`, per `textSearchPlan`'s
 * strategy (a 1–2 character q: 'walk' only), plus `extra` conditions on `resources`. With 'matches' on PostgreSQL,
 * order by `gatherOrder` so the planner gathers the matches through GIN instead of walking an index.
 */
export function textSearchFrom(
  dialect: Dialect,
  q: string,
  category: CategoryValue | undefined,
  strategy: Strategy,
  sampled: TextPlan | undefined,
  extra: Condition[] = [],
) {
  return fromWhere(dialect, { category, q, tags: [], sampled }, strategy, extra);
}

/** An ORDER BY term for a column of `resources` that no index provides (PostgreSQL 'matches', see pageQuery). */
export function gatherOrder(column: 'created_at' | 'id' | 'popularity' | 'download_count', direction: 'asc' | 'desc') {
  const ref = sql.ref(`resources.${column}`);
  return column === 'created_at' ? sql`${ref} || '' ${sql.raw(direction)}` : sql`${ref} + 0 ${sql.raw(direction)}`;
}

/** The sort keys of the SHORT_Q_PAGE_SCAN-th row after the cursor in a category (or all): the end of a bounded walk. */
export function boundaryQuery(dialect: Dialect, category: CategoryValue | undefined, sort: Sort, after?: ListOptions['after'], scan = SHORT_Q_PAGE_SCAN) {
  const keys = [...SORT_COLUMNS[sort], 'id'];
  const order = sql.join(keys.map((c) => sql`${sql.ref(`resources.${c}`)} desc`));
  return sql<SortKeyRow>`select ${sql.join(keys.map((c) => sql.ref(`resources.${c}`)))}
    ${fromWhere(dialect, { category, tags: [] }, 'walk', after ? [afterCondition(sort, after)] : [])}
    order by ${order} limit 1 offset ${scan - 1}`;
}

/** `(k1, k2, id) >= (v1, v2, vid)`: at or before this row in an all-descending order. */
function notAfterCondition(sort: Sort, row: SortKeyRow): Condition {
  const columns = [...SORT_COLUMNS[sort].map((c) => sql.ref(`resources.${c}`)), sql.ref('resources.id')];
  const values = [...SORT_COLUMNS[sort].map((c) => row[c]), row.id].map((v) => sql.val(v));
  return sql<SqlBool>`(${sql.join(columns)}) >= (${sql.join(values)})`;
}

type PageRow = Pick<Selectable<ResourcesTable>, 'id' | 'title' | 'description' | 'category' | 'thumbnail_url' | 'is_premium' | 'download_count' | 'popularity' | 'tags' | 'created_at' | 'updated_at'>;

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
