import type { CategoryValue } from '../../../contract/categories';
import { foldForSearch } from '../../../contract/search-fold';
import { licenceFromColumns, resourcePath } from '../../../contract/resource-page';
import type { PublicResource, Resource } from '../../../contract/resources';
import { adminPreview, type PreviewJobState, readyPreview } from '../media/preview-answers';
import type { AdminRow, PublicRow } from './columns';

/** The stored tags JSON as a list (anything unreadable: none). */
export function parseTags(json: string): string[] {
  try {
    const v = JSON.parse(json);
    return Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

export function toPublicResource(row: PublicRow): PublicResource {
  return {
    id: Number(row.id),
    title: row.title,
    description: row.description,
    category: row.category as CategoryValue,
    thumbnail_url: row.thumbnail_url,
    is_premium: Boolean(Number(row.is_premium)),
    download_count: Number(row.download_count),
    popularity: Number(row.popularity),
    tags: parseTags(row.tags),
    created_at: row.created_at,
    updated_at: row.updated_at,
    url: resourcePath({ id: Number(row.id), title: row.title }),
    licence: licenceFromColumns(row.licence_kind, row.licence_text),
    preview: readyPreview(row.preview),
  };
}

/** `job`: the resource's preview job (row.preview_job_id) as read with it, for the preview's state. */
export function toResource(row: AdminRow, job: PreviewJobState | undefined): Resource {
  return {
    ...toPublicResource(row),
    download_url: row.download_url,
    admin_id: row.admin_id === null ? null : Number(row.admin_id),
    preview: adminPreview(row.preview, job),
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
