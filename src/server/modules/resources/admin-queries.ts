import { type Kysely, type RawBuilder, sql, type SqlBool, type Updateable } from 'kysely';
import type { CategoryValue } from '../../../contract/categories';
import type { Resource, ResourcePatch } from '../../../contract/resources';
import type { Dialect } from '../../db/connection';
import type { Database, ResourcesTable } from '../../db/schema';
import { versionedMemo } from '../../db/versioned-memo';
import { nowIso } from '../../time';
import type { AdminCursor } from './cursor';
import { encodeAdminCursor } from './cursor';
import { normalizeTags, type ResourceRow, tagKeys, toResource } from './mappers';
import { escapeLike, gatherOrder, pageRows, SEARCH_TOTAL_CAP, type Strategy, textSearchFrom, textSearchPlan, usesTextIndex } from './queries';
import type { TextPlan } from './trigrams';

type DB = Kysely<Database>;

export interface NewResource {
  title: string;
  description: string;
  category: CategoryValue;
  thumbnail_url: string;
  download_url: string;
  tags: string[];
  is_premium: boolean;
}

/**
 * The admin list: newest first (created_at, then id), one page at a time, keyset-paginated on
 * resources_cat_newest (category, created_at desc, id desc), or resources_newest without a
 * category. Every page, however deep, reads about `limit` index entries (a search: until it has a
 * page of matches). The total of a plain list counts the category's index range; a search counts
 * up to SEARCH_TOTAL_CAP, as the public list does. Totals are remembered per filter under the data
 * version (migration 002), which only writes by admins change.
 */
export interface AdminListOptions {
  dialect: Dialect;
  category?: CategoryValue;
  /** Trimmed search text: title, description or any tag contains it, ignoring case. */
  q?: string;
  id?: number;
  limit: number;
  cursor?: AdminCursor;
  /** The data version read before this query (for remembering totals). */
  dataVersion: number;
}

export interface AdminListPage {
  items: Resource[];
  total: number;
  totalExact: boolean;
  offset: number;
  nextCursor: string | null;
  prevCursor: string | null;
}

interface Total {
  total: number;
  exact: boolean;
  /** A 3+ character search: how a page finds its rows (see textSearchPlan). */
  strategy?: Strategy;
  /** PostgreSQL, a 3+ character search: what the search sample says of q (see textSearchPlan). */
  sampled?: TextPlan;
}

/** Filter → total, valid while the data version is unchanged; bounded. */
const adminTotals = versionedMemo<Total>(500);

type Condition = RawBuilder<SqlBool>;
type Position = { createdAt: string; id: number };

/**
 * `q` checked on each row while walking the newest index: case-insensitive substring of the
 * title, the description or a tag. PostgreSQL lower()s both sides; SQLite's LIKE folds ASCII case
 * only (as the public search's row check does). Used with `id` only: a search otherwise follows
 * the public search's rule (textSearchPlan / textSearchFrom in queries.ts): a 3+ character q
 * through its trigram index when its matches are few, a 1–2 character q (no index narrows it)
 * walking the newest index with the public row check (a page stops after a page of matches,
 * the count at SEARCH_TOTAL_CAP, so it reads at most the scope's rows once).
 */
function qOnRow(dialect: Dialect, q: string): Condition {
  const pattern = `%${escapeLike(q)}%`;
  const like = (column: string) =>
    dialect === 'postgres'
      ? sql<SqlBool>`lower(${sql.ref(column)}) like lower(${pattern}) escape '\\'`
      : sql<SqlBool>`${sql.ref(column)} like ${pattern} escape '\\'`;
  // resource_tags holds the tags lower-cased.
  return sql<SqlBool>`(${like('resources.title')} or ${like('resources.description')}
    or exists (select 1 from resource_tags where resource_tags.resource_id = resources.id and resource_tags.tag like ${pattern.toLowerCase()} escape '\\'))`;
}

/** `(created_at, id) < / > (t, id)`: strictly older / newer than the row, in list order. */
function beyond(direction: 'older' | 'newer', row: Position): Condition {
  const op = sql.raw(direction === 'older' ? '<' : '>');
  return sql<SqlBool>`(resources.created_at, resources.id) ${op} (${row.createdAt}, ${row.id})`;
}

