import { sql } from 'kysely';
import type { Dialect } from '../connection';
import type { AnyDb } from './helpers';

// Who owns each file derived from uploads under media/ (docs/decisions/330-media-owners.md): one
// row per resource and role naming a key. GET /media/<name> serves a key only while some row
// names it, and the sweep frees the bytes of a key no row names after its grace period, so
// deleting a resource (its rows go in the same transaction) unpublishes its preview, poster,
// storyboard, font and thumbnail at once. Content-addressed files are shared (identical uploads,
// the demo's clips, the LUT sample photos): a key stays while any resource still names it.
// - role: thumbnail (a hosted thumbnail's variants), preview (the files of the ready preview the
//   resource shows), specimen (a font's title drawn in it).
// Existing resources get the rows their ready preview and hosted thumbnail need.
export async function up(db: AnyDb, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('media_owners')
    .addColumn('resource_id', 'integer', (c) => c.notNull().references('resources.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('thumbnail', 'preview', 'specimen')`))
    .addColumn('key', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('media_owners_pk', ['resource_id', 'role', 'key'])
    .execute();
  await sql`create index media_owners_key on media_owners (key)`.execute(db);

  const BATCH = 500;
  const insert = async (rows: { resource_id: number; role: string; key: string }[]) => {
    const unique = [...new Map(rows.map((r) => [`${r.resource_id}\n${r.role}\n${r.key}`, r])).values()];
    for (let i = 0; i < unique.length; i += BATCH) await db.insertInto('media_owners').values(unique.slice(i, i + BATCH)).execute();
  };

  let after = 0;
  for (;;) {
    const page: { id: number; preview: string }[] = await db
      .selectFrom('resources')
      .select(['id', 'preview'])
      .where('preview', 'is not', null)
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (page.length === 0) break;
    after = Number(page[page.length - 1]!.id);
    await insert(page.flatMap((r) => keysIn(parse(r.preview)).map((key) => ({ resource_id: Number(r.id), role: 'preview', key }))));
  }

  const thumbnails: { id: number; image: string | null }[] = await db
    .selectFrom('resources')
    .innerJoin('files', 'files.id', 'resources.thumbnail_file_id')
    .select(['resources.id as id', 'files.image as image'])
    .execute();
  await insert(
    thumbnails.flatMap((r) => {
      const image = parse(r.image) as { variants?: { fileName?: unknown }[] } | undefined;
      const names = Array.isArray(image?.variants) ? image.variants.map((v) => v.fileName).filter((n): n is string => typeof n === 'string') : [];
      return names.map((name) => ({ resource_id: Number(r.id), role: 'thumbnail', key: `media/${name}` }));
    }),
  );
}

function parse(json: string | null): unknown {
  if (!json) return undefined;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
}

/** Every `key` under media/ a stored preview names (its derived files, a LUT's sample photos). */
function keysIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysIn);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => (k === 'key' && typeof v === 'string' && v.startsWith('media/') ? [v] : keysIn(v)));
}
