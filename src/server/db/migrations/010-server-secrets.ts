import type { AnyDb } from './helpers';

/**
 * Secrets the server generates for itself, such as the key session tokens are hashed with when
 * SESSION_SECRET is unset. Apart from `settings` on purpose: settings are public, served by the
 * API and bump the data version; nothing serves this table. PostgreSQL keeps the session key here
 * so that every instance shares it; SQLite keeps its own in DATA_DIR (the table stays empty).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('server_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}
