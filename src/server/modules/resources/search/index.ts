import { type Kysely, sql } from 'kysely';
import type { CategoryValue } from '../../../../contract/categories';
import { type ResourceStatus, type Sort, TRASHED_STATUS } from '../../../../contract/resources';
import type { Database } from '../../../db/connection';
import type { Tables } from '../../../db/schema';
import { versionedMemo } from '../../../db/versioned-memo';
import { ADMIN_COLUMNS, type AdminRow, PUBLIC_COLUMNS, type PublicRow } from '../columns';
import { type ListPosition, SORT_COLUMNS, type SortKeyRow } from '../cursor';
import type { KeysetOrder, SearchBackend } from './backend';
import { type CountedPlan, hasShortText, isSearch, SEARCH_LIMITS, type SearchFilter, searchFilter, type SearchLimits, type SearchPlan, textUsesIndex, UNTRASHED } from './planning';
import { PostgresSearch } from './postgres';
import { SqliteSearch } from './sqlite';
import { foldedColumns, storedSearchColumns, writeTagRows } from './stored-text';
import { parseTags } from '../mappers';
import { PUBLIC_STATUS } from '../visibility';
import type { ResourceFacets } from '../../../../contract/resources';
import { type FactFilter, factConditions, FactSearch, FILTER_LIMITS, type FilterLimits, hasFactFilter } from './filters';
import { computeStaleFacets } from './facet-rows';

export { SEARCH_LIMITS, type SearchLimits } from './planning';

export interface ListOptions {
  /** The public list's filters; only public resources (visibility.ts) are listed whatever they say. */
  filters: { category?: CategoryValue; q?: string; tags?: string[]; facts?: FactFilter };
  sort: Sort;
  limit: number;
  /** Continue strictly after this row in sort order. */
  after?: ListPosition;
  /**
   * The data version read before this query: totals are remembered per filter under it, so later
   * pages, other sorts and repeated first pages skip counting.
   */
  dataVersion?: number;
}

export interface ListPage {
  rows: PublicRow[];
  hasMore: boolean;
  /** A bounded walk (1–2 character text) that read its rows without filling the page: the next page starts after this row. */
  continueAfter?: SortKeyRow;
  total: number;
  totalExact: boolean;
}

export type { FactFilter } from './filters';

/** The admin list's order: newest first, created_at then id. */
const NEWEST: KeysetOrder = { keys: ['created_at'], direction: 'desc' };
const OLDEST: KeysetOrder = { keys: ['created_at'], direction: 'asc' };

/**
 * Search and lists of resources for one database: the public list (any sort, text and tags) and
 * the admin list (newest first, text or id). Made once per database (`resourceSearch`), with its
 * backend chosen by the database's kind and its memory (totals, PostgreSQL's sample) its own.
 */
export class ResourceSearch {
  /** Filter → plan, valid while the data version is unchanged; bounded like the response cache. */
  private readonly totals = versionedMemo<SearchPlan>(1000);
  private readonly adminTotals = versionedMemo<SearchPlan>(500);
  /** The data version at which no resource lacked its stored search text (see refreshStaleText). */
  private freshAt: number | undefined;
  private refreshing: Promise<void> | undefined;
  /** The data version at which no resource's facet rows were stale (see refreshFacets). */
  private facetsFreshAt: number | undefined;
  private readonly facts: FactSearch;

  constructor(
    private readonly db: Kysely<Tables>,
    readonly backend: SearchBackend,
    readonly limits: SearchLimits,
    filterLimits: FilterLimits = FILTER_LIMITS,
  ) {
    this.facts = new FactSearch(db, backend, filterLimits, (f, v) => this.planFor(f, v));
  }

  /** A search's plan, remembered per filter under the data version (with the matches' ids when just counted and few). */
  private async planFor(f: SearchFilter, dataVersion: number | undefined): Promise<CountedPlan> {
    const key = JSON.stringify([f.category ?? null, f.text ?? null, [...f.tags].sort(), f.status ?? null]);
    const plan = this.totals.get(this.backend, key, dataVersion);
    if (plan) return plan;
    const counted = await this.count(f, dataVersion);
    const { matchIds: _ids, ...remembered } = counted;
    this.totals.set(this.backend, key, dataVersion, remembered);
    return counted;
  }

