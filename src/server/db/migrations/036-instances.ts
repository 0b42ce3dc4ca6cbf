import type { Dialect } from '../connection';
import type { AnyDb } from './helpers';

// Instances (issue 32, the System page; docs/decisions/436-instances-beat-into-the-database.md):
// each running server beats into this table every 20 s (its id, host, process, version, start and
// last beat, UTC ISO-8601 text); the System page lists those seen in the last minute. Rows not
// seen for a day are removed by the beat itself.
export async function up(db: AnyDb, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('instances')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('hostname', 'text', (c) => c.notNull())
    .addColumn('pid', 'integer', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('seen_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('instances_seen').on('instances').column('seen_at').execute();
}
