import type { Transaction } from 'kysely';
import { licenceFromColumns } from '../../../contract/resource-page';
import type { Tables } from '../../db/schema';
import { type AuditActor, type AuditInput, changedFields, recordAudit } from '../audit/record';
import type { NewResource } from './admin-queries';
import { normalizeTags, parseTags } from './mappers';
import { storedApps } from '../listings/answers';

/**
 * What the audit log keeps of a resource (docs/decisions/420-the-audit-log.md): the fields an admin
 * edits, as they are inside `trx`; a hosted file is its name and size, never its bytes. Undefined
 * for an unknown id.
 */
export async function resourceAuditFields(trx: Transaction<Tables>, id: number): Promise<Record<string, unknown> | undefined> {
  return (await resourcesAuditFields(trx, [id])).get(id);
}

/**
 * resourceAuditFields of many resources in two queries (an import's batch): by id, unknown ids left
 * out. `lock` (PostgreSQL): the rows are locked for the rest of `trx`, for writes that build on them.
 */
export async function resourcesAuditFields(trx: Transaction<Tables>, ids: readonly number[], { lock = false } = {}): Promise<Map<number, Record<string, unknown>>> {
  const out = new Map<number, Record<string, unknown>>();
  if (ids.length === 0) return out;
  let q = trx
    .selectFrom('resources')
    .select(['id', 'title', 'description', 'category', 'thumbnail_url', 'thumbnail_choice', 'download_url', 'tags', 'is_premium', 'licence_kind', 'licence_text', 'status', 'publish_at', 'download_file_id', 'thumbnail_file_id', 'apps'])
    .where('id', 'in', ids);
  if (lock) q = q.forUpdate();
  const rows = await q.execute();
  const fileIds = rows.flatMap((r) => [r.download_file_id, r.thumbnail_file_id]).filter((f): f is number => f !== null).map(Number);
  const files = fileIds.length === 0 ? [] : await trx.selectFrom('files').select(['id', 'name', 'size']).where('id', 'in', fileIds).execute();
  const file = (fid: number | null) => {
    const f = fid === null ? undefined : files.find((x) => Number(x.id) === Number(fid));
    return f ? { name: f.name, size: Number(f.size) } : null;
  };
  for (const row of rows) {
    out.set(Number(row.id), {
      title: row.title,
      description: row.description,
      category: row.category,
      status: row.status,
      publish_at: row.publish_at,
      is_premium: Boolean(Number(row.is_premium)),
      tags: parseTags(row.tags),
      licence: licenceFromColumns(row.licence_kind, row.licence_text),
      thumbnail_url: row.thumbnail_url,
      thumbnail_choice: row.thumbnail_choice,
      thumbnail_file: file(row.thumbnail_file_id),
      download_url: row.download_url,
      download_file: file(row.download_file_id),
      apps: storedApps(row.apps),
    });
  }
  return out;
}

/**
 * What resourceAuditFields reads of a resource just created from `input` with no hosted file,
 * without reading it back (an import's batch of new rows).
 */
export function newResourceAuditFields(input: NewResource): Record<string, unknown> {
  const status = input.status ?? 'published';
  return {
    title: input.title,
    description: input.description,
    category: input.category,
    status,
    publish_at: status === 'scheduled' ? (input.publish_at ?? null) : null,
    is_premium: input.is_premium,
    tags: normalizeTags(input.tags),
    licence: input.licence,
    thumbnail_url: input.thumbnail_url,
    thumbnail_choice: input.thumbnail_choice,
    thumbnail_file: null,
    download_url: input.download_url,
    download_file: null,
    apps: input.apps ? input.apps.map((a) => ({ id: a.id, min_version: a.min_version || null })) : null,
  };
}

/**
 * Records `action` on resource `id` with its changed fields: `before` as resourceAuditFields read
 * it before the change (undefined for a create: every field is "after"), the fields after read now,
 * in the same `trx`; `extra` says more (a bulk action's name). A resource purged has no "after".
 */
export async function recordResourceChange(
  trx: Transaction<Tables>,
  actor: AuditActor,
  action: string,
  id: number,
  before: Record<string, unknown> | undefined,
  extra?: Record<string, unknown>,
): Promise<void> {
  await recordAudit(trx, actor, resourceChangeEntry(action, id, before, (await resourceAuditFields(trx, id)) ?? {}, extra));
}

/** The audit entry of `action` on resource `id`: its fields before (undefined for a create: every field is "after") and after. */
export function resourceChangeEntry(action: string, id: number, before: Record<string, unknown> | undefined, after: Record<string, unknown>, extra?: Record<string, unknown>): AuditInput {
  const changes = before === undefined ? { after } : (changedFields(before, after) ?? { before: {}, after: {} });
  return { action, target: { type: 'resource', id }, changes: { ...extra, ...changes } };
}
