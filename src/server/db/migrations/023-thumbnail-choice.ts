import { sql } from 'kysely';
import type { AnyDb } from './helpers';

// Which picture stands for a resource where its video preview has a poster: its own thumbnail
// ('image') or the poster ('poster'), chosen by the admin
// (docs/decisions/362-the-admin-chooses-the-thumbnail.md). Existing rows read 'image': one with a
// thumbnail of its own now shows it, as its admin expects; one with only the generated thumbnail
// keeps showing its poster (contract/thumbnail-choice.ts).
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('resources')
    .addColumn('thumbnail_choice', 'text', (c) => c.notNull().defaultTo('image').check(sql`thumbnail_choice in ('image', 'poster')`))
    .execute();
}