function fromWhere(o: AdminListOptions, extra: Condition[] = [], strategy?: Strategy, sampled?: TextPlan) {
  if (o.q && strategy && o.id === undefined) return textSearchFrom(o.dialect, o.q, o.category, strategy, sampled, extra);
  const conditions: Condition[] = [];
  if (o.category) conditions.push(sql<SqlBool>`resources.category = ${o.category}`);
  if (o.id !== undefined) conditions.push(sql<SqlBool>`resources.id = ${o.id}`);
  if (o.q) conditions.push(qOnRow(o.dialect, o.q));
  const all = [...conditions, ...extra];
  return sql`from resources ${all.length > 0 ? sql`where ${sql.join(all, sql` and `)}` : sql``}`;
}

/** A plain list counts its index range exactly; a search counts up to SEARCH_TOTAL_CAP (+1 to know "more"). */
async function countRows(db: DB, o: AdminListOptions): Promise<Total> {
  if (o.q && o.id === undefined && usesTextIndex(o.q)) {
    // The public search's rule and index (queries.ts): a text with few or no matches costs a few index reads.
    return textSearchPlan(db, o.dialect, o.q, o.category, SEARCH_TOTAL_CAP, o.dataVersion);
  }
  if (!o.q) {
    const { rows } = await sql<{ n: number }>`select count(*) as n ${fromWhere(o)}`.execute(db);
    return { total: Number(rows[0]?.n ?? 0), exact: true };
  }
  // In list order, so SQLite walks the newest index as the page does (its own pick, another
  // category index, reads the same rows about twice as slowly).
  // A 1–2 character q: the public search's row check (on PostgreSQL its lower-cased search_text).
  const strategy: Strategy | undefined = o.id === undefined ? 'walk' : undefined;
  const { rows } = await sql<{ n: number }>`select count(*) as n from (select 1 as one ${fromWhere(o, [], strategy)}
    order by resources.created_at desc, resources.id desc limit ${SEARCH_TOTAL_CAP + 1}) as capped`.execute(db);
  const n = Number(rows[0]?.n ?? 0);
  return n > SEARCH_TOTAL_CAP ? { total: SEARCH_TOTAL_CAP, exact: false, strategy } : { total: n, exact: true, strategy };
}

export async function listResourcesForAdmin(db: DB, o: AdminListOptions): Promise<AdminListPage> {
  const { limit, cursor } = o;
  const totalKey = JSON.stringify([o.category ?? null, o.q ?? null, o.id ?? null]);
  let total = adminTotals.get(db, totalKey, o.dataVersion);
  if (!total) {
    total = await countRows(db, o);
    adminTotals.set(db, totalKey, o.dataVersion, total);
  }

  /** Up to `take` rows strictly older (newest first) or newer (oldest first) than `from`. */
  const page = async (direction: 'older' | 'newer', from: Position | undefined, take: number) => {
    const dir = direction === 'older' ? 'desc' : 'asc';
    // PostgreSQL, few matches: gathered through the text index and sorted (see queries.ts pageQuery).
    const order =
      o.dialect === 'postgres' && total.strategy === 'matches'
        ? sql`${gatherOrder('created_at', dir)}, ${gatherOrder('id', dir)}`
        : sql`resources.created_at ${sql.raw(dir)}, resources.id ${sql.raw(dir)}`;
    const query = sql<ResourceRow>`select ${sql.join(ADMIN_COLUMNS.map((c) => sql.ref(`resources.${c}`)))}
      ${fromWhere(o, from ? [beyond(direction, from)] : [], total.strategy, total.sampled)}
      order by ${order} limit ${take}`;
    // A search that walks the newest index does so whatever PostgreSQL's planner estimates (queries.ts pageRows).
    return total.strategy && o.q ? pageRows(db, o.dialect, { q: o.q, tags: [] }, total.strategy, query) : (await query.execute(db)).rows;
  };
  const exists = async (direction: 'older' | 'newer', from: Position) => (await page(direction, from, 1)).length > 0;
  const at = (row: ResourceRow): Position => ({ createdAt: row.created_at, id: Number(row.id) });
  const firstPage = async () => {
    const r = await page('older', undefined, limit + 1);
    return { rows: r.slice(0, limit), hasNext: r.length > limit, hasPrev: false, offset: 0 };
  };

  let result: { rows: ResourceRow[]; hasNext: boolean; hasPrev: boolean; offset: number };
  if (total.exact && total.total === 0) {
    // Nothing matches: no need to walk the index again for the page.
    result = { rows: [], hasNext: false, hasPrev: false, offset: 0 };
  } else if (!cursor) {
    result = await firstPage();
  } else if (cursor.direction === 'older') {
    const r = await page('older', cursor, limit + 1);
    if (r.length === 0) {
      // Everything after the cursor is gone (deleted since): the last page instead.
      const rows = (await page('newer', undefined, limit)).reverse();
      const hasPrev = rows.length > 0 && (await exists('newer', at(rows[0])));
      const offset = !hasPrev ? 0 : total.exact ? total.total - rows.length : Math.max(1, cursor.offset - limit);
      result = { rows, hasNext: false, hasPrev, offset };
    } else {
      const rows = r.slice(0, limit);
      const hasPrev = await exists('newer', at(rows[0]));
      result = { rows, hasNext: r.length > limit, hasPrev, offset: hasPrev ? Math.max(1, cursor.offset) : 0 };
    }
  } else {
    const r = await page('newer', cursor, limit + 1);
    if (r.length <= limit) {
      // Less than a page before the cursor: that is the first page.
      result = await firstPage();
    } else {
      const rows = r.slice(0, limit).reverse();
      result = { rows, hasNext: await exists('older', at(rows[rows.length - 1])), hasPrev: true, offset: Math.max(1, cursor.offset) };
    }
  }

  let { offset } = result;
  const { rows, hasNext, hasPrev } = result;
  // Rows added or removed since the cursor was made shift positions: keep the numbers possible.
  if (total.exact) offset = Math.min(offset, Math.max(hasPrev ? 1 : 0, total.total - rows.length - (hasNext ? 1 : 0)));
  const items = rows.map(toResource);
  const head = items[0];
  const tail = items[items.length - 1];
  return {
    items,
    total: total.total,
    totalExact: total.exact,
    offset,
    nextCursor: hasNext && tail ? encodeAdminCursor({ direction: 'older', createdAt: tail.created_at, id: tail.id, offset: offset + items.length }) : null,
    prevCursor: hasPrev && head ? encodeAdminCursor({ direction: 'newer', createdAt: head.created_at, id: head.id, offset: Math.max(0, offset - limit) }) : null,
  };
}

