import { APP_LABELS, type AppId, appsFor } from '../../../contract/apps';
import { type ContentsSummary, LISTING_STATUSES, type ListingStatus, type ResourceApp } from '../../../contract/contents';
import type { PreviewKind } from '../../../contract/previews';
import type { FileRow } from '../files/stored';

/**
 * A download's listing (migration 035, listings.ts) and a resource's apps as the API shows them
 * (contract/contents.ts). Anything unreadable reads as not listed / no correction, never an error.
 */

const isStatus = (v: unknown): v is ListingStatus => (LISTING_STATUSES as readonly unknown[]).includes(v);
const num = (v: number | string | null | undefined) => (v === null || v === undefined ? null : Number(v));

export function contentsSummary(file: FileRow | undefined): ContentsSummary | null {
  if (!file || !isStatus(file.listing_status)) return null;
  return { status: file.listing_status, reason: file.listing_reason ?? null, count: num(file.listing_count), total_size: num(file.listing_total) };
}

/** The stored counts by extension of a listed ZIP ({} for none). */
export function listingExtensions(file: Pick<FileRow, 'listing_extensions'> | undefined): Record<string, number> {
  try {
    const v: unknown = JSON.parse(file?.listing_extensions ?? '{}');
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return {};
    return Object.fromEntries(Object.entries(v).filter((e): e is [string, number] => typeof e[1] === 'number'));
  } catch {
    return {};
  }
}

/** resources.apps: an admin's correction, or null (deduced). */
export function storedApps(json: string | null | undefined): { id: AppId; min_version: string | null }[] | null {
  if (!json) return null;
  try {
    const v: unknown = JSON.parse(json);
    if (!Array.isArray(v)) return null;
    return v
      .filter((a): a is { id: AppId; min_version?: unknown } => typeof a === 'object' && a !== null && typeof a.id === 'string' && a.id in APP_LABELS)
      .map((a) => ({ id: a.id, min_version: typeof a.min_version === 'string' && a.min_version !== '' ? a.min_version : null }));
  } catch {
    return null;
  }
}

/**
 * The apps a resource works in: the admin's list where there is one (it wins), else deduced from
 * its hosted download's extensions and its preview's kind.
 */
export function resourceApps(correction: string | null | undefined, file: Pick<FileRow, 'listing_extensions'> | undefined, previewKind: PreviewKind | null | undefined): { apps: ResourceApp[]; corrected: boolean } {
  const corrected = storedApps(correction);
  if (corrected) return { apps: corrected.map((a) => ({ id: a.id, label: APP_LABELS[a.id], min_version: a.min_version })), corrected: true };
  const ids = appsFor(Object.keys(listingExtensions(file)), previewKind);
  return { apps: ids.map((id) => ({ id, label: APP_LABELS[id], min_version: null })), corrected: false };
}
