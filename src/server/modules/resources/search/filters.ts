import { type Kysely, sql, type SqlBool } from 'kysely';
import type { AppId } from '../../../../contract/apps';
import { CATEGORIES, type CategoryValue } from '../../../../contract/categories';
import type { Orientation } from '../../../../contract/facts';
import { APP_IDS } from '../../../../contract/apps';
import { ORIENTATIONS } from '../../../../contract/facts';
import { DURATION_BUCKETS, FORMAT_FACET_MAX, MIN_HEIGHTS, type ResourceFacets } from '../../../../contract/resources';
import { PREPARED } from '../../../db/prepared';
import type { Tables } from '../../../db/schema';
import { versionedMemo } from '../../../db/versioned-memo';
import { type Condition, type SearchBackend, where } from './backend';
import { type CountedPlan, hasShortText, isSearch, type SearchFilter } from './planning';

/**
 * The public list's fact filters and facets (docs/search.md "Filters and facets"), over the facet
 * rows of migration 039 (facet-rows.ts). A filter's matches are found from the smallest complete
 * source — a facet value's rows (index resource_facets_in_category / _all), or a search's matches
 * when it has few — each candidate checked against everything else; when every source is large
 * (each filter common), a bounded number of the scope's rows are checked instead, and the answer
 * says it is not exact. No request reads an unbounded number of rows.
 */

export interface FactFilter {
  app?: AppId;
  format?: string;
  orientation?: Orientation;
  /** Height ≥ this many pixels. */
  minHeight?: number;
  /** Seconds: durationMin ≤ duration < durationMax. */
  durationMin?: number;
  durationMax?: number;
}

type FactDimension = 'app' | 'format' | 'orientation' | 'min_height' | 'duration';
const FACT_DIMENSIONS: readonly FactDimension[] = ['app', 'format', 'orientation', 'min_height', 'duration'];
type Dimension = 'category' | FactDimension;

export interface FilterLimits {
  /** A source (a facet value's rows, a search's matches) of at most this many resources is read whole: the matches are then exact. */
  gatherMax: number;
  /** Otherwise this many of the scope's rows are checked: the matches among them (at least), and the facets over them. */
  scanRows: number;
}

export const FILTER_LIMITS: FilterLimits = { gatherMax: 2000, scanRows: 2000 };

/** A filter's matching resource ids: all of them (`complete`), or those among the rows a bounded scan read. */
export interface Matches {
  ids: number[];
  complete: boolean;
  /** What the facets count of these resources: from the scan that found them, else read when first counted (facets). */
  profiles?: Profile[];
}

/** A resource's category and facet values (its facet rows), as a scan reads them and the facets count them. */
interface Profile {
  id: number;
  category: string;
  app: string[];
  format: string[];
  orientation?: string;
  height?: number;
  duration?: number;
}

/** A resource's facet profile (resources.facet_profile, facet-rows.ts facetProfile) read. */
function profileOf(id: number, category: string, facets: string | null): Profile {
  const p: Profile = { id, category, app: [], format: [] };
  for (const item of facets ? facets.split(' ') : []) {
    const at = item.indexOf('=');
    const kind = item.slice(0, at);
    const value = item.slice(at + 1);
    if (kind === 'app' || kind === 'format') p[kind].push(value);
    else if (kind === 'orientation') p.orientation = value;
    else if (kind === 'height' || kind === 'duration') p[kind] = Number(value);
  }
  return p;
}

function isActive(facts: FactFilter, d: FactDimension): boolean {
  switch (d) {
    case 'app':
      return facts.app !== undefined;
    case 'format':
      return facts.format !== undefined;
    case 'orientation':
      return facts.orientation !== undefined;
    case 'min_height':
      return facts.minHeight !== undefined;
    case 'duration':
      return facts.durationMin !== undefined || facts.durationMax !== undefined;
  }
}

export function hasFactFilter(facts: FactFilter | undefined): facts is FactFilter {
  return facts !== undefined && FACT_DIMENSIONS.some((d) => isActive(facts, d));
}

function without(facts: FactFilter, d: FactDimension): FactFilter {
  const keys: Record<FactDimension, (keyof FactFilter)[]> = {
    app: ['app'],
    format: ['format'],
    orientation: ['orientation'],
    min_height: ['minHeight'],
    duration: ['durationMin', 'durationMax'],
  };
  const copy = { ...facts };
  for (const k of keys[d]) delete copy[k];
  return copy;
}

