import type { Transaction } from 'kysely';
import { licenceFromColumns } from '../../../contract/resource-page';
import type { Tables } from '../../db/schema';
import { type AuditActor, changedFields, recordAudit } from '../audit/record';
import type { NewResource } from './admin-queries';
import { normalizeTags, parseTags } from './mappers';

/**
 * What the audit log keeps of a resource (docs/decisions/420-the-audit-log.md): the fields an admin
 * edits, as they are inside `trx`; a hosted file is its name and size, never its bytes. Undefined
 * for an unknown id.
 */
export async function resourceAuditFields(trx: Transaction<Tables>, id: number): Promise<Record<string, unknown> | undefined> {
  const row = await trx
    .selectFrom('resources')
    .select(['title', 'description', 'category', 'thumbnail_url', 'thumbnail_choice', 'download_url', 'tags', 'is_premium', 'licence_kind', 'licence_text', 'status', 'publish_at', 'download_file_id', 'thumbnail_file_id'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const fileIds = [row.download_file_id, row.thumbnail_file_id].filter((f): f is number => f !== null).map(Number);
  const files = fileIds.length === 0 ? [] : await trx.selectFrom('files').select(['id', 'name', 'size']).where('id', 'in', fileIds).execute();
  const file = (fid: number | null) => {
    const f = fid === null ? undefined : files.find((x) => Number(x.id) === Number(fid));
    return f ? { name: f.name, size: Number(f.size) } : null;
  };
  return {
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
  };
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
  const after = (await resourceAuditFields(trx, id)) ?? {};
  const changes = before === undefined ? { after } : (changedFields(before, after) ?? { before: {}, after: {} });
  await recordAudit(trx, actor, { action, target: { type: 'resource', id }, changes: { ...extra, ...changes } });
}