  /** One page of the public list (limit rows, and whether more follow). */
  async list(options: ListOptions): Promise<ListPage> {
    const { sort, limit, after, dataVersion } = options;
    const f = searchFilter({ ...options.filters, status: PUBLIC_STATUS });
    if (isSearch(f)) await this.refreshStaleText(dataVersion);
    const facts = options.filters.facts;
    if (hasFactFilter(facts)) return this.listFiltered(f, facts, options);
    const { matchIds, ...plan } = await this.planFor(f, dataVersion);
    const page = { total: plan.total, totalExact: plan.exact };
    // Nothing matches: no page to look for.
    if (plan.exact && plan.total === 0) return { rows: [], hasMore: false, ...page };
    const request = { columns: PUBLIC_COLUMNS, order: { keys: SORT_COLUMNS[sort], direction: 'desc' as const }, take: limit + 1, after: after && [...after.keys, after.id] };
    if (plan.strategy === 'walk-checking-rows' && hasShortText(f)) {
      // Bounded: the shortTextPageScan-th row after the cursor (an index-only walk) ends the range read.
      const end = await this.backend.rowAt(f, request.order, request.after, this.limits.shortTextPageScan);
      const until = end && [...SORT_COLUMNS[sort].map((c) => end[c]!), end.id];
      const rows = await this.backend.rows<PublicRow>(f, plan.strategy, { ...request, until });
      if (rows.length > limit || !end) return { rows: rows.slice(0, limit), hasMore: rows.length > limit, ...page };
      return { rows, hasMore: true, continueAfter: end as SortKeyRow, ...page };
    }
    const rows =
      matchIds && plan.strategy === 'sort-matches'
        ? await this.backend.rowsAmong<PublicRow>(matchIds, request)
        : await this.backend.rows<PublicRow>(f, plan.strategy, request);
    return { rows: rows.slice(0, limit), hasMore: rows.length > limit, ...page };
  }

  /**
   * A page of a list with fact filters (filters.ts): from its matches when all are known (exact
   * total), else a bounded walk of the sort index checking each row, as a 1–2 character text's
   * (returned short, with the row to continue after, when the rows read hold less than a page).
   */
  private async listFiltered(f: SearchFilter, facts: FactFilter, options: ListOptions): Promise<ListPage> {
    const { sort, limit, after, dataVersion } = options;
    await this.refreshFacets(dataVersion);
    const m = await this.facts.matches(f, facts, dataVersion);
    const request = { columns: PUBLIC_COLUMNS, order: { keys: SORT_COLUMNS[sort], direction: 'desc' as const }, take: limit + 1, after: after && [...after.keys, after.id] };
    if (m.complete) {
      const page = { total: m.ids.length, totalExact: true };
      if (m.ids.length === 0) return { rows: [], hasMore: false, ...page };
      const rows = await this.backend.rowsAmong<PublicRow>(m.ids, request);
      return { rows: rows.slice(0, limit), hasMore: rows.length > limit, ...page };
    }
    const page = { total: Math.min(m.ids.length, this.limits.countCap), totalExact: false };
    // Newest first, the scan's matches (the scope's newest rows, in this order) are the walk's first rows:
    // a first page they fill is read by id (decision 464).
    if (sort === 'newest' && !after && m.ids.length > limit) {
      const rows = await this.backend.rowsAmong<PublicRow>(m.ids.slice(0, limit + 1), request);
      return { rows: rows.slice(0, limit), hasMore: true, ...page };
    }
    const walked = { ...f, factConditions: factConditions(facts) };
    const end = await this.backend.rowAt(f, request.order, request.after, this.limits.shortTextPageScan);
    const until = end && [...SORT_COLUMNS[sort].map((c) => end[c]!), end.id];
    const rows = await this.backend.rows<PublicRow>(walked, 'walk-checking-rows', { ...request, until });
    if (rows.length > limit || !end) return { rows: rows.slice(0, limit), hasMore: rows.length > limit, ...page };
    return { rows, hasMore: true, continueAfter: end as SortKeyRow, ...page };
  }

