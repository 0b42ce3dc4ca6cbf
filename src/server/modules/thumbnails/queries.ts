import { type Kysely, sql } from 'kysely';
import type { Tables } from '../../db/schema';
import { isPublicSql, notTrashedSql } from '../resources/visibility';

/**
 * A resource's category (its generated thumbnail's colours), whether the public may see it and
 * whether it is in the trash (then only admins may); undefined when there is none.
 */
export async function getResourceCategory(db: Kysely<Tables>, id: number): Promise<{ category: string; isPublic: boolean; inTrash: boolean } | undefined> {
  const row = await db
    .selectFrom('resources')
    .select(['category', sql<number | boolean>`(${isPublicSql()})`.as('is_public'), sql<number | boolean>`(${notTrashedSql()})`.as('not_trashed')])
    .where('id', '=', id)
    .executeTakeFirst();
  return row && { category: row.category, isPublic: Boolean(Number(row.is_public)), inTrash: !Number(row.not_trashed) };
}
