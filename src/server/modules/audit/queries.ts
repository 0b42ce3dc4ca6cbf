import type { Generated, Kysely, SelectQueryBuilder } from 'kysely';
import type { AuditEntry, AuditFilter } from '../../../contract/audit';
import type { Tables } from '../../db/schema';

/** The audit log's table (migration 032). */
export interface AuditLogTable {
  id: Generated<number>;
  created_at: string;
  actor_id: number | null;
  actor_username: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  /** JSON, bounded by record.ts. */
  changes: string | null;
  ip: string | null;
  user_agent: string | null;
}

type AuditTables = Tables & { audit_log: AuditLogTable };
export const auditDb = (db: Kysely<Tables>): Kysely<AuditTables> => db.withTables<{ audit_log: AuditLogTable }>();

/** Where a page ends: the last entry's time and id (newest first). */
export interface AuditCursor {
  createdAt: string;
  id: number;
}

type Row = { id: number; created_at: string; actor_id: number | null; actor_username: string | null; action: string; target_type: string | null; target_id: string | null; changes: string | null; ip: string | null; user_agent: string | null };

function filtered(db: Kysely<Tables>, f: AuditFilter): SelectQueryBuilder<AuditTables, 'audit_log', Row> {
  let q = auditDb(db).selectFrom('audit_log').selectAll();
  if (f.actor !== undefined) q = q.where('actor_id', '=', f.actor);
  if (f.action !== undefined) q = q.where('action', '=', f.action);
  if (f.target_type !== undefined) q = q.where('target_type', '=', f.target_type);
  if (f.target_id !== undefined) q = q.where('target_id', '=', f.target_id);
  if (f.from !== undefined) q = q.where('created_at', '>=', f.from);
  if (f.to !== undefined) q = q.where('created_at', '<', f.to);
  return q as SelectQueryBuilder<AuditTables, 'audit_log', Row>;
}

function toEntry(r: Row): AuditEntry {
  let changes: unknown = null;
  if (r.changes !== null) {
    try {
      changes = JSON.parse(r.changes);
    } catch {
      changes = r.changes;
    }
  }
  return {
    id: Number(r.id),
    created_at: r.created_at,
    actor_id: r.actor_id === null ? null : Number(r.actor_id),
    actor_username: r.actor_username,
    action: r.action,
    target_type: r.target_type,
    target_id: r.target_id,
    changes,
    ip: r.ip,
    user_agent: r.user_agent,
  };
}

/** Up to `limit` entries matching `f`, newest first, after `cursor`; whether more follow. */
export async function listAudit(db: Kysely<Tables>, f: AuditFilter, limit: number, cursor?: AuditCursor): Promise<{ items: AuditEntry[]; more: boolean }> {
  let q = filtered(db, f).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit + 1);
  if (cursor) {
    q = q.where((eb) => eb.or([eb('created_at', '<', cursor.createdAt), eb.and([eb('created_at', '=', cursor.createdAt), eb('id', '<', cursor.id)])]));
  }
  const rows = await q.execute();
  return { items: rows.slice(0, limit).map(toEntry), more: rows.length > limit };
}

/** Every entry matching `f`, newest first, read a page at a time (for the CSV). */
export async function* eachAudit(db: Kysely<Tables>, f: AuditFilter, pageSize = 500): AsyncGenerator<AuditEntry> {
  let cursor: AuditCursor | undefined;
  for (;;) {
    const { items, more } = await listAudit(db, f, pageSize, cursor);
    yield* items;
    const last = items[items.length - 1];
    if (!more || !last) return;
    cursor = { createdAt: last.created_at, id: last.id };
  }
}

/** Deletes entries written before `cutoff`; how many went. The only delete of the log (the sweep). */
export async function deleteAuditBefore(db: Kysely<Tables>, cutoff: string): Promise<number> {
  const r = await auditDb(db).deleteFrom('audit_log').where('created_at', '<', cutoff).executeTakeFirst();
  return Number(r.numDeletedRows);
}
