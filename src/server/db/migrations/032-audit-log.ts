import { sql } from 'kysely';
import type { Dialect } from '../connection';
import { type AnyDb, idColumn } from './helpers';

// The audit log (docs/decisions/420-the-audit-log.md): one row per admin write or sign-in, written
// in the transaction of the change (modules/audit/record.ts), never edited, swept AUDIT_DAYS after
// it was written. The actor is kept as it was (id and username, no foreign key: an entry outlives
// its admin); null for a failed sign-in and for the system's own work. target_id is text: most
// targets have integer ids, an upload's is a string. changes is JSON, bounded by the writer.
// created_at is UTC ISO-8601 text, so text order is time order on both databases. Each filter has
// an index ending in (created_at, id), the list's newest-first keyset order.
export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  await idColumn(db, dialect, 'audit_log')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'integer')
    .addColumn('actor_username', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text')
    .addColumn('target_id', 'text')
    .addColumn('changes', 'text')
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .execute();
  await sql`create index audit_log_time on audit_log (created_at, id)`.execute(db);
  await sql`create index audit_log_actor on audit_log (actor_id, created_at, id)`.execute(db);
  await sql`create index audit_log_action on audit_log (action, created_at, id)`.execute(db);
  await sql`create index audit_log_target on audit_log (target_type, target_id, created_at, id)`.execute(db);
}
