import type { Kysely, Transaction } from 'kysely';
import { z } from 'zod';
import { extensionOf } from '../../../contract/apps';
import type { Database } from '../../db/connection';
import type { Tables } from '../../db/schema';
import { defineJob, type JobDefinition, wakeJobRunners } from '../../jobs/queue';
import { insertJob } from '../../jobs/queries';
import { listZip, ZIP_LIMITS, type ZipLimits, type ZipListing } from '../../media/zip-listing';
import type { FileStore } from '../../storage/file-store';
import { writeStaleFacets } from '../resources/search/facet-rows';

/**
 * Lists hosted downloads (issue 33, docs/decisions/437-a-download-is-listed-once.md): the
 * `files.list` job reads every hosted download not listed yet, one after the other: a ZIP from its
 * central directory through the file store's byte ranges (listZip: never extracted, bounded), any
 * other file as `not-zip` (it shows its name and size). Attaching a download queues the job
 * (queueListing, in the attaching transaction); at start, any download not listed yet (an upgraded
 * install's) queues one (queueUnlisted). A file is listed once: its bytes never change under its key.
 */

export const LIST_FILES_JOB = { kind: 'files.list', payload: z.object({}).strict(), maxAttempts: 3 } as const;
/** The job's time limit: many downloads, each bounded by ZIP_LIMITS.timeoutMs. */
export const LIST_FILES_TIME_LIMIT_MS = 30 * 60_000;
/** file_entries rows per INSERT (PostgreSQL allows 65,535 parameters; SQLite 32,766). */
const ENTRY_BATCH = 500;

/** Whether a download is read as a ZIP: by its name or its sniffed type. */
export function isZip(file: { name: string; content_type: string }): boolean {
  return extensionOf(file.name) === 'zip' || /^application\/(x-)?zip(-compressed)?$/.test(file.content_type);
}

/**
 * Queues a `files.list` job unless one is already waiting (it lists every download not listed
 * yet, this one too). In `trx`, as attaching does: the runner finds it at its next poll.
 */
export async function queueListing(db: Kysely<Tables> | Transaction<Tables>, now = Date.now()): Promise<void> {
  const waiting = await db.selectFrom('media_jobs').select('id').where('kind', '=', LIST_FILES_JOB.kind).where('state', '=', 'queued').limit(1).executeTakeFirst();
  if (waiting) return;
  await insertJob(db as Kysely<Tables>, { kind: LIST_FILES_JOB.kind, payload: '{}', subject: LIST_FILES_JOB.kind, maxAttempts: LIST_FILES_JOB.maxAttempts, now });
}

/** Queues the job when some attached download is not listed yet (at start: after the upgrade to migration 035). */
export async function queueUnlisted(database: Database): Promise<void> {
  const unlisted = await database.db
    .selectFrom('files')
    .select('id')
    .where('kind', '=', 'download')
    .where('detached_at', 'is', null)
    .where('listing_status', 'is', null)
    .limit(1)
    .executeTakeFirst();
  if (unlisted) {
    await queueListing(database.db);
    wakeJobRunners(database);
  }
}

/** Lists one stored file (its listing, or why not). */
export async function listStoredFile(files: FileStore, file: { key: string; name: string; content_type: string; size: number }, limits: ZipLimits = ZIP_LIMITS): Promise<ZipListing | { status: 'not-zip' }> {
  if (!isZip(file)) return { status: 'not-zip' };
  return listZip(
    {
      size: file.size,
      read: async (range, signal) => (await files.get(file.key, { range, signal })).body,
    },
    limits,
  );
}

/** Writes a file's listing: its summary on the files row and its entries, in one transaction. */
export async function saveListing(database: Database, fileId: number, listing: ZipListing | { status: 'not-zip' }): Promise<void> {
  await database.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('file_entries').where('file_id', '=', fileId).execute();
    if (listing.status === 'listed') {
      for (let i = 0; i < listing.entries.length; i += ENTRY_BATCH) {
        const batch = listing.entries.slice(i, i + ENTRY_BATCH).map((e, j) => ({ file_id: fileId, position: i + j, path: e.path, size: e.size }));
        await trx.insertInto('file_entries').values(batch).execute();
      }
    }
    await trx
      .updateTable('files')
      .set({
        listing_status: listing.status,
        listing_reason: 'reason' in listing ? listing.reason : null,
        listing_count: listing.status === 'listed' ? listing.entries.length : null,
        listing_total: listing.status === 'listed' ? listing.total_size : null,
        listing_extensions: listing.status === 'listed' ? JSON.stringify(listing.extensions) : null,
      })
      .where('id', '=', fileId)
      .execute();
    await writeStaleFacets(trx);
  });
}

/** Lists every attached hosted download not listed yet; returns how many it listed. */
export async function listPendingDownloads(database: Database, files: FileStore, options: { signal?: AbortSignal; limits?: ZipLimits } = {}): Promise<number> {
  let done = 0;
  let after = 0;
  for (;;) {
    options.signal?.throwIfAborted();
    const next = await database.db
      .selectFrom('files')
      .select(['id', 'key', 'name', 'content_type', 'size'])
      .where('kind', '=', 'download')
      .where('detached_at', 'is', null)
      .where('listing_status', 'is', null)
      .where('id', '>', after)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    if (!next) return done;
    after = Number(next.id);
    const listing = await listStoredFile(files, { ...next, size: Number(next.size) }, options.limits);
    await saveListing(database, after, listing);
    done++;
  }
}

export function listingJobs(database: Database, files: FileStore, limits?: ZipLimits): JobDefinition[] {
  return [
    defineJob({
      kind: LIST_FILES_JOB.kind,
      payload: LIST_FILES_JOB.payload,
      maxAttempts: LIST_FILES_JOB.maxAttempts,
      timeLimitMs: LIST_FILES_TIME_LIMIT_MS,
      run: async (_payload, { signal }) => ({ listed: await listPendingDownloads(database, files, { signal, limits }) }),
    }),
  ];
}
