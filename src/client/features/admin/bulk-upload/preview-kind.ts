import type { CategoryValue } from '@contract/categories';
import { CATEGORY_PREVIEW_KINDS, type PreviewKind, SELF_PREVIEW_KINDS } from '@contract/previews';

/** File name endings of each kind a download can preview itself as (the server checks the bytes when it makes the preview). */
const EXTENSIONS: Partial<Record<PreviewKind, readonly string[]>> = {
  video: ['mp4', 'm4v', 'mov', 'webm', 'mkv', 'avi'],
  audio: ['wav', 'mp3', 'flac', 'ogg', 'oga', 'opus', 'm4a', 'aac', 'aif', 'aiff'],
  font: ['ttf', 'otf', 'woff', 'woff2'],
  lut: ['cube'],
};

/**
 * The preview a bulk-uploaded file makes of itself in `category`, or null when its kind does not
 * fit (a zip, or a sound in Typography): such a draft simply has no preview.
 */
export function selfPreviewKind(category: CategoryValue, file: { name: string; type: string }): PreviewKind | null {
  const ext = /\.([^.]+)$/.exec(file.name)?.[1]?.toLowerCase() ?? '';
  const major = file.type.split('/')[0];
  const kind = SELF_PREVIEW_KINDS.find((k) => EXTENSIONS[k]?.includes(ext) || ((k === 'video' || k === 'audio') && major === k));
  return kind && CATEGORY_PREVIEW_KINDS[category].includes(kind) ? kind : null;
}