  /**
   * A page of the public list with its facets (`facets=true`), its total agreeing with them (decision
   * 465). The category facet, under every other filter, counts each match of the list once: exact
   * facets give the exact total where the count stopped at its cap ("1,000+" beside "All categories
   * 1,146"); inexact ones, like a capped count, a least total, and the larger of the two is kept.
   */
  async listWithFacets(options: ListOptions): Promise<ListPage & { facets: ResourceFacets }> {
    const page = await this.list(options);
    const facets = await this.facets(options);
    if (page.totalExact) return { ...page, facets };
    const { category } = options.filters;
    const counted = facets.category.reduce((n, c) => (category === undefined || c.value === category ? n + c.count : n), 0);
    return facets.exact ? { ...page, total: counted, totalExact: true, facets } : { ...page, total: Math.max(page.total, counted), facets };
  }

  /** The facets of the public list with these filters (contract/resources.ts resourceFacetsSchema). */
  async facets(options: Pick<ListOptions, 'filters' | 'dataVersion'>): Promise<ResourceFacets> {
    const f = searchFilter({ ...options.filters, status: PUBLIC_STATUS });
    if (isSearch(f)) await this.refreshStaleText(options.dataVersion);
    await this.refreshFacets(options.dataVersion);
    return this.facts.facets(f, options.filters.facts ?? {}, options.dataVersion);
  }

  /**
   * Facet rows marked stale and not computed by their writer (SQL from outside the app) are
   * computed now, a batch once per data version (such a write bumps it), and again while any is
   * left (one another transaction held). Until then such a resource matches no fact filter.
   */
  private async refreshFacets(dataVersion: number | undefined): Promise<void> {
    if (dataVersion !== undefined && dataVersion === this.facetsFreshAt) return;
    // Usually none (each writer computes its own): one read, no transaction.
    const marked = await this.db.selectFrom('resource_facets_stale').select('resource_id').limit(1).execute().catch(() => [undefined]);
    if (marked.length === 0) {
      this.facetsFreshAt = dataVersion;
      return;
    }
    const left = await this.db
      .transaction()
      .execute(async (trx) => {
        await computeStaleFacets(trx, STALE_BATCH);
        // One held by another transaction was left to it (computeStaleFacets): fresh only without any.
        return (await trx.selectFrom('resource_facets_stale').select('resource_id').limit(1).execute()).length;
      })
      .catch(() => 1);
    if (left === 0) this.facetsFreshAt = dataVersion;
  }

  /** A filter's total and page strategy: a plain list counts exactly; a search up to the cap. */
  async count(f: SearchFilter, dataVersion: number | undefined): Promise<CountedPlan> {
    if (!isSearch(f)) return { total: await this.backend.countAll(f), exact: true, strategy: 'walk-checking-rows' };
    return this.backend.countMatches(f, dataVersion);
  }

  /**
   * The admin list's filter and plan. A 3+ character text follows the public search's rule and
   * index; a 1–2 character text (or a text with an id) walks the newest index checking rows, its
   * count stopping at the cap; a plain list (a category, an id) counts its index range. Resources in
   * the trash are never in it (they have the Trash page).
   */
  async planAdminList(asked: { category?: CategoryValue; q?: string; id?: number; status?: ResourceStatus; brokenLinks?: boolean }, dataVersion: number) {
    const f = searchFilter({ ...asked, status: asked.status ?? UNTRASHED });
    if (isSearch(f)) await this.refreshStaleText(dataVersion);
    const key = JSON.stringify([f.category ?? null, f.text ?? null, f.id ?? null, f.status ?? null]);
    // Link checks write without bumping the data version: a broken-links total is counted each time.
    let plan = f.brokenLinks ? undefined : this.adminTotals.get(this.backend, key, dataVersion);
    if (!plan) {
      plan = await this.countForAdmin(f, dataVersion);
      if (!f.brokenLinks) this.adminTotals.set(this.backend, key, dataVersion, plan);
    }
    return { filter: f, plan };
  }

  private async countForAdmin(f: SearchFilter, dataVersion: number): Promise<SearchPlan> {
    if (f.text !== undefined && f.id === undefined && textUsesIndex(f.text)) {
      const { total, exact, strategy } = await this.backend.countMatches(f, dataVersion);
      return { total, exact, strategy };
    }
    if (f.text === undefined) return { total: await this.countAllForAdmin(f), exact: true, strategy: 'walk-checking-rows' };
    const cap = this.limits.countCap;
    const n = await this.backend.countInOrder(f, NEWEST, cap);
    return { total: Math.min(n, cap), exact: n <= cap, strategy: 'walk-checking-rows' };
  }

