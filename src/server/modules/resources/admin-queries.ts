import { type Kysely, sql, type Transaction, type Updateable } from 'kysely';
import type { CategoryValue } from '../../../contract/categories';
import { licenceToColumns } from '../../../contract/resource-page';
import type { AppsInput } from '../../../contract/contents';
import type { Licence } from '../../../contract/resource-page';
import type { Resource, ResourcePatch, ResourceStatus } from '../../../contract/resources';
import type { ThumbnailChoice } from '../../../contract/thumbnail-choice';
import type { Database } from '../../db/connection';
import type { Tables, ResourcesTable } from '../../db/schema';
import { detachFiles } from '../files/attach';
import { nowIso } from '../../time';
import { ADMIN_COLUMNS, type AdminRow } from './columns';
import { type AdminCursor, encodeAdminCursor } from './cursor';
import { loadFiles } from '../files/stored';
import { jobStates } from '../../jobs/queries';
import { fileIds, normalizeTags, parseTags, toResource } from './mappers';
import { resourceSearch } from './search';
import { writeTagRows } from './search/stored-text';
import { notTrashedSql, PUBLIC_STATUS } from './visibility';
import { recordAudits, SYSTEM_ACTOR } from '../audit/record';

type Position = { createdAt: string; id: number };

/**
 * Hosted files to attach in the resource's transaction (files/attach.ts): returns the columns the
 * row gets (file ids, links). Runs before the update, once the row is locked.
 */
export type AttachInTransaction = (trx: Transaction<Tables>) => Promise<Updateable<ResourcesTable>>;

export interface NewResource {
  title: string;
  description: string;
  category: CategoryValue;
  /** '' when the thumbnail is an upload attached by `attach`. */
  thumbnail_url: string;
  /** '' when the download is an upload attached by `attach`. */
  download_url: string;
  tags: string[];
  is_premium: boolean;
  licence: Licence;
  thumbnail_choice: ThumbnailChoice;
  /** Default: published (the spec's flow). */
  status?: ResourceStatus;
  /** With status scheduled: when (UTC). */
  publish_at?: string;
  /** An admin's correction of the deduced apps (contract/contents.ts); null or absent: deduced. */
  apps?: AppsInput;
}

/**
 * The admin list: newest first (created_at, then id), one page at a time, keyset-paginated on
 * resources_cat_newest (category, created_at desc, id desc), or resources_newest without a
 * category. Every page, however deep, reads about `limit` index entries (a search: until it has a
 * page of matches). The total of a plain list counts the category's index range; a search counts
 * up to the search's cap, as the public list does (search/index.ts). Totals are remembered per
 * filter under the data version (migration 002), which only writes by admins change.
 */
