import type { Kysely } from 'kysely';
import type { CategoryValue } from '../../../contract/categories';
import type { Database } from '../../db/schema';
import { PUBLIC_COLUMNS } from './columns';

// The public list (filters, sorts, search) is search/index.ts; these are the simple reads.

const SELECTED = PUBLIC_COLUMNS.map((c) => `resources.${c}` as const);

export async function listByCategoryNewest(db: Kysely<Database>, category: CategoryValue, limit: number) {
  return db
    .selectFrom('resources')
    .select(SELECTED)
    .where('resources.category', '=', category)
    .orderBy('resources.created_at', 'desc')
    .orderBy('resources.id', 'desc')
    .limit(limit)
    .execute();
}

export async function getPublicResource(db: Kysely<Database>, id: number) {
  return db.selectFrom('resources').select(SELECTED).where('resources.id', '=', id).executeTakeFirst();
}
