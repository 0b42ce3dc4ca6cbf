import { sql } from 'kysely';
import type { AnyDb } from './helpers';

// A licence per resource (contract/resource-page.ts): its kind, and for `attribution` the credit
// line or for `custom` the licence's own text. Every resource that exists already gets the default
// kind (free for personal and commercial use), which needs no text.
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('resources')
    .addColumn('licence_kind', 'text', (c) =>
      c
        .notNull()
        .defaultTo('free-commercial')
        .check(sql`licence_kind in ('free-commercial', 'attribution', 'personal', 'custom')`),
    )
    .execute();
  await db.schema.alterTable('resources').addColumn('licence_text', 'text').execute();
}