export interface AdminListOptions {
  category?: CategoryValue;
  /** Trimmed search text: title, description or any tag contains it, ignoring case. */
  q?: string;
  id?: number;
  /** Only resources of this status (drafts, scheduled, published). */
  status?: ResourceStatus;
  /** Only resources with a broken external link now (modules/links). */
  brokenLinks?: boolean;
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

export async function listResourcesForAdmin(database: Database, o: AdminListOptions): Promise<AdminListPage> {
  const { limit, cursor } = o;
  const search = resourceSearch(database);
  const { filter, plan } = await search.planAdminList(o, o.dataVersion);

  /** Up to `take` rows strictly older (newest first) or newer (oldest first) than `from`. */
  const page = (direction: 'older' | 'newer', from: Position | undefined, take: number) => search.adminRows(filter, plan, direction, from, take);
  const exists = async (direction: 'older' | 'newer', from: Position) => (await page(direction, from, 1)).length > 0;
  const at = (row: AdminRow): Position => ({ createdAt: row.created_at, id: Number(row.id) });
  const firstPage = async () => {
    const r = await page('older', undefined, limit + 1);
    return { rows: r.slice(0, limit), hasNext: r.length > limit, hasPrev: false, offset: 0 };
  };

  let result: { rows: AdminRow[]; hasNext: boolean; hasPrev: boolean; offset: number };
  if (plan.exact && plan.total === 0) {
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
      const offset = !hasPrev ? 0 : plan.exact ? plan.total - rows.length : Math.max(1, cursor.offset - limit);
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
  if (plan.exact) offset = Math.min(offset, Math.max(hasPrev ? 1 : 0, plan.total - rows.length - (hasNext ? 1 : 0)));
  const items = await toResources(database, rows);
  const head = items[0];
  const tail = items[items.length - 1];
  return {
    items,
    total: plan.total,
    totalExact: plan.exact,
    offset,
    nextCursor: hasNext && tail ? encodeAdminCursor({ direction: 'older', createdAt: tail.created_at, id: tail.id, offset: offset + items.length }) : null,
    prevCursor: hasPrev && head ? encodeAdminCursor({ direction: 'newer', createdAt: head.created_at, id: head.id, offset: Math.max(0, offset - limit) }) : null,
  };
}

/** Creates a resource in its own transaction (no hosted files); the admin API saves through save.ts. */
export async function createResource(database: Database, input: NewResource, adminId: number): Promise<Resource> {
  const row = await database.db.transaction().execute((trx) => insertResource(trx, database, input, adminId, {}));
  return (await toResources(database, [row]))[0]!;
}

/** Applies an edit in its own transaction (no hosted files); undefined for an unknown id. The admin API saves through save.ts. */
export async function updateResource(database: Database, id: number, patch: ResourcePatch): Promise<Resource | undefined> {
  const row = await database.db.transaction().execute((trx) => updateResourceRow(trx, database, id, patch));
  return row && (await toResources(database, [row]))[0];
}

/** The resource row, its resource_tags rows and what search stores of it, in `trx`; `hosted`: the attached files' columns. */
export async function insertResource(trx: Transaction<Tables>, database: Database, input: NewResource, adminId: number, hosted: Updateable<ResourcesTable>) {
  return (await insertResources(trx, database, [{ input, hosted }], adminId))[0]!;
}

/**
 * Many new resources in one statement (and their tag rows in one more), in `trx`: the rows in the
 * order of `items`. Ids grow in the order rows are inserted, so the answer sorted by id is that order.
 */
export async function insertResources(trx: Transaction<Tables>, database: Database, items: readonly { input: NewResource; hosted: Updateable<ResourcesTable> }[], adminId: number) {
  if (items.length === 0) return [];
  const now = nowIso();
  const search = resourceSearch(database);
  const tagLists = items.map(({ input }) => normalizeTags(input.tags));
  const rows = await trx
    .insertInto('resources')
    .values(
      items.map(({ input, hosted }, i) => ({
        ...search.storedValues({ title: input.title, description: input.description, tags: tagLists[i]! }),
        title: input.title,
        description: input.description,
        category: input.category,
        thumbnail_url: input.thumbnail_url,
        thumbnail_choice: input.thumbnail_choice,
        download_url: input.download_url,
        is_premium: input.is_premium ? 1 : 0,
        tags: JSON.stringify(tagLists[i]),
        created_at: now,
        updated_at: now,
        admin_id: adminId,
        ...licenceToColumns(input.licence),
        ...statusColumns(input.status ?? 'published', input.publish_at),
        apps: appsColumn(input.apps),
        ...hosted,
      })),
    )
    .returningAll()
    .execute();
  rows.sort((a, b) => Number(a.id) - Number(b.id));
  await writeTagRows(
    trx,
    rows.map((row, i) => ({ id: Number(row.id), tags: tagLists[i]! })),
  );
  return rows;
}

/** Points a resource at a thumbnail link (the generated one, for a create that gave none), in `trx`. */
export async function setThumbnailUrl(trx: Transaction<Tables>, id: number, url: string): Promise<void> {
  await trx.updateTable('resources').set({ thumbnail_url: url }).where('id', '=', id).execute();
}

/**
 * Applies an edit in `trx`. download_count and popularity are never part of the update, so a
 * download counted while the form was open is not lost. Undefined for an unknown id.
 */
export async function updateResourceRow(
  trx: Transaction<Tables>,
  database: Database,
  id: number,
  patch: ResourcePatch,
  attach?: AttachInTransaction,
  /** The row's text as read (and, on PostgreSQL, locked) earlier in `trx`: not read again (an import's batch). */
  known?: { title: string; description: string; tags: readonly string[] },
) {
  const search = resourceSearch(database);
  const set: Updateable<ResourcesTable> = { updated_at: nowIso() };
  // A new download or thumbnail (link or upload) replaces the hosted file the row points at.
  const replaces = { download: patch.download_url !== undefined || patch.download_upload_id !== undefined, thumbnail: patch.thumbnail_url !== undefined || patch.thumbnail_upload_id !== undefined };
  let before: { download_file_id: number | null; thumbnail_file_id: number | null } | undefined;
  if (replaces.download || replaces.thumbnail) {
    let q = trx.selectFrom('resources').select(['download_file_id', 'thumbnail_file_id']).where('id', '=', id).where(notTrashedSql());
    if (database.dialect === 'postgres') q = q.forUpdate();
    before = await q.executeTakeFirst();
    if (!before) return undefined;
    if (patch.download_url !== undefined) set.download_file_id = null;
    if (patch.thumbnail_url !== undefined) set.thumbnail_file_id = null;
    if (attach) Object.assign(set, await attach(trx));
  }
  if (patch.title !== undefined) set.title = patch.title;
  if (patch.description !== undefined) set.description = patch.description;
  if (patch.category !== undefined) set.category = patch.category;
  if (patch.thumbnail_url !== undefined) set.thumbnail_url = patch.thumbnail_url;
  if (patch.thumbnail_choice !== undefined) set.thumbnail_choice = patch.thumbnail_choice;
  if (patch.download_url !== undefined) set.download_url = patch.download_url;
  if (patch.is_premium !== undefined) set.is_premium = patch.is_premium ? 1 : 0;
  if (patch.licence !== undefined) Object.assign(set, licenceToColumns(patch.licence));
  if (patch.apps !== undefined) set.apps = appsColumn(patch.apps);
  if (patch.status !== undefined) {
    Object.assign(set, statusColumns(patch.status, patch.publish_at));
    // Published now after being a draft or scheduled: new in the public lists as of now (decision 391).
    if (patch.status === PUBLIC_STATUS) set.created_at = sql<string>`case when status = ${PUBLIC_STATUS} then created_at else ${set.updated_at} end` as unknown as string;
  }
  const tags = patch.tags === undefined ? undefined : normalizeTags(patch.tags);
  if (tags !== undefined) set.tags = JSON.stringify(tags);
  if (patch.title !== undefined || patch.description !== undefined || tags !== undefined) {
    // The search text is written by the same UPDATE, from the text as it will be.
    const read = known ? undefined : await search.readForEdit(trx, id);
    const current = known ?? (read && { ...read, tags: parseTags(read.tags) });
    if (!current) return undefined;
    const text = { title: patch.title ?? current.title, description: patch.description ?? current.description, tags: tags ?? current.tags };
    Object.assign(set, search.storedValues(text));
  }
  // A resource in the trash is restored first (trash.ts), never edited there.
  const row = await trx.updateTable('resources').set(set).where('id', '=', id).where(notTrashedSql()).returningAll().executeTakeFirst();
  if (!row) return undefined;
  if (tags !== undefined) await writeTagRows(trx, [{ id, tags }]);
  if (before) await detachFiles(trx, [replaces.download ? before.download_file_id : null, replaces.thumbnail ? before.thumbnail_file_id : null]);
  return row;
}

/** resources.apps of a save: the admin's list as JSON (an empty list is a correction too: it works in none of them), null to deduce. */
function appsColumn(apps: AppsInput | undefined): string | null {
  return apps ? JSON.stringify(apps.map((a) => ({ id: a.id, min_version: a.min_version || null }))) : null;
}

/** The status columns of a save: publish_at is kept for a scheduled resource only. */
function statusColumns(status: ResourceStatus, publishAt: string | undefined): Pick<Updateable<ResourcesTable>, 'status' | 'publish_at'> {
  return { status, publish_at: status === 'scheduled' ? (publishAt ?? null) : null };
}

/** What an edit's checks need of the resource before it is saved; undefined for an unknown id or one in the trash. */
export async function readForSave(database: Database, id: number): Promise<{ category: CategoryValue; download_file_id: number | null } | undefined> {
  const row = await database.db.selectFrom('resources').select(['category', 'download_file_id']).where('id', '=', id).where(notTrashedSql()).executeTakeFirst();
  return row && { category: row.category as CategoryValue, download_file_id: row.download_file_id };
}

/** One resource as the admin API shows it; undefined for an unknown id or one in the trash (contract/trash.ts shows those). */
export async function getResourceForAdmin(database: Database, id: number): Promise<Resource | undefined> {
  const row = await database.db.selectFrom('resources').select(ADMIN_COLUMNS).where('id', '=', id).where(notTrashedSql()).executeTakeFirst();
  return row && (await toResources(database, [row]))[0];
}

/** Rows as the admin API shows them, with their preview jobs' states and hosted files read in one query each. */
export async function toResources(database: Database, rows: AdminRow[]): Promise<Resource[]> {
  const [jobs, files] = await Promise.all([
    jobStates(
      database,
      rows.flatMap((r) => (r.preview_job_id === null ? [] : [Number(r.preview_job_id)])),
    ),
    loadFiles(database.db, fileIds(rows)),
  ]);
  return rows.map((r) => toResource(r, r.preview_job_id === null ? undefined : jobs.get(Number(r.preview_job_id)), files));
}

/** Deletes the row and its resource_tags rows in `trx`: what it pointed at, or undefined for an unknown id (trash.ts purges). */
export async function deleteResourceRow(trx: Transaction<Tables>, id: number) {
  await trx.deleteFrom('resource_tags').where('resource_id', '=', id).execute();
  return trx.deleteFrom('resources').where('id', '=', id).returning(['download_file_id', 'thumbnail_file_id']).executeTakeFirst();
}

/**
 * Publishes every scheduled resource whose time has come, in one conditional UPDATE (resources_due):
 * safe on every instance at once, as a row leaves `scheduled` in the first UPDATE that reaches it and
 * no other matches it again. Each becomes new in the public lists as of its publish time, and gets
 * an audit entry by the system. Returns the ids published by this call. It looks first: on PostgreSQL
 * an UPDATE that changes no row still fires the statement triggers that bump the data version, which
 * emptied every cache of every instance each check (decision 457).
 */
export async function publishDueResources(db: Kysely<Tables>, now: string): Promise<number[]> {
  const due = await db.selectFrom('resources').select('id').where('status', '=', 'scheduled').where('publish_at', '<=', now).limit(1).executeTakeFirst();
  if (!due) return [];
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .updateTable('resources')
      .set((eb) => ({ status: PUBLIC_STATUS, created_at: eb.ref('publish_at') as never, updated_at: now, publish_at: null }))
      .where('status', '=', 'scheduled')
      .where('publish_at', '<=', now)
      .returning(['id', 'created_at'])
      .execute();
    // Recorded as the system's (decision 423), in the same transaction.
    await recordAudits(
      trx,
      SYSTEM_ACTOR,
      rows.map((r) => ({
        action: 'resource.publish',
        target: { type: 'resource', id: Number(r.id) },
        changes: { before: { status: 'scheduled', publish_at: r.created_at }, after: { status: PUBLIC_STATUS, publish_at: null } },
      })),
    );
    return rows.map((r) => Number(r.id));
  });
}
