import type { Kysely } from 'kysely';
import type { Tables } from '../../db/schema';

export async function getResourceCategory(db: Kysely<Tables>, id: number): Promise<string | undefined> {
  const row = await db.selectFrom('resources').select('category').where('id', '=', id).executeTakeFirst();
  return row?.category;
}
