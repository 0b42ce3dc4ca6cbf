import { Readable } from 'node:stream';
import { CATALOGUE_COLUMNS, type CatalogueColumn, type ExportFormat, TAG_SEPARATOR } from '../../../contract/catalogue';
import { licenceFromColumns } from '../../../contract/resource-page';
import type { Database } from '../../db/connection';
import { parseTags } from '../resources/mappers';
import { csvRecord } from './csv';
import { fileKey } from './file-keys';
import { exportPage, type ExportRow } from './queries';

/** Resources read per query: a keyset page, so memory stays flat whatever the catalogue's size. */
const EXPORT_PAGE = 1000;

/** A resource as the export prints it: the CSV's columns with their types (JSON prints these). */
export function exportedResource(r: ExportRow) {
  const thumbnailFile = r.thumbnail_file_id === null ? null : { key: fileKey(Number(r.thumbnail_file_id), r.thumbnail_sha256 ?? ''), name: r.thumbnail_name ?? '' };
  const downloadFile =
    r.download_file_id === null
      ? null
      : { key: fileKey(Number(r.download_file_id), r.download_sha256 ?? ''), name: r.download_name ?? '', size: Number(r.download_size), sha256: r.download_sha256 ?? '' };
  return {
    id: Number(r.id),
    title: r.title,
    description: r.description,
    category: r.category,
    status: r.status,
    publish_at: r.publish_at,
    is_premium: Boolean(Number(r.is_premium)),
    tags: parseTags(r.tags),
    licence: licenceFromColumns(r.licence_kind, r.licence_text),
    // A slot is a link or a hosted file: the link is empty when the file key names it.
    thumbnail_url: thumbnailFile ? '' : r.thumbnail_url,
    thumbnail_choice: r.thumbnail_choice,
    thumbnail_file: thumbnailFile,
    download_url: downloadFile ? '' : r.download_url,
    download_file: downloadFile,
    download_count: Number(r.download_count),
    popularity: Number(r.popularity),
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

function csvValues(r: ExportRow): string[] {
  const e = exportedResource(r);
  const licence = e.licence;
  const cells: Record<CatalogueColumn, string> = {
    id: String(e.id),
    title: e.title,
    description: e.description,
    category: e.category,
    status: e.status,
    publish_at: e.publish_at ?? '',
    is_premium: String(e.is_premium),
    tags: e.tags.join(TAG_SEPARATOR),
    licence_kind: licence.kind,
    licence_text: licence.kind === 'attribution' ? licence.credit : licence.kind === 'custom' ? licence.text : '',
    thumbnail_url: e.thumbnail_url,
    thumbnail_choice: e.thumbnail_choice,
    thumbnail_file: e.thumbnail_file?.key ?? '',
    thumbnail_file_name: e.thumbnail_file?.name ?? '',
    download_url: e.download_url,
    download_file: e.download_file?.key ?? '',
    download_file_name: e.download_file?.name ?? '',
    download_count: String(e.download_count),
    popularity: String(e.popularity),
    created_at: e.created_at,
    updated_at: e.updated_at,
  };
  return CATALOGUE_COLUMNS.map((c) => cells[c]);
}

/**
 * Every resource, oldest id first, as CSV (RFC 4180 with the formula guard) or as one JSON array,
 * one page of rows at a time. The Readable pulls the next page only when the reply has taken
 * the last (backpressure): a slow client holds one page in memory, not the catalogue.
 */
export function exportStream(database: Database, format: ExportFormat): Readable {
  async function* chunks() {
    yield format === 'csv' ? csvRecord(CATALOGUE_COLUMNS) : '[';
    let after = 0;
    let first = true;
    for (;;) {
      const rows = await exportPage(database, after, EXPORT_PAGE);
      if (rows.length === 0) break;
      let out = '';
      for (const r of rows) {
        if (format === 'csv') out += csvRecord(csvValues(r));
        else {
          out += `${first ? '\n' : ',\n'}${JSON.stringify(exportedResource(r))}`;
          first = false;
        }
      }
      yield out;
      after = Number(rows[rows.length - 1].id);
      if (rows.length < EXPORT_PAGE) break;
    }
    if (format === 'json') yield first ? ']\n' : '\n]\n';
  }
  return Readable.from(chunks(), { objectMode: false });
}
