import { sql } from 'kysely';
import type { Dialect } from '../connection';
import type { AnyDb } from './helpers';

// Sessions and passwords (docs/decisions/415-session-public-ids.md, 417-must-change-password.md).
// A session's id is the keyed hash of its secret token, so the API names a session by public_id
// instead: 32 random hex characters, unique. Sessions keep the address and User-Agent they began
// from (ip, user_agent; null for sessions older than this migration). Existing sessions get a
// random public id here; SQLite cannot add a NOT NULL column without a default, so there the
// column stays nullable and the code always writes it. admins.must_change_password (0/1): that
// admin's sessions may only change the password until they do.
export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('public_id', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('ip', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();
  if (dialect === 'postgres') {
    await sql`update sessions set public_id = replace(gen_random_uuid()::text, '-', '')`.execute(db);
    await sql`alter table sessions alter column public_id set not null`.execute(db);
  } else {
    await sql`update sessions set public_id = lower(hex(randomblob(16)))`.execute(db);
  }
  await sql`create unique index sessions_public_id on sessions (public_id)`.execute(db);
  await db.schema
    .alterTable('admins')
    .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
