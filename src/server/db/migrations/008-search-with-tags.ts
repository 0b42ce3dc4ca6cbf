import { sql } from 'kysely';
import type { Dialect } from '../connection';
import { type AnyDb, pgTrgmSchema, quoteIdent, SEARCH_INDEX_CATEGORIES, JOINED_SEARCH_TEXT } from './helpers';

export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  // One GIN index over the tags and the joined text (all rows, and per category) instead of one
  // for each: a text with tags is intersected inside one index scan, so only rows holding both
  // reach the bitmap (`transitions` + `Nature` at 1M: 171,200 and 76,946 rows built into two
  // bitmaps and ANDed, 74 ms → 3,738 rows, 20 ms). Either column alone uses it as before.
  const trgm = sql.raw(`${quoteIdent(await pgTrgmSchema(db))}.gin_trgm_ops`);
  await sql`create index resources_search on resources using gin (tag_keys, (${JOINED_SEARCH_TEXT}) ${trgm})`.execute(db);
  await sql`drop index resources_search_trgm`.execute(db);
  await sql`drop index resources_tag_keys`.execute(db);
  for (const category of SEARCH_INDEX_CATEGORIES) {
    await sql`create index ${sql.raw(quoteIdent(`resources_search_${category}`))} on resources
      using gin (tag_keys, (${JOINED_SEARCH_TEXT}) ${trgm}) where category = ${sql.lit(category)}`.execute(db);
    await sql`drop index ${sql.raw(quoteIdent(`resources_search_trgm_${category}`))}`.execute(db);
  }
  await sql`analyze resources`.execute(db);
}
