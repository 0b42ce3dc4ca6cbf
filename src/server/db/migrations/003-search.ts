import { sql } from 'kysely';
import type { Dialect } from '../connection';
import { type AnyDb, pgTrgmSchema, quoteIdent, JOINED_SEARCH_TEXT } from './helpers';

// Text search without a full scan: `q` is a case-insensitive substring of the title, the
// description or a tag. SQLite: an FTS5 trigram index (contentless, kept by triggers; tags
// come from resources.tags, so one trigger set covers them). PostgreSQL: a stored generated
// column of the same text, lower-cased (fields joined by a newline, which no field or query
// can contain) under a pg_trgm GIN index, which LIKE '%q%' uses. The index covers the text with
// its spaces read as 'q' (SEARCH_JOIN): pg_trgm splits text into words, so '%film grain%' was
// looked up as "film" and "grain" anywhere in a row (14,662 candidates at 1M, none a match, 70 ms
// of rechecks); joined, the trigrams across the space ("lmq", "mqg", "qgr") are indexed too. Plus the global sort indexes
// an unscoped search walks in sort order when its matches are many.
export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') {
    const trgm = await pgTrgmSchema(db);
    // Lower-cased once here, so a search is a plain LIKE (no per-row lower()); tags as \x01tag\x01, as on SQLite.
    await sql`create function rv_search_text(title text, description text, tags text) returns text
      language sql immutable parallel safe
      as $$ select lower(title || E'\n' || description || E'\n'
        || coalesce((select string_agg(E'\x01' || t || E'\x01', '') from jsonb_array_elements_text(tags::jsonb) t), '')) $$`.execute(db);
    await sql`alter table resources add column search_text text
      generated always as (rv_search_text(title, description, tags)) stored`.execute(db);
    await sql`create index resources_search_trgm on resources using gin ((${JOINED_SEARCH_TEXT}) ${sql.raw(`${quoteIdent(trgm)}.gin_trgm_ops`)})`.execute(db);
  } else {
    // rowid = category code × 2^32 + id: a search within a category reads only that rowid
    // range of the index. Tags are indexed as \x01tag\x01 (no text can hold \x01), so a
    // phrase query finds a whole tag exactly, and `q` (never \x01) any part of one.
    await sql`create table search_categories (code integer primary key, category text not null unique)`.execute(db);
    await sql`create virtual table resources_fts using fts5(title, description, tags,
      content='', contentless_delete=1, tokenize='trigram case_sensitive 0')`.execute(db);
    const tagsText = (ref: string) =>
      sql.raw(
        `coalesce((select group_concat(char(1) || value || char(1), '') from json_each(case when json_valid(${ref}) then ${ref} else '[]' end)), '')`,
      );
    const ftsRowid = (row: string) =>
      sql.raw(`(select code from search_categories where category = ${row}.category) * 4294967296 + ${row}.id`);
    const insertRow = (row: string) => sql`
      insert or ignore into search_categories (category) values (${sql.raw(row)}.category);
      insert into resources_fts (rowid, title, description, tags)
        values (${ftsRowid(row)}, ${sql.raw(row)}.title, ${sql.raw(row)}.description, ${tagsText(`${row}.tags`)});`;
    await sql`create trigger resources_fts_insert after insert on resources begin ${insertRow('new')} end`.execute(db);
    await sql`create trigger resources_fts_update after update of title, description, tags, category on resources begin
      delete from resources_fts where rowid = ${ftsRowid('old')};
      ${insertRow('new')}
      end`.execute(db);
    await sql`create trigger resources_fts_delete after delete on resources begin
      delete from resources_fts where rowid = ${ftsRowid('old')};
      end`.execute(db);
    await sql`insert or ignore into search_categories (category) select distinct category from resources`.execute(db);
    await sql`insert into resources_fts (rowid, title, description, tags)
      select ${ftsRowid('resources')}, title, description, ${tagsText('tags')} from resources`.execute(db);
  }
  await db.schema
    .createIndex('resources_popular')
    .on('resources')
    .columns(['popularity desc', 'download_count desc', 'id desc'])
    .execute();
  await db.schema.createIndex('resources_downloads').on('resources').columns(['download_count desc', 'id desc']).execute();
}
