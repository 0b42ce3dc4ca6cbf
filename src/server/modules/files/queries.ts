import type { Kysely } from 'kysely';
import type { Tables } from '../../db/schema';

/** A hosted download's files row by id (a signed link names it); undefined when there is none. */
export async function downloadFileById(db: Kysely<Tables>, fileId: number) {
  return db.selectFrom('files').select(['key', 'name', 'content_type']).where('id', '=', fileId).where('kind', '=', 'download').executeTakeFirst();
}

/** The files row of a resource's hosted download; undefined when the resource has none (or is gone). */
export async function hostedDownloadOf(db: Kysely<Tables>, resourceId: number) {
  return db
    .selectFrom('resources')
    .innerJoin('files', 'files.id', 'resources.download_file_id')
    .select(['files.id', 'files.key', 'files.name', 'files.content_type'])
    .where('resources.id', '=', resourceId)
    .executeTakeFirst();
}
