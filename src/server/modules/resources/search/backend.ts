import { type Kysely, type RawBuilder, sql, type SqlBool } from 'kysely';
import type { Tables } from '../../../db/schema';
import { isPublicSql, notTrashedSql, PUBLIC_STATUS } from '../visibility';
import { chooseStrategy, type CountedPlan, type PageStrategy, type SearchFilter, type SearchLimits, textUsesIndex, UNTRASHED } from './planning';

/**
 * What each database implements for search (SqliteSearch, PostgresSearch), and the SQL both share.
 * One backend is made per database when its search is created (search/index.ts): the dialect is
 * decided there once, and every difference between the databases lives in its backend.
 */

export type Condition = RawBuilder<SqlBool>;
type Value = string | number;

export type SortKey = 'popularity' | 'download_count' | 'created_at';

/** Rows ordered by these columns, then id, all one way. */
export interface KeysetOrder {
  keys: readonly SortKey[];
  direction: 'asc' | 'desc';
}

/** A page read in keyset order: at most `take` rows strictly after `after` and (a bounded walk) not after `until`. */
export interface RowsRequest {
  /** Columns of `resources` to select. */
  columns: readonly string[];
  order: KeysetOrder;
  take: number;
  /** The sort key values, then the id, of the row to continue after. */
  after?: Value[];
  /** The sort key values, then the id, of the last row the page may hold. */
  until?: Value[];
}

/** The rows a bounded walk runs over: a category or all, of a status or any. */
export type Scope = Pick<SearchFilter, 'category' | 'status'>;

/** A row's keys for `order` (the end of a bounded walk). */
export type KeyRow = { id: number } & Partial<Record<SortKey, Value>>;

/** What is stored for searching one resource (computed in stored-text.ts). */
export interface StoredSearchColumns {
  id: number;
  search_text: string;
  tag_keys: string[];
}

export abstract class SearchBackend {
  constructor(
    protected readonly db: Kysely<Tables>,
    protected readonly limits: SearchLimits,
  ) {}

  /** A search's total (up to limits.countCap) and its page strategy; `dataVersion` keys what the backend learns of the data. */
  abstract countMatches(f: SearchFilter, dataVersion: number | undefined): Promise<CountedPlan>;

  /** `from … where …` selecting exactly the filter's rows, shaped for the strategy, plus `extra` conditions on `resources`. */
  protected abstract fromWhere(f: SearchFilter, strategy: PageStrategy, extra?: Condition[]): RawBuilder<unknown>;

  /** An ORDER BY term. PostgreSQL, 'sort-matches': a form no index provides, so the planner gathers the matches and sorts them. */
  protected orderTerm(column: SortKey | 'id', direction: 'asc' | 'desc', _strategy: PageStrategy): RawBuilder<unknown> {
    return sql`${sql.ref(`resources.${column}`)} ${sql.raw(direction)}`;
  }

  /** `column` (`resources.id` unless given) among these ids (a few thousand at most). */
  abstract idAmong(ids: number[], column?: string): Condition;

  /** Runs a page's query (PostgreSQL forces a search's walk onto the sort index). */
  protected async runPage<R>(_f: SearchFilter, _strategy: PageStrategy, query: RawBuilder<R>): Promise<R[]> {
    return (await query.execute(this.db)).rows;
  }

  /** The text checked on the row itself (a walk, a 1–2 character text): the stored folded text holds it. */
  protected abstract textOnRow(text: string): Condition;

  /** The tag filter (any of the tag keys) checked for a row; `onRow`: on each row of a sort-index walk. */
  protected abstract tagCondition(tags: string[], onRow: boolean): Condition;

  /**
   * Only rows of this status (SearchFilter.status): the public one, and every one but the trash, in
   * the form that leaves plans to the sort and search indexes (visibility.ts).
   */
  protected statusCondition(status: string): Condition {
    if (status === PUBLIC_STATUS) return isPublicSql();
    if (status === UNTRASHED) return notTrashedSql();
    return sql<SqlBool>`resources.status = ${status}`;
  }

  /** A join read in the order written (SQLite: CROSS JOIN; PostgreSQL's planner orders joins itself). */
  readonly joinInOrder: RawBuilder<unknown> = sql`cross join`;

