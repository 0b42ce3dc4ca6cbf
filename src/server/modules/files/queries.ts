import type { Kysely } from 'kysely';
import type { Tables } from '../../db/schema';
import { isPublicSql } from '../resources/visibility';

/** A hosted download's files row by id (a signed link names it); undefined when there is none or no public resource offers it. */
export async function downloadFileById(db: Kysely<Tables>, fileId: number) {
  return db
    .selectFrom('files')
    .innerJoin('resources', 'resources.download_file_id', 'files.id')
    .select(['files.key', 'files.name', 'files.content_type'])
    .where('files.id', '=', fileId)
    .where('files.kind', '=', 'download')
    .where(isPublicSql())
    .executeTakeFirst();
}

/** The files row of a public resource's hosted download; undefined when the resource has none (or is gone, or not public). */
export async function hostedDownloadOf(db: Kysely<Tables>, resourceId: number) {
  return db
    .selectFrom('resources')
    .innerJoin('files', 'files.id', 'resources.download_file_id')
    .select(['files.id', 'files.key', 'files.name', 'files.content_type'])
    .where('resources.id', '=', resourceId)
    .where(isPublicSql())
    .executeTakeFirst();
}
