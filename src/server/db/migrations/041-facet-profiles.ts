import { sql } from 'kysely';
import type { Dialect } from '../connection';
import type { AnyDb } from './helpers';

// Each resource's facet rows (migration 039) also as one string on its row, facet_profile
// (search/facet-rows.ts facetProfile: `kind=value` or `kind=number`, space-separated; null without
// any), and the two newest-first sort indexes hold it: a bounded scan of a filter's scope (the
// scope's newest 2,001 rows, search/filters.ts) reads each row's facets from the index instead of
// looking up its rows in resource_facets, one probe per resource: at 1,000,000 resources on
// PostgreSQL ~9 → ~1.2 ms a scan (docs/decisions/455-facet-profiles-in-the-sort-index.md).
// resources_newest also holds the category (the site-wide scan counts the category facet).
// Kept by the app with the rows (computeStaleFacets); the triggers that drop a resource's rows clear it.
export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('resources').addColumn('facet_profile', 'text').execute();

  // A download listed with more extensions than the app now keeps as format rows (FORMAT_ROWS_MAX, 40):
  // its resources' profiles could not enter the index. They are left without rows or profile, and
  // stale: the next filtered search or write computes both by the app's rule (they match no filter until then).
  await sql`insert into resource_facets_stale (resource_id)
    select resource_id from resource_facets where kind = 'format' group by resource_id having count(*) > 40 on conflict do nothing`.execute(db);
  await sql`delete from resource_facets where resource_id in (select resource_id from resource_facets_stale)`.execute(db);

  const mark = (ids: string) => `delete from resource_facets where resource_id in (${ids});
    insert into resource_facets_stale (resource_id) select id from resources where id in (${ids}) on conflict do nothing;`;
  if (dialect === 'postgres') {
    await sql`create or replace function rv_facets_stale() returns trigger language plpgsql as $$
      begin
        ${sql.raw(mark('new.id'))}
        if tg_op = 'UPDATE' then update resources set facet_profile = null where id = new.id and facet_profile is not null; end if;
        return null;
      end $$`.execute(db);
    await sql`create or replace function rv_download_facets_stale() returns trigger language plpgsql as $$
      begin
        ${sql.raw(mark('select id from resources where download_file_id = new.id'))}
        update resources set facet_profile = null where download_file_id = new.id and facet_profile is not null;
        return null;
      end $$`.execute(db);
    await sql`update resources r set facet_profile = (select string_agg(p.kind || '=' || coalesce(p.number::text, p.value), ' ')
      from resource_facets p where p.resource_id = r.id)`.execute(db);
  } else {
    await sql`drop trigger resources_facets_stale`.execute(db);
    await sql`drop trigger files_facets_stale`.execute(db);
    await sql`create trigger resources_facets_stale after update of preview, apps, category, download_file_id on resources begin ${sql.raw(mark('new.id'))}
      update resources set facet_profile = null where id = new.id and facet_profile is not null; end`.execute(db);
    await sql`create trigger files_facets_stale after update of listing_extensions on files
      when new.listing_extensions is not old.listing_extensions begin ${sql.raw(mark('select id from resources where download_file_id = new.id'))}
      update resources set facet_profile = null where download_file_id = new.id and facet_profile is not null; end`.execute(db);
    await sql`update resources set facet_profile = (select group_concat(p.kind || '=' || coalesce(p.number, p.value), ' ')
      from resource_facets p where p.resource_id = resources.id)`.execute(db);
  }

  for (const [name, columns] of [
    ['resources_cat_newest', ['category', 'created_at desc', 'id desc', 'status', 'facet_profile']],
    ['resources_newest', ['created_at desc', 'id desc', 'status', 'category', 'facet_profile']],
  ] as const) {
    await db.schema.dropIndex(name).execute();
    await db.schema.createIndex(name).on('resources').columns([...columns]).execute();
  }
  if (dialect === 'postgres') await sql`analyze resources`.execute(db);
}
