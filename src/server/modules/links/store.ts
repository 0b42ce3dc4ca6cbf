import { type Kysely, sql, type SqlBool, type Transaction } from 'kysely';
import type { Dialect } from '../../db/connection';
import type { CategoryValue } from '../../../contract/categories';
import type { BrokenLink, LinkKind } from '../../../contract/links';
import type { Tables } from '../../db/schema';
import { notTrashedSql } from '../resources/visibility';
import type { LinkCheckResult } from './check';

/** What a check reads of a resource. */
export interface LinkedResource {
  id: number;
  download_url: string;
  download_file_id: number | null;
  thumbnail_url: string;
  thumbnail_file_id: number | null;
}

export interface ExternalLink {
  resourceId: number;
  link: LinkKind;
  url: string;
}

const ABSOLUTE_HTTP = /^https?:\/\//i;

/**
 * A resource's external links: absolute http(s) links that are not this site's own hosted
 * files or thumbnails (a hosted file has a files row; `publicUrl` is this site's own address).
 */
export function externalLinks(row: LinkedResource, publicUrl: string | undefined): ExternalLink[] {
  const own = (url: string) => publicUrl !== undefined && (url === publicUrl || url.startsWith(`${publicUrl}/`));
  const links: ExternalLink[] = [];
  if (row.download_file_id === null && ABSOLUTE_HTTP.test(row.download_url) && !own(row.download_url)) links.push({ resourceId: row.id, link: 'download', url: row.download_url });
  if (row.thumbnail_file_id === null && ABSOLUTE_HTTP.test(row.thumbnail_url) && !own(row.thumbnail_url)) links.push({ resourceId: row.id, link: 'thumbnail', url: row.thumbnail_url });
  return links;
}

const LINKED_COLUMNS = ['id', 'download_url', 'download_file_id', 'thumbnail_url', 'thumbnail_file_id'] as const;

/** Up to `limit` resources not in the trash after id `after`, in id order (a check pages through the table). */
export async function resourcesAfter(db: Kysely<Tables>, after: number, limit: number): Promise<LinkedResource[]> {
  const rows = await db.selectFrom('resources').select(LINKED_COLUMNS).where('id', '>', after).where(notTrashedSql()).orderBy('id').limit(limit).execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), download_file_id: r.download_file_id === null ? null : Number(r.download_file_id), thumbnail_file_id: r.thumbnail_file_id === null ? null : Number(r.thumbnail_file_id) }));
}

/** A resource's links: a public one, one not in the trash, or any. */
export async function linkedResource(db: Kysely<Tables>, id: number, where: 'public' | 'not-trashed' | 'any'): Promise<(LinkedResource & { status: string }) | undefined> {
  const row = await db
    .selectFrom('resources')
    .select([...LINKED_COLUMNS, 'status'])
    .where('id', '=', id)
    .$if(where !== 'any', (q) => q.where(notTrashedSql()))
    .executeTakeFirst();
  if (!row || (where === 'public' && row.status !== 'published')) return undefined;
  return { ...row, id: Number(row.id), download_file_id: row.download_file_id === null ? null : Number(row.download_file_id), thumbnail_file_id: row.thumbnail_file_id === null ? null : Number(row.thumbnail_file_id) };
}

/** One link's state as just checked (replacing the last one). */
export async function writeLinkState(db: Kysely<Tables>, link: ExternalLink, result: LinkCheckResult, checkedAt: string): Promise<void> {
  const values = {
    url: link.url,
    state: result.state,
    status: result.status,
    reason: result.state === 'broken' ? result.reason.slice(0, 500) : null,
    checked_at: checkedAt,
  };
  await db
    .insertInto('resource_links')
    .values({ resource_id: link.resourceId, link: link.link, ...values })
    .onConflict((oc) => oc.columns(['resource_id', 'link']).doUpdateSet(values))
    .execute();
}

