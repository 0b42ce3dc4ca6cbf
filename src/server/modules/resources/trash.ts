import type { CategoryValue } from '../../../contract/categories';
import type { ResourceStatus } from '../../../contract/resources';
import type { TrashList } from '../../../contract/trash';
import type { Database } from '../../db/connection';
import { nowIso } from '../../time';
import { detachFiles } from '../files/attach';
import { dropMediaOwners } from '../media/owners';
import { detachPreviewSources, previewJobOf } from '../media/preview-sources';
import { deleteResourceRow } from './admin-queries';
import { encodeTrashCursor, type TrashCursor } from './cursor';
import { type AuditActor, SYSTEM_ACTOR } from '../audit/record';
import { recordResourceChange, resourceAuditFields } from './audit-fields';
import { countTrash, listTrash, lockTrashed, moveToTrash, restoreFromTrash, trashedBefore } from './trash-queries';

/**
 * The trash (docs/decisions/398-the-trash-is-a-status.md, 399-purging-the-trash.md). Deleting a
 * resource moves it here: one UPDATE of its status, which hides it from every public read
 * (visibility.ts) and bumps the data version (migration 027's trigger), so every cache follows.
 * Its files stay attached and its media owned, so the sweep frees nothing of it; its counts and
 * download events stay; its page address (id and title) is kept. A restore gives it the status it
 * had. The purge is the hard delete, for resources in the trash only.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** Resources purged per transaction-by-transaction pass of the purge (each is its own transaction). */
const PURGE_BATCH = 100;

/** Moves a resource to the trash, recorded as `resource.trash` (`extra`: a bulk action's name); false for an unknown id or one already there. */
export function trashResource(database: Database, id: number, actor: AuditActor, extra?: Record<string, unknown>): Promise<boolean> {
  return database.db.transaction().execute(async (trx) => {
    const before = await resourceAuditFields(trx, id);
    if (!(await moveToTrash(trx, id, nowIso()))) return false;
    await recordResourceChange(trx, actor, 'resource.trash', id, before, extra);
    return true;
  });
}

/** Brings a resource back from the trash as it was, recorded as `resource.restore`; false when it is not there. */
export function restoreResource(database: Database, id: number, actor: AuditActor): Promise<boolean> {
  return database.db.transaction().execute(async (trx) => {
    const before = await resourceAuditFields(trx, id);
    if (!(await restoreFromTrash(trx, id))) return false;
    await recordResourceChange(trx, actor, 'resource.restore', id, before);
    return true;
  });
}

/**
 * Deletes a resource in the trash for good, in one transaction: its row and tags; its media
 * (thumbnail variants, preview files, specimens) lose their owner; its download, thumbnail and
 * preview source files are detached (the sweep frees their bytes after its grace period); the audit
 * entry records what it was (`actor`: the purge job by default, decision 423). False
 * when it is not in the trash (restored meanwhile, purged by another instance, never there).
 */
export async function purgeResource(database: Database, id: number, actor: AuditActor = SYSTEM_ACTOR): Promise<boolean> {
  return database.db.transaction().execute(async (trx) => {
    if (!(await lockTrashed(trx, id, database.dialect))) return false;
    const before = await resourceAuditFields(trx, id);
    const job = await previewJobOf(trx, id);
    await dropMediaOwners(trx, id);
    const row = await deleteResourceRow(trx, id);
    if (!row) return false;
    await detachFiles(trx, [row.download_file_id, row.thumbnail_file_id]);
    await detachPreviewSources(trx, job, []);
    await recordResourceChange(trx, actor, 'resource.purge', id, before);
    return true;
  });
}

/** When something deleted at `trashedAt` is purged. */
export function purgeTime(trashedAt: string, trashDays: number): string {
  return new Date(Date.parse(trashedAt) + trashDays * DAY_MS).toISOString();
}

/**
 * Purges everything that has been in the trash for `trashDays` or longer at `nowMs`, a batch at a
 * time, each resource in its own transaction: safe on every instance at once (a resource is purged
 * by the first transaction that finds it still in the trash). Returns the ids this call purged.
 */
export async function purgeExpiredTrash(database: Database, trashDays: number, nowMs = Date.now()): Promise<number[]> {
  const cutoff = new Date(nowMs - trashDays * DAY_MS).toISOString();
  const purged: number[] = [];
  for (;;) {
    const ids = await trashedBefore(database.db, cutoff, PURGE_BATCH);
    let progress = false;
    for (const id of ids) {
      if (await purgeResource(database, id)) {
        purged.push(id);
        progress = true;
      }
    }
    // A short batch was the last; a batch another instance purged first leaves nothing to repeat.
    if (ids.length < PURGE_BATCH || !progress) return purged;
  }
}

/** One page of the Trash page. */
export async function trashPage(database: Database, o: { limit: number; after?: TrashCursor; trashDays: number }): Promise<TrashList> {
  const [rows, total] = await Promise.all([listTrash(database.db, o.limit, o.after), countTrash(database.db)]);
  const items = rows.slice(0, o.limit).map((r) => {
    const trashedAt = r.trashed_at ?? nowIso();
    return {
      id: Number(r.id),
      title: r.title,
      category: r.category as CategoryValue,
      status_before_trash: (r.status_before_trash ?? 'draft') as ResourceStatus,
      download_count: Number(r.download_count),
      trashed_at: trashedAt,
      purge_at: purgeTime(trashedAt, o.trashDays),
    };
  });
  const last = items[items.length - 1];
  return {
    items,
    total,
    trash_days: o.trashDays,
    nextCursor: rows.length > o.limit && last ? encodeTrashCursor({ trashedAt: last.trashed_at, id: last.id }) : null,
  };
}
