import type { Kysely } from 'kysely';
import type { Tables } from '../../db/schema';
import { isPublicSql } from '../resources/visibility';

/** A public resource's category (its generated thumbnail's colours); undefined when there is none or it is not public. */
export async function getResourceCategory(db: Kysely<Tables>, id: number): Promise<string | undefined> {
  const row = await db.selectFrom('resources').select('category').where('id', '=', id).where(isPublicSql()).executeTakeFirst();
  return row?.category;
}