/** Which facet rows (alias `p`) hold this dimension's filter value. */
function factTerm(facts: FactFilter, d: FactDimension): Condition {
  switch (d) {
    case 'app':
      return sql<SqlBool>`p.kind = 'app' and p.value = ${facts.app!}`;
    case 'format':
      return sql<SqlBool>`p.kind = 'format' and p.value = ${facts.format!}`;
    case 'orientation':
      return sql<SqlBool>`p.kind = 'orientation' and p.value = ${facts.orientation!}`;
    case 'min_height':
      return sql<SqlBool>`p.kind = 'height' and p.value = '' and p.number >= ${facts.minHeight!}`;
    case 'duration': {
      const max = facts.durationMax === undefined ? sql`` : sql` and p.number < ${facts.durationMax}`;
      return sql<SqlBool>`p.kind = 'duration' and p.value = '' and p.number >= ${facts.durationMin ?? 0}${max}`;
    }
  }
}

/** Whether a profile holds this dimension's filter value: factTerm's rule, on a scanned row. */
function holdsFact(p: Profile, facts: FactFilter, d: FactDimension): boolean {
  switch (d) {
    case 'app':
      return p.app.includes(facts.app!);
    case 'format':
      return p.format.includes(facts.format!);
    case 'orientation':
      return p.orientation === facts.orientation;
    case 'min_height':
      return p.height !== undefined && p.height >= facts.minHeight!;
    case 'duration':
      return p.duration !== undefined && p.duration >= (facts.durationMin ?? 0) && (facts.durationMax === undefined || p.duration < facts.durationMax);
  }
}

/**
 * The fact filters checked on a row of `resources` (its facet rows by primary key). A scalar
 * subquery with LIMIT 1, not EXISTS: PostgreSQL would turn EXISTS into a hashed subplan reading the
 * value's whole posting list (98,700 rows for an app at 1M) to check 2,000 rows.
 */
export function factConditions(facts: FactFilter | undefined): Condition[] {
  if (!facts) return [];
  return FACT_DIMENSIONS.filter((d) => isActive(facts, d)).map((d) => factCondition(facts, d));
}

function factCondition(facts: FactFilter, d: FactDimension): Condition {
  return sql<SqlBool>`(select 1 from resource_facets p where p.resource_id = resources.id and ${factTerm(facts, d)} limit 1) is not null`;
}

/** A bounded scan's rows: each with whether it holds the text and tags, and its profile. */
interface Scan {
  rows: { hit: boolean; profile: Profile }[];
  /** Every row of the scope was read. */
  complete: boolean;
}

/** The rows of a scan holding the text and tags and every one of these fact filters. */
function scanMatches(scan: Scan, facts: FactFilter): Matches {
  const active = FACT_DIMENSIONS.filter((d) => isActive(facts, d));
  const profiles = scan.rows.filter((r) => r.hit && active.every((d) => holdsFact(r.profile, facts, d))).map((r) => r.profile);
  return { ids: profiles.map((p) => p.id), complete: scan.complete, profiles };
}

/** The counts of these dimensions' values over these resources (contract/resources.ts resourceFacetsSchema's orders). */
function countFacets(profiles: Profile[], dimensions: Dimension[]): Partial<ResourceFacets> {
  const out: Partial<ResourceFacets> = {};
  for (const d of dimensions) {
    const counts = new Map<string | number, number>();
    const add = (value: string | number) => counts.set(value, (counts.get(value) ?? 0) + 1);
    for (const p of profiles) {
      if (d === 'category') add(p.category);
      else if (d === 'app') for (const a of p.app) add(a);
      else if (d === 'format') for (const f of p.format) add(f);
      else if (d === 'orientation') {
        if (p.orientation !== undefined) add(p.orientation);
      } else if (d === 'min_height') {
        // A resource at least 2160 pixels tall is also at least 1080 and 720.
        if (p.height !== undefined) for (const h of MIN_HEIGHTS) if (p.height >= h) add(h);
      } else if (p.duration !== undefined) add(DURATION_BUCKETS.find((b) => b.max === null || p.duration! < b.max)!.id);
    }
    const ordered = (values: readonly (string | number)[]) => values.map((v) => ({ value: String(v), count: counts.get(v) ?? 0 })).filter((c) => c.count > 0);
    if (d === 'category') out.category = ordered(CATEGORIES.map((c) => c.value));
    else if (d === 'app') out.app = ordered(APP_IDS);
    else if (d === 'orientation') out.orientation = ordered(ORIENTATIONS);
    else if (d === 'min_height') out.min_height = ordered(MIN_HEIGHTS);
    else if (d === 'duration') out.duration = ordered(DURATION_BUCKETS.map((b) => b.id));
    else
      out.format = [...counts]
        .map(([value, count]) => ({ value: String(value), count }))
        .sort((a, b) => b.count - a.count || a.value.localeCompare(b.value))
        .slice(0, FORMAT_FACET_MAX);
  }
  return out;
}

