import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/connection';
import type { Tables } from '../../db/schema';
import { notTrashedSql } from '../resources/visibility';

/** The SQL of the catalogue's export and import (docs/decisions/405-catalogue-export-and-import.md). */

/** A resource as exported, with its hosted files' key parts and names. */
export interface ExportRow {
  id: number;
  title: string;
  description: string;
  category: string;
  status: string;
  publish_at: string | null;
  is_premium: number;
  tags: string;
  licence_kind: string;
  licence_text: string | null;
  thumbnail_url: string;
  thumbnail_choice: string;
  thumbnail_file_id: number | null;
  thumbnail_sha256: string | null;
  thumbnail_name: string | null;
  download_url: string;
  download_file_id: number | null;
  download_sha256: string | null;
  download_name: string | null;
  download_size: number | string | null;
  download_count: number;
  popularity: number;
  created_at: string;
  updated_at: string;
}

/**
 * Resources as exported: their columns and their hosted files' key parts and names. A resource in
 * the trash is deleted as far as the catalogue goes (decision 398): not exported, and an import
 * row naming it finds no resource (restore it first).
 */
function exportedRows(database: Database) {
  return database.db
    .selectFrom('resources as r')
    .where(notTrashedSql('r'))
    .leftJoin('files as t', 't.id', 'r.thumbnail_file_id')
    .leftJoin('files as d', 'd.id', 'r.download_file_id')
    .select([
      'r.id',
      'r.title',
      'r.description',
      'r.category',
      'r.status',
      'r.publish_at',
      'r.is_premium',
      'r.tags',
      'r.licence_kind',
      'r.licence_text',
      'r.thumbnail_url',
      'r.thumbnail_choice',
      'r.thumbnail_file_id',
      't.sha256 as thumbnail_sha256',
      't.name as thumbnail_name',
      'r.download_url',
      'r.download_file_id',
      'd.sha256 as download_sha256',
      'd.name as download_name',
      'd.size as download_size',
      'r.download_count',
      'r.popularity',
      'r.created_at',
      'r.updated_at',
    ]);
}

/** Up to `limit` resources after id `after`, in id order: a keyset page on the primary key, so every page costs the same. */
export async function exportPage(database: Database, after: number, limit: number): Promise<ExportRow[]> {
  const rows = await exportedRows(database)
    .where('r.id', '>', after)
    .orderBy('r.id')
    .limit(limit)
    .execute();
  return rows as ExportRow[];
}

/** What an import compares a row with: the resources these ids name. */
export async function currentResources(database: Database, ids: readonly number[]): Promise<Map<number, ExportRow>> {
  if (ids.length === 0) return new Map();
  const rows = await exportedRows(database)
    .where('r.id', 'in', [...ids])
    .execute();
  return new Map((rows as ExportRow[]).map((r) => [Number(r.id), r]));
}

/** A hosted file an import row names, with the resources that point at it. */
export interface NamedFile {
  id: number;
  kind: string;
  sha256: string;
  image: string | null;
  detached: boolean;
  /** Resources whose download or thumbnail it is (one at most, unless data was written by hand). */
  usedBy: number[];
}

export async function namedFiles(database: Database, ids: readonly number[]): Promise<Map<number, NamedFile>> {
  if (ids.length === 0) return new Map();
  const { db } = database;
  const [files, users] = await Promise.all([
    db.selectFrom('files').select(['id', 'kind', 'sha256', 'image', 'detached_at']).where('id', 'in', [...ids]).execute(),
    db
      .selectFrom('resources')
      .select(['id', 'download_file_id', 'thumbnail_file_id'])
      .where((eb) => eb.or([eb('download_file_id', 'in', [...ids]), eb('thumbnail_file_id', 'in', [...ids])]))
      .execute(),
  ]);
  const out = new Map<number, NamedFile>(
    files.map((f) => [Number(f.id), { id: Number(f.id), kind: f.kind, sha256: f.sha256, image: f.image, detached: f.detached_at !== null, usedBy: [] }]),
  );
  for (const u of users) {
    for (const fileId of [u.download_file_id, u.thumbnail_file_id]) out.get(Number(fileId))?.usedBy.push(Number(u.id));
  }
  return out;
}

/**
 * Takes a detached hosted file back into use, in the row's transaction: false when it is no longer
 * detached (another save took it) or is gone (the sweep removed it), which fails the row.
 */
export async function reattachFile(trx: Transaction<Tables>, id: number): Promise<boolean> {
  const r = await trx.updateTable('files').set({ detached_at: null }).where('id', '=', id).where('detached_at', 'is not', null).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** A savepoint inside a batch's transaction: one import row is all or nothing within it. */
export const savepoint = {
  begin: (trx: Transaction<Tables>) => sql`savepoint import_row`.execute(trx),
  release: (trx: Transaction<Tables>) => sql`release savepoint import_row`.execute(trx),
  rollback: (trx: Transaction<Tables>) => sql`rollback to savepoint import_row`.execute(trx),
};
