import { hasBrokenLinkSql } from '../../links/store';
import { type Kysely, sql, type SqlBool } from 'kysely';
import type { CategoryValue } from '../../../../contract/categories';
import type { Tables } from '../../../db/schema';
import { versionedMemo } from '../../../db/versioned-memo';
import { isHiddenSql, PUBLIC_STATUS } from '../visibility';
import { type Condition, SearchBackend, type StoredSearchColumns, where } from './backend';
import { chooseStrategy, type CountedPlan, hasShortText, type PageStrategy, type SearchFilter, textUsesIndex } from './planning';

/**
 * SQLite search: the FTS5 trigram index `resources_fts` (migration 009) over the stored folded
 * search text, kept by triggers from `resources.search_text`. Its rowid is category code ×
 * SEARCH_ROWID_SPAN + resource id, so a search in a category reads only that rowid range; tags are
 * indexed inside the text as \x01tag\x01 (no text can hold \x01), so a phrase finds a whole tag.
 */
export const SEARCH_ROWID_SPAN = 4294967296;

/**
 * For a bulk load (a restore): the trigger that indexes each inserted resource is dropped, and the
 * returned function indexes every resource in one statement, in rowid order, then makes the trigger
 * again — a third of the time per row of the trigger's way (100,000 resources: 10 s → 3 s). Only at
 * the trigger of migration 009 on; at an older level (or PostgreSQL) nothing is dropped and the
 * function does nothing.
 */
export async function suspendSearchIndexing(db: Kysely<Tables>): Promise<() => Promise<void>> {
  const { rows } = await sql<{ definition: string }>`select sql as definition from sqlite_master where type = 'trigger' and name = 'resources_search_insert'`.execute(db);
  const trigger = rows[0]?.definition;
  if (!trigger) return async () => {};
  await sql`drop trigger resources_search_insert`.execute(db);
  return async () => {
    await sql`insert or ignore into search_categories (category) select distinct category from resources`.execute(db);
    await sql`insert into resources_fts (rowid, search_text)
      select c.code * ${sql.lit(SEARCH_ROWID_SPAN)} + r.id, r.search_text from resources r join search_categories c on c.category = r.category order by 1`.execute(db);
    await sql.raw(trigger).execute(db);
  };
}

/** User text as one FTS5 phrase: inside double quotes every character is text (quotes doubled). */
export function ftsPhrase(input: string): string {
  return `"${input.replace(/"/g, '""')}"`;
}

/**
 * Up to this many hidden resources in a search's scope, a public search is counted in the FTS5 index
 * alone, with the hidden among its matches taken out by id; beyond it each match's row is looked up
 * for its status. At 1,000,000 resources 5,001 lookups cost ~6–9 ms of a 10–13 ms count, the index
 * alone 1.3–4.9 ms (docs/performance.md, "Lists and search at 1,000,000 resources").
 */
const HIDDEN_SET_MAX = 2000;

export class SqliteSearch extends SearchBackend {
  readonly shortTextColumns = sql`id, search_text, status`;
  private readonly hiddenCounts = versionedMemo<number>(100);

  async countMatches(f: SearchFilter, dataVersion: number | undefined): Promise<CountedPlan> {
    const { countCap: cap, sortMatchesMax, matchSetMax } = this.limits;
    if (hasShortText(f)) return this.countShortText(f);
    const hidden = await this.hiddenForCount(f, dataVersion);
    // A text and tags: reading their intersection in FTS5 costs as much as the text's whole match
    // list, so it is counted only up to the cap, and beyond that the page walks the sort index
    // checking rows (past the cap the walk meets a page soon; a set of the text's own matches would
    // cost more to count and build than the walk it saves). The count reads the matches' ids: when
    // they are few, the first page is found from them, not from a second read of the intersection.
    if (f.text !== undefined && f.tags.length > 0) {
      const { rows } = await this.matchIdsQuery(f, Math.max(cap, sortMatchesMax), hidden).execute(this.db);
      const sortMatchesFit = rows.length <= sortMatchesMax;
      return {
        total: Math.min(rows.length, cap),
        exact: rows.length <= cap,
        strategy: chooseStrategy(f, sortMatchesFit),
        matchIds: sortMatchesFit ? rows.map((r) => Number(r.id)) : undefined,
      };
    }
    // A text alone, or tags alone: the FTS5 index alone counts them, far enough to choose between the three strategies.
    const { rows } = await sql<{ n: number }>`select count(*) as n from (${this.matchIdsQuery(f, Math.max(cap, sortMatchesMax, matchSetMax), hidden)}) as capped`.execute(this.db);
    const n = Number(rows[0]?.n ?? 0);
    return { total: Math.min(n, cap), exact: n <= cap, strategy: chooseStrategy(f, n <= sortMatchesMax, n <= matchSetMax) };
  }

