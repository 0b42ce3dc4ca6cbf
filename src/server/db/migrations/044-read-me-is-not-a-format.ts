import { sql } from 'kysely';
import type { AnyDb } from './helpers';

// A pack's read-me and notes (txt, md, rtf, nfo) and saved links (url, webloc) are not its formats
// (search/facet-rows.ts NOT_FORMATS, docs/decisions/468-a-read-me-is-not-a-format.md). The format rows the
// app wrote for them before are deleted, and the same items taken out of each facet profile (migration 041),
// here in SQL: marking those resources stale instead would leave them out of every fact filter until the
// app had computed them again, 500 at a time. The list is this migration's own, as that rule was on the day.
// Public answers change (the format facets and filter), so the data version is bumped, as any write of
// facets does; with no such row nothing is written (an update of no rows still bumps it on PostgreSQL).
const EXTENSIONS = ['txt', 'md', 'rtf', 'nfo', 'url', 'webloc'];

export async function up(db: AnyDb): Promise<void> {
  const values = sql.join(EXTENSIONS.map((e) => sql.lit(e)));
  const { rows } = await sql`select 1 from resource_facets where kind = 'format' and value in (${values}) limit 1`.execute(db);
  if (rows.length === 0) return;
  await sql`delete from resource_facets where kind = 'format' and value in (${values})`.execute(db);
  for (const e of EXTENSIONS) {
    // ' format=txt ' in the profile padded with spaces: one item, never part of another ('format=txts').
    await sql`update resources set facet_profile = nullif(trim(replace(' ' || facet_profile || ' ', ${sql.lit(` format=${e} `)}, ' ')), '')
      where facet_profile like ${sql.lit(`%format=${e}%`)}`.execute(db);
  }
  await sql`update data_version set version = version + 1 where id = 1`.execute(db);
}
