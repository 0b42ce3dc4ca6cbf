import { hasBrokenLinkSql } from '../../links/store';
import { type Kysely, type RawBuilder, sql, type SqlBool } from 'kysely';
import type { CategoryValue } from '../../../../contract/categories';
import type { Tables } from '../../../db/schema';
import { type Condition, escapeLike, SearchBackend, type SortKey, type StoredSearchColumns, where } from './backend';
import { chooseStrategy, type CountedPlan, hasShortText, isSearch, type PageStrategy, type SearchFilter, textUsesIndex } from './planning';
import { createSampleHolder, type TextPlan, textPlan } from './postgres-sample';

/**
 * PostgreSQL search: `resources.search_text` (the folded text, written by the app) and
 * `resources.tag_keys` (the folded tag keys) under GIN indexes over the tags and the text with its
 * spaces read as 'q' (SEARCH_JOIN; migration 008: one for all rows and one per category), which
 * LIKE '%…%' uses through pg_trgm. The planner chooses between those indexes and a sort index from
 * its statistics, helped where it guesses wrong (see INDEX_WALK, the gathering order, the dense count).
 */

/**
 * The expression the search indexes cover: the search text with each space read as 'q', so the
 * trigrams that span words are indexed. A row whose text contains q also contains q's joined form
 * (and each of its trigrams), so the index never misses a match; a 'q' may stand for a space there,
 * so the plain text is always checked too.
 */
export const SEARCH_JOIN = "replace(resources.search_text, ' ', 'q')";

/**
 * A text alone: a few thousand rows of the scope are read first (limits.denseScan; all: the table's
 * first rows, in storage order; a category: its newest, through its index), and when they hold more
 * matches than the cap the total is "cap+" without the search index, whose posting lists hold every
 * row of a common word. Only when the sample suggests those rows hold half the cap or more; then as
 * many rows as the sample says hold twice the cap, up to DENSE_READ_MAX times those, the reading
 * stopping at the cap's next match: a text on 5–10 % of the rows found 500–1,000 matches in the first
 * 10,000, never the cap, and the index was read after all (at 1,000,000 `neon`, on 5.9 %: 15 + 44 ms;
 * now 26 ms, reading until its 1,001st match; decision 464).
 */
export const DENSE_READ_MAX = 4;

/**
 * A search page that walks a sort index checking rows: the planner would rather scan the table in
 * parallel and sort (it cannot know how soon matches come), and parallel workers cost more to start
 * than a walk of a few thousand rows. Without a sort it cannot read the scope through another index
 * and sort what it finds either: it guesses ~20 matches for any text checked on the row, so reading a
 * category's 200,000 rows through (status, category) and sorting 20 looked cheaper than a walk that
 * stops at the 25th match (at 1,000,000 resources: 300–350 ms instead of 1–5 ms for a word on a third
 * of the category; decision 454). These settings hold for that one statement (set_config local).
 */
export const INDEX_WALK = { enable_seqscan: 'off', enable_bitmapscan: 'off', enable_sort: 'off', max_parallel_workers_per_gather: '0' };

/** A filter with what the sample says of its text: the trigrams the index is asked for. */
type PlannedFilter = SearchFilter & { indexTrigrams?: string[] };

export class PostgresSearch extends SearchBackend {
  readonly shortTextColumns = sql`id, search_text, tag_keys, status`;
  readonly joinInOrder = sql`join`;
  private readonly sampleAt = createSampleHolder(this.db);

