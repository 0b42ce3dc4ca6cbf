import type { FastifyBaseLogger } from 'fastify';
import { type BulkItemResult, type BulkRequest } from '../../../contract/bulk';
import { TAGS_MAX } from '../../../contract/constants';
import { ERROR_CODES } from '../../../contract/errors';
import type { ResourcePatch } from '../../../contract/resources';
import { foldForSearch } from '../../../contract/search-fold';
import type { Database } from '../../db/connection';
import { unavailableReason } from '../../db/unavailable';
import { badRequest, notFound } from '../../errors';
import { HttpError } from '../../http-error';
import { updateResourceRow } from './admin-queries';
import { type BulkTarget, readBulkTarget } from './bulk-queries';
import { normalizeTags } from './mappers';
import { deleteResource } from './save';
import type { AuditActor } from '../audit/record';
import { recordResourceChange, resourceAuditFields } from './audit-fields';
import { writeStaleFacets } from './search/facet-rows';

/**
 * One action on many resources (docs/decisions/401-bulk-actions-and-select-all.md). Each id is all
 * or nothing on its own: its own transaction, in which its row is read (locked on PostgreSQL),
 * its change decided and written by the same functions as a single save (updateResourceRow: status
 * columns, "new as of publishing", search text, tag rows) or deleted by the single delete's
 * service, with its audit entry (decision 420: one per id changed; an id already as asked writes
 * and records nothing). One id failing neither stops nor undoes the others. Every write bumps the data version
 * (migrations 002, 004, 027), so the response caches, server-rendered pages and the sitemap of
 * every instance follow, as after a single save or the publisher's tick.
 */
export async function applyBulkAction(database: Database, request: BulkRequest, log: FastifyBaseLogger, actor: AuditActor): Promise<BulkItemResult[]> {
  const results: BulkItemResult[] = [];
  let unavailable: string | undefined;
  for (const id of request.ids) {
    if (unavailable) {
      // The database cannot take writes: the rest are not tried, and say why.
      results.push({ id, ok: false, error: UNAVAILABLE });
      continue;
    }
    try {
      await applyToOne(database, id, request, actor);
      results.push({ id, ok: true });
    } catch (err) {
      if (err instanceof HttpError) {
        results.push({ id, ok: false, error: { code: err.code, message: err.message } });
        continue;
      }
      unavailable = unavailableReason(err);
      if (unavailable) {
        log.error({ err, id }, 'the database cannot take a bulk action');
        database.noteUnavailable(unavailable);
        results.push({ id, ok: false, error: UNAVAILABLE });
      } else {
        log.error({ err, id, action: request.action }, 'a bulk action failed on one resource');
        results.push({ id, ok: false, error: { code: ERROR_CODES.internal, message: 'Something went wrong on our side. Please try again.' } });
      }
    }
  }
  return results;
}

const UNAVAILABLE = { code: ERROR_CODES.unavailable, message: 'The service is temporarily unavailable. Please try again later.' };

/** One id's change and its audit entry (resource.bulk, or resource.trash for a bulk trash), in one transaction. */
async function applyToOne(database: Database, id: number, request: BulkRequest, actor: AuditActor): Promise<void> {
  const bulk = { bulk_action: request.action };
  if (request.action === 'trash') {
    if (!(await deleteResource(database, id, actor, bulk))) throw notFound('Resource not found');
    return;
  }
  await database.db.transaction().execute(async (trx) => {
    const current = await readBulkTarget(trx, database, id);
    if (!current) throw notFound('Resource not found');
    const patch = patchFor(request, current);
    // Already as asked: nothing to write (updated_at stays).
    if (!patch) return;
    const before = await resourceAuditFields(trx, id);
    if (!(await updateResourceRow(trx, database, id, patch))) throw notFound('Resource not found');
    await writeStaleFacets(trx);
    await recordResourceChange(trx, actor, 'resource.bulk', id, before, bulk);
  });
}

/** The edit that makes `current` as the action asks; undefined when it already is. */
export function patchFor(request: BulkRequest, current: BulkTarget): ResourcePatch | undefined {
  switch (request.action) {
    case 'publish':
      // A scheduled resource is published now: its publish_at is cleared with the status.
      return current.status === 'published' ? undefined : { status: 'published' };
    case 'unpublish':
      return current.status === 'draft' ? undefined : { status: 'draft' };
    case 'premium':
      return current.is_premium ? undefined : { is_premium: true };
    case 'not_premium':
      return current.is_premium ? { is_premium: false } : undefined;
    case 'move': {
      const category = request.category!; // the schema requires it with move
      return current.category === category ? undefined : { category };
    }
    case 'add_tags': {
      const before = normalizeTags(current.tags);
      const tags = normalizeTags([...before, ...request.tags!]); // the schema requires them with add_tags
      if (tags.length === before.length) return undefined;
      if (tags.length > TAGS_MAX) throw badRequest(`A resource has at most ${TAGS_MAX} tags: this one would have ${tags.length}`);
      return { tags };
    }
    case 'remove_tags': {
      const drop = new Set(request.tags!.map(foldForSearch)); // the schema requires them with remove_tags
      const tags = current.tags.filter((t) => !drop.has(foldForSearch(t.trim())));
      return tags.length === current.tags.length ? undefined : { tags };
    }
    case 'trash':
      return undefined; // not an edit: applyToOne deletes
  }
}
