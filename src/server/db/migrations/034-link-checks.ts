import { sql } from 'kysely';
import type { Dialect } from '../connection';
import type { AnyDb } from './helpers';

// Link checks (issue 32; docs/decisions/430-link-checks.md): each resource's external download and
// thumbnail links, as last checked. One row per (resource, link): the url checked (a later edit of
// the link makes the row stale, and the list only shows rows whose url is still the resource's),
// ok or broken, the HTTP status when there was one, the reason when broken, and when (UTC ISO-8601
// text). resource_links_broken serves the broken count and list (few rows, in resource order).
// link_check_runs holds one row per scheduled time: the instance whose insert wins queues that
// run's job, so several instances on one database run each scheduled check once.
export async function up(db: AnyDb, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('resource_links')
    .addColumn('resource_id', 'integer', (c) => c.notNull().references('resources.id').onDelete('cascade'))
    .addColumn('link', 'text', (c) => c.notNull().check(sql`link in ('download', 'thumbnail')`))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('ok', 'broken')`))
    .addColumn('status', 'integer')
    .addColumn('reason', 'text')
    .addColumn('checked_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('resource_links_pk', ['resource_id', 'link'])
    .execute();
  await sql`create index resource_links_broken on resource_links (resource_id, link) where state = 'broken'`.execute(db);
  await db.schema
    .createTable('link_check_runs')
    .addColumn('slot', 'text', (c) => c.primaryKey())
    .addColumn('job_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}
