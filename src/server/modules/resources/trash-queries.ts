import { type Kysely, sql, type SqlBool, type Transaction } from 'kysely';
import type { Tables } from '../../db/schema';
import { TRASHED_STATUS } from '../../../contract/resources';
import type { TrashCursor } from './cursor';

/**
 * The trash's SQL (docs/decisions/398-the-trash-is-a-status.md). A resource in the trash has status
 * TRASHED_STATUS, the status a restore gives back in status_before_trash, and trashed_at; its
 * publish_at, files, media owners, counts and download events are left as they were. The list and
 * the purge read resources_trashed (trashed_at, id) where status is trashed.
 */

/** In the trash, as a literal: a partial index's condition is matched against literals only (a bound parameter is not). */
const inTrash = (alias = 'resources') => sql<SqlBool>`${sql.ref(`${alias}.status`)} = ${sql.lit(TRASHED_STATUS)}`;

/** Moves a resource that is not in the trash into it: false when there is none such. */
export async function moveToTrash(db: Kysely<Tables>, id: number, now: string): Promise<boolean> {
  // Every SET expression reads the row as it was: status_before_trash gets the status being replaced.
  const row = await db
    .updateTable('resources')
    .set((eb) => ({ status_before_trash: eb.ref('status'), status: TRASHED_STATUS, trashed_at: now }))
    .where('id', '=', id)
    .where('status', '<>', TRASHED_STATUS)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Gives a resource in the trash its status back: false when it is not in the trash. */
export async function restoreFromTrash(db: Kysely<Tables>, id: number): Promise<boolean> {
  const row = await db
    .updateTable('resources')
    .set((eb) => ({ status: eb.fn.coalesce('status_before_trash', sql.lit('draft')) as never, status_before_trash: null, trashed_at: null }))
    .where('id', '=', id)
    .where(inTrash())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether `id` is in the trash, locking its row on PostgreSQL for the purge's transaction. */
export async function lockTrashed(trx: Transaction<Tables>, id: number, dialect: 'sqlite' | 'postgres'): Promise<boolean> {
  let q = trx.selectFrom('resources').select('id').where('id', '=', id).where(inTrash());
  if (dialect === 'postgres') q = q.forUpdate();
  return (await q.executeTakeFirst()) !== undefined;
}

/** One page of the trash, most recently deleted first. */
export async function listTrash(db: Kysely<Tables>, limit: number, after: TrashCursor | undefined) {
  let q = db
    .selectFrom('resources')
    .select(['id', 'title', 'category', 'status_before_trash', 'download_count', 'trashed_at'])
    .where(inTrash())
    .orderBy('trashed_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1);
  if (after) {
    q = q.where((eb) => eb.or([eb('trashed_at', '<', after.trashedAt), eb.and([eb('trashed_at', '=', after.trashedAt), eb('id', '<', after.id)])]));
  }
  return q.execute();
}

/** How many resources are in the trash. */
export async function countTrash(db: Kysely<Tables>): Promise<number> {
  const row = await db.selectFrom('resources').select((eb) => eb.fn.countAll<number>().as('n')).where(inTrash()).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Up to `limit` resources deleted at or before `cutoff`, oldest first: what the purge removes. */
export async function trashedBefore(db: Kysely<Tables>, cutoff: string, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('resources')
    .select('id')
    .where(inTrash())
    .where('trashed_at', '<=', cutoff)
    .orderBy('trashed_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => Number(r.id));
}