  /**
   * A plain admin list's exact total. Without a status filter: everything in the scope (its index
   * alone) less the trash's part of it (resources_public_count: status and category), as the status
   * checked on every row would read every row of the scope.
   */
  private async countAllForAdmin(f: SearchFilter): Promise<number> {
    if (f.status !== UNTRASHED) return this.backend.countAll(f);
    const [all, trashed] = await Promise.all([this.backend.countAll({ ...f, status: undefined }), this.backend.countAll({ ...f, status: TRASHED_STATUS })]);
    return all - trashed;
  }

  /** Up to `take` rows of the admin list strictly older (newest first) or newer (oldest first) than `from`. */
  adminRows(f: SearchFilter, plan: SearchPlan, direction: 'older' | 'newer', from: { createdAt: string; id: number } | undefined, take: number) {
    return this.backend.rows<AdminRow>(f, plan.strategy, {
      columns: ADMIN_COLUMNS,
      order: direction === 'older' ? NEWEST : OLDEST,
      take,
      after: from && [from.createdAt, from.id],
    });
  }

  /**
   * Resources whose title, description or tags were written without their search text (SQL from
   * outside the app: a script, a test, an import; migration 009's triggers clear the stale text) get
   * it now, by the one fold: checked once per data version (such a write bumps it), a batch at a
   * time. Until then those rows are not found, never found wrongly; a failed refresh is tried again.
   */
  private refreshStaleText(dataVersion: number | undefined): Promise<void> {
    if (dataVersion !== undefined && dataVersion === this.freshAt) return Promise.resolve();
    this.refreshing ??= this.refreshBatch(dataVersion)
      .catch(() => {})
      .finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async refreshBatch(dataVersion: number | undefined): Promise<void> {
    const { rows } = await sql<{ id: number; title: string; description: string; tags: string }>`select id, title, description, tags
      from resources where search_text is null order by id limit ${STALE_BATCH}`.execute(this.db);
    if (rows.length > 0) {
      const resources = rows.map((r) => ({ id: Number(r.id), title: r.title, description: r.description, tags: parseTags(r.tags) }));
      await this.db.transaction().execute(async (trx) => {
        await this.writeStoredText(trx, resources);
        await writeTagRows(trx, resources);
      });
    }
    if (rows.length < STALE_BATCH) this.freshAt = dataVersion;
  }

  /** What search stores of a resource, as values for the INSERT or UPDATE that writes its text (column names as the database has them). */
  storedValues(resource: { title: string; description: string; tags: readonly string[] }): Record<string, unknown> {
    return this.backend.storedValues(foldedColumns(resource));
  }

  /** A resource's title, description and tags before an edit of part of them. */
  readForEdit(db: Kysely<Tables>, id: number) {
    return this.backend.readForEdit(db, id);
  }

  /** Stores what search needs of these resources (call after writing their title, description or tags). */
  async writeStoredText(db: Kysely<Tables>, resources: { id: number; title: string; description: string; tags: readonly string[] }[]): Promise<void> {
    await this.backend.writeStoredColumns(db, resources.map(storedSearchColumns));
  }
}

/** Stale rows fixed per request at most (see refreshStaleText). */
const STALE_BATCH = 500;

/** The search of each open database, made on first use. */
const searches = new WeakMap<Database, ResourceSearch>();

/** The search of this database (one per database, shared by the public and admin lists and the writers). */
export function resourceSearch(database: Database): ResourceSearch {
  let search = searches.get(database);
  if (!search) searches.set(database, (search = createResourceSearch(database)));
  return search;
}

/** A search with its own limits and memory: the backend for the database's kind is chosen here, once. Tests pass smaller limits. */
export function createResourceSearch(database: Pick<Database, 'db' | 'dialect'>, limits: SearchLimits = SEARCH_LIMITS, filterLimits: FilterLimits = FILTER_LIMITS): ResourceSearch {
  const backend = database.dialect === 'postgres' ? new PostgresSearch(database.db, limits) : new SqliteSearch(database.db, limits);
  return new ResourceSearch(database.db, backend, limits, filterLimits);
}