/**
 * A link row that is about the resource's link as it is now (`l` joined to `r`): an edit of the
 * link leaves the old row stale until the next check, and a stale row says nothing.
 */
const currentLink = (l: string, r: string) =>
  sql<SqlBool>`${sql.ref(`${l}.url`)} = case ${sql.ref(`${l}.link`)} when 'download' then ${sql.ref(`${r}.download_url`)} else ${sql.ref(`${r}.thumbnail_url`)} end`;

/** A resource (`resources`, or `alias`) has a broken link now: the admin list's "Broken links" filter. */
export function hasBrokenLinkSql(alias = 'resources') {
  return sql<SqlBool>`exists (select 1 from resource_links bl where bl.resource_id = ${sql.ref(`${alias}.id`)} and bl.state = 'broken' and ${currentLink('bl', alias)})`;
}

function brokenRows(db: Kysely<Tables>) {
  return db
    .selectFrom('resource_links as l')
    .innerJoin('resources as r', 'r.id', 'l.resource_id')
    .where('l.state', '=', 'broken')
    .where(notTrashedSql('r'))
    .where(currentLink('l', 'r'));
}

export async function countBrokenLinks(db: Kysely<Tables>): Promise<number> {
  const row = await brokenRows(db).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One page of broken links, in resource then link order. */
export async function brokenLinksPage(db: Kysely<Tables>, page: number, limit: number): Promise<BrokenLink[]> {
  const rows = await brokenRows(db)
    .select(['l.resource_id', 'r.title', 'r.category', 'l.link', 'l.url', 'l.status', 'l.reason', 'l.checked_at'])
    .orderBy('l.resource_id')
    .orderBy('l.link')
    .limit(limit)
    .offset((page - 1) * limit)
    .execute();
  return rows.map((r) => ({
    resource_id: Number(r.resource_id),
    title: r.title,
    category: r.category as CategoryValue,
    link: r.link,
    url: r.url,
    status: r.status === null ? null : Number(r.status),
    reason: r.reason ?? 'Broken',
    checked_at: r.checked_at,
  }));
}

/** Scheduled times kept in link_check_runs (older rows are only history). */
const RUNS_KEPT_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Claims the scheduled time `slot` for this instance: true for the one instance whose insert wins
 * (in `db`, the transaction that queues the run), false for every other.
 */
export async function claimScheduledRun(db: Kysely<Tables>, slot: string, now: Date): Promise<boolean> {
  const row = await db
    .insertInto('link_check_runs')
    .values({ slot, job_id: null, created_at: now.toISOString() })
    .onConflict((oc) => oc.column('slot').doNothing())
    .returning('slot')
    .executeTakeFirst();
  if (!row) return false;
  await db.deleteFrom('link_check_runs').where('created_at', '<', new Date(now.getTime() - RUNS_KEPT_MS).toISOString()).execute();
  return true;
}

export async function recordScheduledJob(db: Kysely<Tables>, slot: string, jobId: number): Promise<void> {
  await db.updateTable('link_check_runs').set({ job_id: jobId }).where('slot', '=', slot).execute();
}

/**
 * Takes the link-check queue for the rest of `trx`, so that "is a check queued or running? if not,
 * queue one" is one step across instances: on PostgreSQL two transactions could otherwise both see
 * none (READ COMMITTED) and both queue. SQLite runs one writing transaction at a time already.
 */
export async function lockCheckQueue(trx: Transaction<Tables>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext('rv:link-check-queue'))`.execute(trx);
}

/** A queued or running job of `kind` (and `subject`, when given), if any. */
export async function pendingJob(db: Kysely<Tables>, kind: string, subject?: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('media_jobs')
    .select('id')
    .where('kind', '=', kind)
    .where('state', 'in', ['queued', 'processing'])
    .$if(subject !== undefined, (q) => q.where('subject', '=', subject!))
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row && Number(row.id);
}