  /** The columns a 1–2 character text's count reads of each row (and a bounded scan checks, filters.ts). */
  abstract readonly shortTextColumns: RawBuilder<unknown>;

  /**
   * The filter checked on a row already found another way (filters.ts: a facet's candidates): its
   * category and status, and its text and tags in the forms that read the row.
   */
  rowConditions(f: SearchFilter): Condition[] {
    return [
      ...(f.category ? [sql<SqlBool>`resources.category = ${f.category}`] : []),
      ...(f.status !== undefined ? [this.statusCondition(f.status)] : []),
      ...(f.tags.length > 0 ? [this.tagCondition(f.tags, true)] : []),
      ...(f.text !== undefined ? [this.textOnRow(f.text)] : []),
    ];
  }

  /**
   * The stored search columns as values for the INSERT or UPDATE that writes a resource's text, in
   * that statement (on PostgreSQL a second update of a row this transaction wrote checks the admin_id
   * foreign key again, taking a KEY SHARE lock on the admin; deleteAdmin is written to let it).
   */
  abstract storedValues(columns: Omit<StoredSearchColumns, 'id'>): Record<string, unknown>;

  /** A resource's text as it is, for an edit that changes part of it (PostgreSQL: the row locked for the edit, as its UPDATE would). */
  abstract readForEdit(db: Kysely<Tables>, id: number): Promise<{ title: string; description: string; tags: string } | undefined>;

  /** Writes what this database stores for searching these resources (their search text, and tag keys where kept on the row). */
  abstract writeStoredColumns(db: Kysely<Tables>, rows: StoredSearchColumns[]): Promise<void>;

  // Shared SQL.

  /** A plain list's exact total: its index range (a category, or all; admin: one id). */
  async countAll(f: SearchFilter): Promise<number> {
    const { rows } = await this.countQuery(f).execute(this.db);
    return Number(rows[0]?.n ?? 0);
  }

  /** The count query: exact for a plain list; for a search up to `cap` + 1 of its matches (one more tells "more"). */
  countQuery(f: SearchFilter, cap = this.limits.countCap) {
    if (f.text === undefined && f.tags.length === 0) return sql<{ n: number }>`select count(*) as n ${this.fromWhere(f, 'walk-checking-rows')}`;
    return sql<{ n: number }>`select count(*) as n from (${this.matchIdsQuery(f, cap)}) as capped`;
  }

  /** A search's matches: up to `cap` + 1 of their ids. */
  matchIdsQuery(f: SearchFilter, cap: number) {
    const strategy: PageStrategy = f.text === undefined || textUsesIndex(f.text) || f.tags.length > 0 ? 'sort-matches' : 'walk-checking-rows';
    return sql<{ id: number }>`select resources.id ${this.fromWhere(f, strategy)} limit ${cap + 1}`;
  }

  /**
   * A 1–2 character text: its matches among the scope's first limits.shortTextCountScan rows.
   * `examined`: rows read (one more than the bound means "there were more"); `n`: matched.
   */
  shortTextCountQuery(f: SearchFilter & { text: string }) {
    const conditions = [this.textOnRow(f.text), ...(f.tags.length > 0 ? [this.tagCondition(f.tags, false)] : [])];
    return sql<{ examined: number; n: number | null }>`select count(*) as examined,
    sum(case when ${sql.join(conditions, sql` and `)} then 1 else 0 end) as n
    from (select ${this.shortTextColumns} from resources ${where([...(f.category ? [sql<SqlBool>`category = ${f.category}`] : []), ...(f.status ? [this.statusCondition(f.status)] : [])])}
      limit ${this.limits.shortTextCountScan + 1}) as resources`;
  }

  /** The plan of a 1–2 character text (alone or with tags), from its bounded count. */
  protected async countShortText(f: SearchFilter & { text: string }): Promise<CountedPlan> {
    const { countCap: cap, sortMatchesMax, shortTextCountScan } = this.limits;
    const { rows } = await this.shortTextCountQuery(f).execute(this.db);
    const n = Number(rows[0]?.n ?? 0);
    const readAll = Number(rows[0]?.examined ?? 0) <= shortTextCountScan;
    return { total: Math.min(n, cap), exact: readAll && n <= cap, strategy: chooseStrategy(f, readAll && n <= sortMatchesMax) };
  }