  async countMatches(f: SearchFilter, dataVersion: number | undefined): Promise<CountedPlan> {
    const { countCap: cap, sortMatchesMax } = this.limits;
    if (hasShortText(f)) return this.countShortText(f);
    const plan = await this.textPlan(f, dataVersion);
    const planned: PlannedFilter = { ...f, indexTrigrams: plan?.trigrams };
    const firstRows = f.category ? this.limits.denseScan.category : this.limits.denseScan.all;
    if (plan && f.text !== undefined && f.tags.length === 0 && plan.share * firstRows >= cap / 2) {
      const read = Math.min(DENSE_READ_MAX * firstRows, Math.max(firstRows, Math.ceil((2 * (cap + 1)) / plan.share)));
      const { rows } = await this.denseCountQuery(f.text, f.category, cap, f.status, read).execute(this.db);
      if (Number(rows[0]?.n ?? 0) > cap) return { total: cap, exact: false, strategy: chooseStrategy(f, false) };
    }
    // The count reads the matches' ids: when they are few, the first page is found from them, not
    // from a second read of the index and of every candidate row.
    const { rows } = await this.matchIdsQuery(planned, cap).execute(this.db);
    const sortMatchesFit = rows.length <= Math.min(cap, sortMatchesMax);
    return {
      total: Math.min(rows.length, cap),
      exact: rows.length <= cap,
      strategy: chooseStrategy(f, sortMatchesFit),
      matchIds: sortMatchesFit ? rows.map((r) => Number(r.id)) : undefined,
    };
  }

  async rows<R>(f: SearchFilter, strategy: PageStrategy, request: Parameters<SearchBackend['rows']>[2]): Promise<R[]> {
    const plan = await this.textPlan(f, undefined);
    return super.rows<R>({ ...f, indexTrigrams: plan?.trigrams } as PlannedFilter, strategy, request);
  }

  /** A 3+ character text: the sample's plan for it (the sample at this data version; undefined: the one held). */
  private async textPlan(f: SearchFilter, dataVersion: number | undefined): Promise<TextPlan | undefined> {
    if (f.text === undefined || !textUsesIndex(f.text)) return undefined;
    return textPlan(await this.sampleAt(dataVersion), f.text, f.category);
  }

  matchIdsQuery(f: SearchFilter, cap: number) {
    if (f.text === undefined && !f.category && f.status === undefined) {
      // Tags alone: the (tag, resource_id) index answers without reading resources (index-only). In a
      // category, its own search index holds the tags: a lookup of every tagged row to check its
      // category would read rows of every category.
      return sql<{ id: number }>`select distinct resource_id as id from resource_tags where tag in (${sql.join(f.tags)}) limit ${cap + 1}`;
    }
    return super.matchIdsQuery(f, cap);
  }

  /** The dense count (limits.denseScan): matches of the text among the scope's first `read` rows, up to `cap` + 1. */
  denseCountQuery(text: string, category: CategoryValue | undefined, cap: number, status?: string, read = category ? this.limits.denseScan.category : this.limits.denseScan.all) {
    const ofStatus = status === undefined ? [] : [this.statusCondition(status)];
    const rows = category
      ? sql`select search_text from resources ${where([sql<SqlBool>`category = ${category}`, ...ofStatus])} order by created_at desc, id desc limit ${read}`
      : sql`select search_text from resources ${where(ofStatus)} limit ${read}`;
    return sql<{ n: number }>`select count(*) as n from (select 1 from (${rows}) as resources where ${this.textOnRow(text)} limit ${cap + 1}) as capped`;
  }

  /**
   * The same conditions for every strategy, in the form it needs: through the search indexes, or
   * (a walk) on each row in a form no index serves, so the planner walks the sort index as the count
   * decided (it estimates a trigram LIKE at ~100 rows whatever the text, and would gather and sort
   * thousands of matches instead).
   */
  protected fromWhere(f: PlannedFilter, strategy: PageStrategy, extra: Condition[] = []) {
    const conditions: Condition[] = [];
    if (f.category) conditions.push(sql<SqlBool>`resources.category = ${f.category}`);
    if (f.id !== undefined) conditions.push(sql<SqlBool>`resources.id = ${f.id}`);
    if (f.status !== undefined) conditions.push(this.statusCondition(f.status));
    if (f.brokenLinks) conditions.push(hasBrokenLinkSql());
    const walk = strategy === 'walk-checking-rows';
    if (f.tags.length > 0) conditions.push(this.tagCondition(f.tags, walk));
    if (f.text !== undefined) conditions.push(textUsesIndex(f.text) && !walk ? indexedText(f.text, f.indexTrigrams) : this.textOnRow(f.text));
    return sql`from resources ${where([...conditions, ...extra])}`;
  }