  /**
   * Up to `cap` + 1 of a search's matching ids. `hidden`: the public search's scope holds this many
   * hidden resources (hiddenForCount): the FTS5 index is read alone, `hidden` matches further, and
   * those hidden taken out by id — at most `hidden` of the matches read are, so `cap` + 1 remain
   * whenever the search has that many public matches.
   */
  matchIdsQuery(f: SearchFilter, cap: number, hidden?: number) {
    const fts = this.ftsOnly(f.status === PUBLIC_STATUS && hidden !== undefined ? { ...f, status: undefined } : f);
    if (fts && f.status === PUBLIC_STATUS) {
      const scope = f.category ? sql` and resources.category = ${f.category}` : sql``;
      return sql<{ id: number }>`select m.id from (select resources_fts.rowid % ${sql.lit(SEARCH_ROWID_SPAN)} as id ${fts} limit ${cap + 1 + hidden!}) as m
        where m.id not in (select resources.id from resources where ${isHiddenSql()}${scope}) limit ${cap + 1}`;
    }
    if (fts) return sql<{ id: number }>`select resources_fts.rowid % ${sql.lit(SEARCH_ROWID_SPAN)} as id ${fts} limit ${cap + 1}`;
    return super.matchIdsQuery(f, cap);
  }

  /**
   * For a public search read in the FTS5 index (3+ characters, or tags), the hidden resources of its
   * scope when they are at most HIDDEN_SET_MAX (remembered per data version); otherwise undefined.
   */
  private async hiddenForCount(f: SearchFilter, dataVersion: number | undefined): Promise<number | undefined> {
    if (f.status !== PUBLIC_STATUS || f.id !== undefined || f.brokenLinks || ftsQuery(f) === undefined) return undefined;
    const key = f.category ?? '';
    let n = this.hiddenCounts.get(this, key, dataVersion);
    if (n === undefined) {
      const scope = f.category ? sql` and category = ${f.category}` : sql``;
      const { rows } = await sql<{ n: number }>`select count(*) as n from (select 1 from resources where ${isHiddenSql()}${scope} limit ${HIDDEN_SET_MAX + 1}) as capped`.execute(this.db);
      n = Number(rows[0]?.n ?? 0);
      this.hiddenCounts.set(this, key, dataVersion, n);
    }
    return n <= HIDDEN_SET_MAX ? n : undefined;
  }

  /**
   * 'sort-matches' starts from the FTS5 index (text and tags; a category is a rowid range of it) and
   * looks the rows up: CROSS JOIN fixes that join order. 'walk-match-set' walks the sort index
   * checking ids against a set of the matches. 'walk-checking-rows' walks a sort index and checks rows.
   */
  protected fromWhere(f: SearchFilter, strategy: PageStrategy, extra: Condition[] = []) {
    const conditions: Condition[] = [];
    let from = sql`from resources`;
    const fts = strategy !== 'walk-checking-rows' ? ftsQuery(f) : undefined;
    if (fts !== undefined && strategy === 'walk-match-set') {
      // The set holds the matches read once from FTS5; the check uses the id only, so no row is read
      // before it matches. The unary + keeps the set from driving the query: the sort index is
      // walked, ids checked against the set. (A text with tags is not given this strategy, see
      // countMatches; were it, its FTS5 tag part is a superset and the tags are checked exactly too.)
      const range = f.category ? sql` and ${ftsRange(f.category)}` : sql``;
      if (f.category) conditions.push(sql<SqlBool>`resources.category = ${f.category}`);
      conditions.push(
        sql<SqlBool>`+resources.id in (select resources_fts.rowid % ${sql.lit(SEARCH_ROWID_SPAN)} from resources_fts
        where resources_fts match ${fts}${range})`,
      );
      if (ftsTagsInexact(f)) conditions.push(this.tagCondition(f.tags));
    } else if (fts !== undefined) {
      from = sql`from resources_fts cross join resources on resources.id = resources_fts.rowid % ${sql.lit(SEARCH_ROWID_SPAN)}`;
      conditions.push(sql<SqlBool>`resources_fts match ${fts}`);
      if (f.category) conditions.push(ftsRange(f.category));
      if (ftsTagsInexact(f)) conditions.push(ftsTagCheck(f.tags));
    } else if (f.category) {
      conditions.push(sql<SqlBool>`resources.category = ${f.category}`);
    }
    if (f.id !== undefined) conditions.push(sql<SqlBool>`resources.id = ${f.id}`);
    if (f.status !== undefined) conditions.push(this.statusCondition(f.status));
    if (f.brokenLinks) conditions.push(hasBrokenLinkSql());
    // Tags first: checked in the (tag, resource_id) index, before a row is read for the text.
    const tagCheck = f.tags.length > 0 && fts === undefined ? this.tagCondition(f.tags) : undefined;
    const textCheck = f.text === undefined || (fts !== undefined && textUsesIndex(f.text)) ? undefined : this.textOnRow(f.text);
    // SQLite evaluates terms holding a subquery after the others, so the text check (which reads the
    // row) would run before the tag check (an index probe) on every entry walked: one CASE keeps the order.
    if (tagCheck && textCheck) conditions.push(sql<SqlBool>`case when ${tagCheck} then ${textCheck} else 0 end`);
    else conditions.push(...[tagCheck, textCheck].filter((c) => c !== undefined));
    return sql`${from} ${where([...conditions, ...extra])}`;
  }

