import type { CategoryValue } from '../../../contract/categories';
import { foldForSearch } from '../../../contract/search-fold';
import { licenceFromColumns, resourcePath } from '../../../contract/resource-page';
import type { PublicResource, Resource, ResourceStatus } from '../../../contract/resources';
import { type FileMap, hostedFile, hostedImage, NO_FILES } from '../files/stored';
import { adminPreview, type PreviewJobState, previewFacts, readyPreview } from '../media/preview-answers';
import { contentsSummary, resourceApps } from '../listings/answers';
import type { AdminRow, PublicRow } from './columns';

/** The files ids a page of rows points at, for loadFiles. */
export const fileIds = (rows: readonly Pick<PublicRow, 'download_file_id' | 'thumbnail_file_id'>[]) => rows.flatMap((r) => [r.download_file_id, r.thumbnail_file_id]);

/** The stored tags JSON as a list (anything unreadable: none). */
export function parseTags(json: string): string[] {
  try {
    const v = JSON.parse(json);
    return Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

/** `files`: the files rows the row points at (loadFiles); a row with none shows links only. */
export function toPublicResource(row: PublicRow, files: FileMap = NO_FILES): PublicResource {
  const thumbnail = row.thumbnail_file_id === null ? null : hostedImage(files.get(Number(row.thumbnail_file_id)));
  const download = row.download_file_id === null ? undefined : files.get(Number(row.download_file_id));
  const preview = readyPreview(row.preview, { id: Number(row.id), title: row.title });
  return {
    id: Number(row.id),
    title: row.title,
    description: row.description,
    category: row.category as CategoryValue,
    thumbnail_url: row.thumbnail_url,
    thumbnail,
    thumbnail_choice: row.thumbnail_choice === 'poster' ? 'poster' : 'image',
    file: hostedFile(download),
    is_premium: Boolean(Number(row.is_premium)),
    download_count: Number(row.download_count),
    popularity: Number(row.popularity),
    tags: parseTags(row.tags),
    created_at: row.created_at,
    updated_at: row.updated_at,
    url: resourcePath({ id: Number(row.id), title: row.title }),
    licence: licenceFromColumns(row.licence_kind, row.licence_text),
    preview,
    facts: preview ? previewFacts(row.preview) : null,
    apps: resourceApps(row.apps, download, preview?.kind).apps,
    contents: contentsSummary(download),
  };
}

/**
 * `job`: the resource's preview job (row.preview_job_id) as read with it, for the preview's state;
 * `files`: the files rows it points at (loadFiles).
 */
export function toResource(row: AdminRow, job: PreviewJobState | undefined, files: FileMap = NO_FILES): Resource {
  return {
    ...toPublicResource(row, files),
    download_url: row.download_url,
    admin_id: row.admin_id === null ? null : Number(row.admin_id),
    preview: adminPreview(row.preview, { id: Number(row.id), title: row.title }, job),
    status: row.status as ResourceStatus,
    publish_at: row.publish_at,
    apps_corrected: resourceApps(row.apps, undefined, undefined).corrected,
  };
}

/**
 * Tags as shown: trimmed, first spelling wins, tags that fold alike (foldForSearch: `Straße`,
 * `STRASSE`) are one tag, and a tag of nothing but invisible characters is dropped.
 */
export function normalizeTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tags) {
    const t = raw.trim();
    const key = foldForSearch(t);
    if (key && !seen.has(key)) {
      seen.add(key);
      out.push(t);
    }
  }
  return out;
}

/** A resource's tag keys (resource_tags rows, the tag filter's terms): one per distinct folded tag. */
export function tagKeys(tags: readonly string[]): string[] {
  return normalizeTags(tags).map(foldForSearch);
}
