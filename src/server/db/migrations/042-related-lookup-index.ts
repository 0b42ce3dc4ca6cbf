import { sql } from 'kysely';
import type { Dialect } from '../connection';
import type { AnyDb } from './helpers';

// PostgreSQL: the related resources' candidates (resources/queries.ts, sharingTags: up to 200 per
// shared tag, ~440 for a resource with three tags) are looked up by id for their category, status and
// popularity. Through the primary key each lookup read the resource's heap page (2.7 GB of them at
// 1,000,000 resources, far more than shared_buffers): a page's related walk took 3.4–3.5 ms at 100,000 resources
// (every 50th resource's page, three rounds). This index holds those columns beside the id, so the
// lookups are index-only, in an index about 60× smaller than the table: 0.98–1.02 ms
// (docs/decisions/462-related-candidates-index-only.md). SQLite is left as it is (not measured there).
export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`create index resources_related on resources (id) include (category, status, popularity)`.execute(db);
}
