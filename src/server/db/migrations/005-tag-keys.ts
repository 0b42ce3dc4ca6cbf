import { sql } from 'kysely';
import type { Dialect } from '../connection';
import { type AnyDb } from './helpers';

// PostgreSQL: the tag filter through a GIN index over each resource's lower-cased tags (an
// array), which the planner intersects with the text index; a LIKE for \x01tag\x01 on
// search_text read the posting lists of the tag's common trigrams. SQLite: nothing (its FTS5
// index holds tags already).
export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`create function rv_tag_keys(tags text) returns text[]
    language sql immutable parallel safe
    as $$ select coalesce(array_agg(distinct lower(t)), '{}') from jsonb_array_elements_text(tags::jsonb) t $$`.execute(db);
  await sql`alter table resources add column tag_keys text[] generated always as (rv_tag_keys(tags)) stored`.execute(db);
  await sql`create index resources_tag_keys on resources using gin (tag_keys)`.execute(db);
}