  /** The rows matching `f` read in `order` order, counted up to `cap` + 1 (admin: a 1–2 character text, or one id). */
  async countInOrder(f: SearchFilter, order: KeysetOrder, cap: number): Promise<number> {
    const { rows } = await sql<{ n: number }>`select count(*) as n from (select 1 as one ${this.fromWhere(f, 'walk-checking-rows')}
      order by ${this.orderBy(order, 'walk-checking-rows')} limit ${cap + 1}) as capped`.execute(this.db);
    return Number(rows[0]?.n ?? 0);
  }

  /** The page query (tests explain it). */
  pageQuery<R>(f: SearchFilter, strategy: PageStrategy, request: RowsRequest) {
    const extra = [
      ...(f.factConditions ?? []),
      ...(request.after ? [keysetCondition(request.order, request.after, 'after')] : []),
      ...(request.until ? [keysetCondition(request.order, request.until, 'not after')] : []),
    ];
    return sql<R>`select ${selectColumns(request.columns)}
    ${this.fromWhere(f, strategy, extra)}
    order by ${this.orderBy(request.order, strategy)} limit ${request.take}`;
  }

  /** One page of the filter's rows. */
  rows<R>(f: SearchFilter, strategy: PageStrategy, request: RowsRequest): Promise<R[]> {
    return this.runPage(f, strategy, this.pageQuery<R>(f, strategy, request));
  }

  /** One page of the rows with these ids (looked up by primary key), in order. */
  async rowsAmong<R>(ids: number[], request: RowsRequest): Promise<R[]> {
    const after = request.after ? sql` and ${keysetCondition(request.order, request.after, 'after')}` : sql``;
    const query = sql<R>`select ${selectColumns(request.columns)} from resources
    where ${this.idAmong(ids)}${after}
    order by ${this.orderBy(request.order, 'walk-checking-rows')} limit ${request.take}`;
    return (await query.execute(this.db)).rows;
  }

  /** The keys of the `offset`-th row after `after` in a scope (a category, or all; of a status), walking its sort index: the end of a bounded walk. */
  async rowAt(scope: Scope, order: KeysetOrder, after: Value[] | undefined, offset: number): Promise<KeyRow | undefined> {
    return (await this.rowAtQuery(scope, order, after, offset).execute(this.db)).rows[0];
  }

  rowAtQuery(scope: Scope, order: KeysetOrder, after: Value[] | undefined, offset: number) {
    const keys = [...order.keys, 'id'];
    return sql<KeyRow>`select ${sql.join(keys.map((c) => sql.ref(`resources.${c}`)))}
    ${this.fromWhere({ category: scope.category, status: scope.status, tags: [] }, 'walk-checking-rows', after ? [keysetCondition(order, after, 'after')] : [])}
    order by ${this.orderBy(order, 'walk-checking-rows')} limit 1 offset ${offset - 1}`;
  }

  protected orderBy(order: KeysetOrder, strategy: PageStrategy) {
    return sql.join([...order.keys, 'id' as const].map((c) => this.orderTerm(c, order.direction, strategy)));
  }
}

/** Conditions joined into a WHERE clause (none: no clause). */
export function where(conditions: Condition[]) {
  return conditions.length > 0 ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
}

function selectColumns(columns: readonly string[]) {
  return sql.join(columns.map((c) => sql.ref(`resources.${c}`)));
}

/**
 * Row-value comparison `(k1, k2, id) < (v1, v2, vid)` (descending; `>` ascending): exactly "after this
 * row" in the order; 'not after' is its complement, `>=` (`<=`).
 */
function keysetCondition(order: KeysetOrder, values: Value[], relation: 'after' | 'not after'): Condition {
  const columns = [...order.keys, 'id'].map((c) => sql.ref(`resources.${c}`));
  const op = { desc: { after: '<', 'not after': '>=' }, asc: { after: '>', 'not after': '<=' } }[order.direction][relation];
  return sql<SqlBool>`(${sql.join(columns)}) ${sql.raw(op)} (${sql.join(values.map((v) => sql.val(v)))})`;
}

/** User text inside a LIKE pattern matches itself, wildcards included. */
export function escapeLike(input: string): string {
  return input.replace(/[\\%_]/g, (c) => `\\${c}`);
}
