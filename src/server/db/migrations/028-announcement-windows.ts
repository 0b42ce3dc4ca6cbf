import type { AnyDb } from './helpers';

// An announcement may be shown only inside a window (docs/decisions/394-announcement-windows.md):
// starts_at and ends_at, UTC ISO-8601 text, each optional (null: open on that side).
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('announcements').addColumn('starts_at', 'text').execute();
  await db.schema.alterTable('announcements').addColumn('ends_at', 'text').execute();
}