const ADMIN_COLUMNS = [
  'id',
  'title',
  'description',
  'category',
  'thumbnail_url',
  'download_url',
  'is_premium',
  'download_count',
  'popularity',
  'tags',
  'created_at',
  'updated_at',
  'admin_id',
] as const;

async function replaceTags(trx: DB, resourceId: number, tags: readonly string[]): Promise<void> {
  await trx.deleteFrom('resource_tags').where('resource_id', '=', resourceId).execute();
  const keys = tagKeys(tags);
  if (keys.length > 0) {
    await trx
      .insertInto('resource_tags')
      .values(keys.map((tag) => ({ resource_id: resourceId, tag })))
      .execute();
  }
}

/** The resource and its resource_tags rows in one transaction. */
export async function createResource(db: DB, input: NewResource, adminId: number): Promise<Resource> {
  const now = nowIso();
  const tags = normalizeTags(input.tags);
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('resources')
      .values({
        title: input.title,
        description: input.description,
        category: input.category,
        thumbnail_url: input.thumbnail_url,
        download_url: input.download_url,
        is_premium: input.is_premium ? 1 : 0,
        tags: JSON.stringify(tags),
        created_at: now,
        updated_at: now,
        admin_id: adminId,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await replaceTags(trx, row.id, tags);
    return toResource(row);
  });
}

/**
 * Applies an edit. download_count and popularity are never part of the update, so a
 * download counted while the form was open is not lost. Undefined for an unknown id.
 */
export async function updateResource(db: DB, id: number, patch: ResourcePatch): Promise<Resource | undefined> {
  return db.transaction().execute(async (trx) => {
    const set: Updateable<ResourcesTable> = { updated_at: nowIso() };
    if (patch.title !== undefined) set.title = patch.title;
    if (patch.description !== undefined) set.description = patch.description;
    if (patch.category !== undefined) set.category = patch.category;
    if (patch.thumbnail_url !== undefined) set.thumbnail_url = patch.thumbnail_url;
    if (patch.download_url !== undefined) set.download_url = patch.download_url;
    if (patch.is_premium !== undefined) set.is_premium = patch.is_premium ? 1 : 0;
    const tags = patch.tags === undefined ? undefined : normalizeTags(patch.tags);
    if (tags !== undefined) set.tags = JSON.stringify(tags);
    const row = await trx.updateTable('resources').set(set).where('id', '=', id).returningAll().executeTakeFirst();
    if (!row) return undefined;
    if (tags !== undefined) await replaceTags(trx, id, tags);
    return toResource(row);
  });
}

/** False for an unknown id. resource_tags rows go with it (foreign-key cascade). */
export async function deleteResource(db: DB, id: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await trx.deleteFrom('resource_tags').where('resource_id', '=', id).execute();
    const r = await trx.deleteFrom('resources').where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  });
}