  /** The tag filter: any of the tag keys, in resource_tags' (tag, resource_id) index. */
  protected tagCondition(tags: string[]): Condition {
    return sql<SqlBool>`exists (select 1 from resource_tags where resource_tags.resource_id = resources.id and resource_tags.tag in (${sql.join(tags)}))`;
  }

  /** The stored text is folded, as the text is: a plain, case-sensitive substring test. */
  protected textOnRow(text: string): Condition {
    return sql<SqlBool>`instr(resources.search_text, ${text}) > 0`;
  }

  idAmong(ids: number[], column = 'resources.id'): Condition {
    return sql<SqlBool>`${sql.ref(column)} in (select value from json_each(${JSON.stringify(ids)}))`;
  }

  /**
   * Only the FTS5 index, for counting: every resource has exactly one row there (triggers), so a
   * count needs no lookup of the resources. Not with a status: that is on the row (each match looked
   * up by its id, up to the count's bound), except a public search's, whose few hidden resources are
   * taken out by id (matchIdsQuery).
   */
  private ftsOnly(f: SearchFilter) {
    const fts = ftsQuery(f);
    if (fts === undefined || hasShortText(f) || f.status !== undefined) return undefined;
    const conditions: Condition[] = [sql<SqlBool>`resources_fts match ${fts}`];
    if (f.category) conditions.push(ftsRange(f.category));
    if (ftsTagsInexact(f)) conditions.push(ftsTagCheck(f.tags));
    return sql`from resources_fts ${where(conditions)}`;
  }

  async readForEdit(db: Kysely<Tables>, id: number) {
    return db.selectFrom('resources').select(['title', 'description', 'tags']).where('id', '=', id).executeTakeFirst();
  }

  storedValues(columns: Omit<StoredSearchColumns, 'id'>) {
    return { search_text: columns.search_text };
  }

  async writeStoredColumns(db: Kysely<Tables>, rows: StoredSearchColumns[]): Promise<void> {
    if (rows.length === 0) return;
    // The FTS5 row follows by trigger (migration 009).
    await sql`update resources set search_text = json_extract(stored.value, '$.search_text')
      from json_each(${JSON.stringify(rows.map((r) => ({ id: r.id, search_text: r.search_text })))}) as stored
      where resources.id = json_extract(stored.value, '$.id')`.execute(db);
  }
}

/** The FTS5 query for a filter's text and tags, or undefined when the index cannot narrow it. */
function ftsQuery(f: SearchFilter): string | undefined {
  const parts: string[] = [];
  if (f.text !== undefined && textUsesIndex(f.text)) parts.push(ftsPhrase(f.text));
  // Each tag is indexed as \x01tag\x01. Alone, that phrase is the whole tag. With a text, its first
  // and last trigrams (\x01 and two characters, two characters and \x01) are rare and narrow the
  // text's rows to those with a tag that starts and one that ends like it, far cheaper to intersect
  // than the whole phrase of common trigrams; a superset, so then every use also checks the tags
  // exactly in resource_tags (see ftsTagsInexact).
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
function ftsTagsInexact(f: SearchFilter): boolean {
  return f.tags.length > 0 && f.text !== undefined && textUsesIndex(f.text);
}

/** The exact tag check for an FTS5 row (its tag query is a superset, see ftsQuery): the (tag, resource_id) index. */
function ftsTagCheck(tags: string[]): Condition {
  return sql<SqlBool>`exists (select 1 from resource_tags where resource_tags.tag in (${sql.join(tags)})
    and resource_tags.resource_id = resources_fts.rowid % ${sql.lit(SEARCH_ROWID_SPAN)})`;
}

/** A category's rowid range of the FTS5 index. */
function ftsRange(category: CategoryValue): Condition {
  const code = sql`(select code from search_categories where category = ${category})`;
  return sql<SqlBool>`resources_fts.rowid >= ${code} * ${sql.lit(SEARCH_ROWID_SPAN)} and resources_fts.rowid < (${code} + 1) * ${sql.lit(SEARCH_ROWID_SPAN)}`;
}
