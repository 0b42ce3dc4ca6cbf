import { sql } from 'kysely';
import type { Dialect } from '../connection';
import type { AnyDb } from './helpers';
import { refreshStaleFacets } from '../../modules/resources/search/facet-rows';

// What the list filters and facets read (issue 33, docs/decisions/445-facets-in-one-table-and-bounded-counts.md): one
// row per facet value of a resource in resource_facets, written by the app from the preview's facts,
// the apps (an admin's correction, or deduced) and the download's listing:
// - kind 'app' / 'format' / 'orientation': value is the app id, the extension, the orientation;
// - kind 'height' / 'duration': value '' and `number` the height in pixels / the duration in seconds.
// `category` is the resource's (a category page's filter reads only its part of an index).
// A resource whose facts are unknown has no row of that kind, so it matches no filter of that kind.
// Kept by the app in the transaction that changes a source (search/facet-rows.ts refreshStaleFacets):
// triggers here drop a resource's rows and mark it in resource_facets_stale when its preview, apps,
// category or download changes, or its download's listing does; the writer (and, for SQL from
// outside the app, the next search) computes them again. Every resource is marked here and computed
// by that same function, so there is one derivation of the facets.
export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  const number = dialect === 'postgres' ? sql`double precision` : sql`real`;
  await db.schema
    .createTable('resource_facets')
    .addColumn('resource_id', 'integer', (c) => c.notNull().references('resources.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('app', 'format', 'orientation', 'height', 'duration')`))
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('number', number)
    .addColumn('category', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('resource_facets_pk', ['resource_id', 'kind', 'value'])
    .execute();
  // A filter's candidates, in a category or across all: index-only counts and reads.
  await db.schema.createIndex('resource_facets_in_category').on('resource_facets').columns(['kind', 'value', 'category', 'number', 'resource_id']).execute();
  await db.schema.createIndex('resource_facets_all').on('resource_facets').columns(['kind', 'value', 'number', 'resource_id']).execute();
  await db.schema
    .createTable('resource_facets_stale')
    .addColumn('resource_id', 'integer', (c) => c.primaryKey().references('resources.id').onDelete('cascade'))
    .execute();

  // The triggers on files find a download's resource by it (and listing a download reads it).
  await db.schema.createIndex('resources_download_file').on('resources').column('download_file_id').execute();

  const mark = (ids: string) => sql.raw(`delete from resource_facets where resource_id in (${ids});
    insert into resource_facets_stale (resource_id) select id from resources where id in (${ids}) on conflict do nothing;`);
  if (dialect === 'postgres') {
    await sql`create function rv_facets_stale() returns trigger language plpgsql as $$
      begin
        ${mark('new.id')}
        return null;
      end $$`.execute(db);
    await sql`create function rv_download_facets_stale() returns trigger language plpgsql as $$
      begin
        ${mark('select id from resources where download_file_id = new.id')}
        return null;
      end $$`.execute(db);
    await sql`create trigger resources_facets_insert after insert on resources for each row execute function rv_facets_stale()`.execute(db);
    await sql`create trigger resources_facets_stale after update of preview, apps, category, download_file_id on resources
      for each row execute function rv_facets_stale()`.execute(db);
    await sql`create trigger files_facets_stale after update of listing_extensions on files
      for each row when (new.listing_extensions is distinct from old.listing_extensions) execute function rv_download_facets_stale()`.execute(db);
  } else {
    await sql`create trigger resources_facets_insert after insert on resources begin ${mark('new.id')} end`.execute(db);
    await sql`create trigger resources_facets_stale after update of preview, apps, category, download_file_id on resources begin ${mark('new.id')} end`.execute(db);
    await sql`create trigger files_facets_stale after update of listing_extensions on files
      when new.listing_extensions is not old.listing_extensions begin ${mark('select id from resources where download_file_id = new.id')} end`.execute(db);
  }
  await sql`insert into resource_facets_stale (resource_id) select id from resources`.execute(db);
  while ((await refreshStaleFacets(db, 2000)) > 0);
  if (dialect === 'postgres') await sql`analyze resource_facets`.execute(db);
}
