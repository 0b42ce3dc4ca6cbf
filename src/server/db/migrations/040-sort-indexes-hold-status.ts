import type { Dialect } from '../connection';
import type { AnyDb } from './helpers';

// The six sort indexes of resources (migrations 001 and 003) gain the status as their last column, so a
// walk of one that checks whether each row is public (a bounded scan of a filter's scope, the row that
// ends a walk, the rows a page skips) reads the index alone instead of each row, whose preview and text
// make it wide: at 1,000,000 resources a scan of a category's newest 2,001 rows 6–8 → 3.7 ms, the
// 2,000th row after a cursor 1.7 → 0.2 ms (docs/decisions/453-sort-indexes-hold-status.md).
// Same names, same order: every query that used one uses it as before.

const SORT_INDEXES: [string, string[]][] = [
  ['resources_cat_popular', ['category', 'popularity desc', 'download_count desc', 'id desc']],
  ['resources_cat_newest', ['category', 'created_at desc', 'id desc']],
  ['resources_cat_downloads', ['category', 'download_count desc', 'id desc']],
  ['resources_newest', ['created_at desc', 'id desc']],
  ['resources_popular', ['popularity desc', 'download_count desc', 'id desc']],
  ['resources_downloads', ['download_count desc', 'id desc']],
];

export async function up(db: AnyDb, _dialect: Dialect): Promise<void> {
  for (const [name, columns] of SORT_INDEXES) {
    await db.schema.dropIndex(name).execute();
    await db.schema
      .createIndex(name)
      .on('resources')
      .columns([...columns, 'status'])
      .execute();
  }
}
