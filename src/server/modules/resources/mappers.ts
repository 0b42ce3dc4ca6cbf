import type { Selectable } from 'kysely';
import type { CategoryValue } from '../../../contract/categories';
import type { PublicResource, Resource } from '../../../contract/resources';
import type { ResourcesTable } from '../../db/schema';

export type ResourceRow = Selectable<ResourcesTable>;

function parseTags(json: string): string[] {
  try {
    const v = JSON.parse(json);
    return Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

export function toPublicResource(row: Omit<ResourceRow, 'download_url' | 'admin_id'>): PublicResource {
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
  };
}

export function toResource(row: ResourceRow): Resource {
  return {
    ...toPublicResource(row),
    download_url: row.download_url,
    admin_id: row.admin_id === null ? null : Number(row.admin_id),
  };
}

/** Tags as shown: trimmed, first spelling wins, duplicates (case-insensitive) dropped. */
export function normalizeTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tags) {
    const t = raw.trim();
    const key = t.toLowerCase();
    if (t && !seen.has(key)) {
      seen.add(key);
      out.push(t);
    }
  }
  return out;
}

/** The rows of resource_tags for a resource: one per distinct lower-cased tag. */
export function tagKeys(tags: readonly string[]): string[] {
  return normalizeTags(tags).map((t) => t.toLowerCase());
}