  /** Any of the tag keys, through the search indexes; `onRow`: `|| '{}'` keeps the planner from trying them. */
  protected tagCondition(tags: string[], onRow: boolean): Condition {
    return onRow
      ? sql<SqlBool>`(resources.tag_keys || '{}'::text[]) && array[${sql.join(tags)}]::text[]`
      : sql<SqlBool>`resources.tag_keys && array[${sql.join(tags)}]::text[]`;
  }

  /** The text on the row (the stored text is folded, as the text is); `|| ''` keeps the planner from trying the index. */
  protected textOnRow(text: string): Condition {
    return sql<SqlBool>`(resources.search_text || '') like ${`%${escapeLike(text)}%`} escape '\\'`;
  }

  /**
   * 'sort-matches': an order no index provides, so the planner gathers the matches (GIN) and sorts
   * them, instead of walking a sort index in the hope that matches come soon (its estimate assumes
   * text and category independent: a word common elsewhere but absent from this category would read
   * the whole category).
   */
  protected orderTerm(column: SortKey | 'id', direction: 'asc' | 'desc', strategy: PageStrategy): RawBuilder<unknown> {
    if (strategy !== 'sort-matches') return super.orderTerm(column, direction, strategy);
    const ref = sql.ref(`resources.${column}`);
    return column === 'created_at' ? sql`${ref} || '' ${sql.raw(direction)}` : sql`${ref} + 0 ${sql.raw(direction)}`;
  }

  idAmong(ids: number[], column = 'resources.id'): Condition {
    return sql<SqlBool>`${sql.ref(column)} = any(${ids}::int[])`;
  }

  /** A search that walks (strategy 'walk-checking-rows') walks its sort index whatever the planner estimates; a plain list needs no help. */
  protected async runPage<R>(f: SearchFilter, strategy: PageStrategy, query: RawBuilder<R>): Promise<R[]> {
    if (strategy !== 'walk-checking-rows' || (!isSearch(f) && !f.factConditions?.length) || f.id !== undefined) return (await query.execute(this.db)).rows;
    return this.db.transaction().execute(async (trx) => {
      await sql`select ${sql.join(Object.entries(INDEX_WALK).map(([k, v]) => sql`set_config(${k}, ${v}, true)`))}`.execute(trx);
      return (await query.execute(trx)).rows;
    });
  }

  async readForEdit(db: Kysely<Tables>, id: number) {
    return db.selectFrom('resources').select(['title', 'description', 'tags']).where('id', '=', id).forUpdate().executeTakeFirst();
  }

  storedValues(columns: Omit<StoredSearchColumns, 'id'>) {
    return { search_text: columns.search_text, tag_keys: columns.tag_keys };
  }

  async writeStoredColumns(db: Kysely<Tables>, rows: StoredSearchColumns[]): Promise<void> {
    if (rows.length === 0) return;
    await sql`update resources set search_text = stored.search_text, tag_keys = stored.tag_keys
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as stored(id integer, search_text text, tag_keys text[])
      where resources.id = stored.id`.execute(db);
  }
}

/**
 * The text through the search indexes: the index is asked for the text's rarest trigrams only
 * (`trigrams`, see postgres-sample.ts), each a LIKE of its own, and the plain search text is checked
 * against the whole text: exact whatever it holds (a space, a 'q'). Without `trigrams` (none that
 * pg_trgm indexes as they are, e.g. `---`), the index is asked for the joined form of the whole text.
 */
function indexedText(text: string, trigrams: string[] | undefined): Condition {
  const pattern = `%${escapeLike(text)}%`;
  const plain = sql<SqlBool>`resources.search_text like ${pattern} escape '\\'`;
  const index = trigrams?.length ? trigrams.map((t) => `%${t}%`) : [pattern.replace(/ /g, 'q')];
  return sql<SqlBool>`${plain} and ${sql.join(index.map((p) => sql`${sql.raw(SEARCH_JOIN)} like ${p} escape '\\'`), sql` and `)}`;
}