export class FactSearch {
  private readonly postingCounts = versionedMemo<number>(1000);
  private readonly matchMemo = versionedMemo<Matches>(200);
  /** A scope's scanned rows (scanRows at most) with the filters each holds: shared by a request's list and facets. */
  private readonly scanMemo = versionedMemo<Scan>(50);

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly backend: SearchBackend,
    readonly limits: FilterLimits,
    /** The search's plan of a text/tags filter (ResourceSearch.planFor: remembered per data version). */
    private readonly planFor: (f: SearchFilter, dataVersion: number | undefined) => Promise<CountedPlan>,
  ) {}

  /** The resources matching the search filter `f` (public: its status given) and the fact filters. */
  async matches(f: SearchFilter, facts: FactFilter, dataVersion: number | undefined): Promise<Matches> {
    const key = JSON.stringify([f.category ?? null, f.text ?? null, [...f.tags].sort(), f.status ?? null, facts]);
    let found = this.matchMemo.get(this.backend, key, dataVersion);
    if (!found) {
      found = await this.findMatches(f, facts, dataVersion);
      this.matchMemo.set(this.backend, key, dataVersion, found);
    }
    return found;
  }

  private async findMatches(f: SearchFilter, facts: FactFilter, dataVersion: number | undefined): Promise<Matches> {
    const best = await this.bestSource(f, facts, dataVersion);
    if (!best) return scanMatches(await this.scanScope(f, dataVersion), facts);
    if (best.size === 0) return { ids: [], complete: true };
    if ('ids' in best) {
      const { rows } = await sql<{ id: number }>`select resources.id from resources
        ${where([this.backend.idAmong(best.ids), ...factConditions(facts)])}`.execute(this.db);
      return { ids: rows.map((r) => Number(r.id)), complete: true };
    }
    const d = best.dimension;
    // The facet value's rows first, each resource looked up by its id.
    const { rows } = await sql<{ id: number }>`select resources.id from resource_facets p ${this.backend.joinInOrder} resources on resources.id = p.resource_id
      ${where([factTerm(facts, d), ...(f.category ? [sql<SqlBool>`p.category = ${f.category}`] : []), ...this.backend.rowConditions(f), ...factConditions(without(facts, d))])}`.execute(this.db);
    return { ids: rows.map((r) => Number(r.id)), complete: true };
  }

  /**
   * The smallest complete source of a filter's matches: a facet value's rows, or the search's
   * matches, when one holds at most gatherMax resources; undefined when every source is larger (a scan).
   */
  private async bestSource(f: SearchFilter, facts: FactFilter, dataVersion: number | undefined): Promise<{ size: number; dimension: FactDimension } | { size: number; ids: number[] } | undefined> {
    const { gatherMax } = this.limits;
    let best: { size: number; dimension: FactDimension } | { size: number; ids: number[] } | undefined;
    for (const d of FACT_DIMENSIONS.filter((d) => isActive(facts, d))) {
      const size = await this.postingCount(facts, d, f.category, dataVersion);
      if (size <= gatherMax && (!best || size < best.size)) best = { size, dimension: d };
    }
    if (isSearch(f) && !hasShortText(f) && (!best || best.size > 0)) {
      const plan = await this.planFor(f, dataVersion);
      if (plan.exact && (!best || plan.total < best.size)) {
        const ids = plan.matchIds ?? (await this.backend.matchIdsQuery(f, plan.total).execute(this.db)).rows.map((r) => Number(r.id));
        best = { size: ids.length, ids };
      }
    }
    return best;
  }

  /** The resources holding one dimension's filter value (in the category), counted up to gatherMax + 1 in the index alone. */
  private async postingCount(facts: FactFilter, d: FactDimension, category: CategoryValue | undefined, dataVersion: number | undefined): Promise<number> {
    const value = { app: [facts.app], format: [facts.format], orientation: [facts.orientation], min_height: [facts.minHeight], duration: [facts.durationMin, facts.durationMax] }[d];
    const key = JSON.stringify([d, value, category ?? null]);
    let n = this.postingCounts.get(this.backend, key, dataVersion);
    if (n === undefined) {
      const scope = category ? [sql<SqlBool>`p.category = ${category}`] : [];
      const { rows } = await sql<{ n: number }>`select count(*) as n from (select 1 from resource_facets p
        ${where([factTerm(facts, d), ...scope])} limit ${this.limits.gatherMax + 1}) as capped`.execute(this.db);
      n = Number(rows[0]?.n ?? 0);
      this.postingCounts.set(this.backend, key, dataVersion, n);
    }
    return n;
  }

  /**
   * Every filter common: the scope's newest scanRows rows (all of them when the scope is no larger),
   * each read once with whether it holds the text and tags and its profile — one statement,
   * remembered for the data version, from which the list and every facet of the same scope (whatever
   * their fact filters) take their matches and counts.
   */
  private async scanScope(f: SearchFilter, dataVersion: number | undefined): Promise<Scan> {
    const key = JSON.stringify([f.category ?? null, f.text ?? null, [...f.tags].sort(), f.status ?? null]);
    const remembered = this.scanMemo.get(this.backend, key, dataVersion);
    if (remembered) return remembered;
    const { scanRows } = this.limits;
    const scope = [...(f.category ? [sql<SqlBool>`category = ${f.category}`] : []), ...(f.status !== undefined ? this.backend.rowConditions({ tags: [], status: f.status }) : [])];
    const checks = this.backend.rowConditions({ tags: f.tags, text: f.text });
    const hit = checks.length > 0 ? sql`case when ${sql.join(checks, sql` and `)} then 1 else 0 end` : sql`1`;
    // Without a text or tags, what the newest-first sort indexes hold (migrations 040, 041): the rows themselves are not read,
    // and the statement (one text per scope, its plan the same for every category) is prepared (decision 464).
    const columns = checks.length > 0 ? sql`${this.backend.shortTextColumns}, category, facet_profile` : sql`id, status, category, facet_profile`;
    const { rows } = await sql<{ id: number; category: string; hit: number; facet_profile: string | null }>`select ${checks.length > 0 ? sql`` : PREPARED} resources.id, resources.category, ${hit} as hit, resources.facet_profile
      from (select ${columns} from resources ${where(scope)} order by created_at desc, id desc limit ${sql.lit(scanRows + 1)}) as resources`.execute(this.db);
    const scan: Scan = {
      rows: rows.slice(0, scanRows).map((r) => ({ hit: Number(r.hit) === 1, profile: profileOf(Number(r.id), r.category, r.facet_profile) })),
      complete: rows.length <= scanRows,
    };
    this.scanMemo.set(this.backend, key, dataVersion, scan);
    return scan;
  }

  /** The profiles of a filter's matches: from its scan, else read (once: kept with the remembered matches). */
  private async profilesOf(m: Matches): Promise<Profile[]> {
    if (!m.profiles) {
      const { rows } =
        m.ids.length === 0 ? { rows: [] } : await sql<{ id: number; category: string; facet_profile: string | null }>`select id, category, facet_profile from resources where ${this.backend.idAmong(m.ids)}`.execute(this.db);
      m.profiles = rows.map((r) => profileOf(Number(r.id), r.category, r.facet_profile));
    }
    return m.profiles;
  }

  /**
   * The facets of a list (contract/resources.ts resourceFacetsSchema): each dimension counted over
   * the matches of every filter but its own; exact when each of those match sets was complete.
   */
  async facets(f: SearchFilter, facts: FactFilter, dataVersion: number | undefined): Promise<ResourceFacets> {
    const sets = new Map<string, { dimensions: Dimension[]; filter: SearchFilter; facts: FactFilter }>();
    const add = (key: string, d: Dimension, filter: SearchFilter, ofFacts: FactFilter) => {
      const set = sets.get(key) ?? { dimensions: [], filter, facts: ofFacts };
      set.dimensions.push(d);
      sets.set(key, set);
    };
    if (f.category) add('category', 'category', { ...f, category: undefined }, facts);
    else add('all', 'category', f, facts);
    for (const d of FACT_DIMENSIONS) {
      if (isActive(facts, d)) add(d, d, f, without(facts, d));
      else add('all', d, f, facts);
    }
    const answer: ResourceFacets = { exact: true, category: [], app: [], format: [], orientation: [], min_height: [], duration: [] };
    for (const set of sets.values()) {
      const m = await this.matches(set.filter, set.facts, dataVersion);
      if (!m.complete) answer.exact = false;
      Object.assign(answer, countFacets(await this.profilesOf(m), set.dimensions));
    }
    return answer;
  }
}
