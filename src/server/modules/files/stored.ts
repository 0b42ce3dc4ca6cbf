import type { Kysely, Selectable, Transaction } from 'kysely';
import type { HostedFile, HostedImage } from '../../../contract/files';
import type { Tables, FilesTable } from '../../db/schema';
import { mediaUrl } from '../../../contract/files';

/**
 * A hosted file as the database keeps it (migration 015) and as the API shows it. The bytes of a
 * download are under `key` in the file store; a thumbnail's bytes are its variants under media/
 * (content-addressed, served immutable by GET /media/:name), described by `image`.
 */
export type FileRow = Selectable<FilesTable>;
export type FileMap = ReadonlyMap<number, FileRow>;
export const NO_FILES: FileMap = new Map();

/** What `files.image` holds for a thumbnail. */
export interface StoredImage {
  width: number;
  height: number;
  /** By width, WebP first; `fileName` is `<hash>.<format>` under media/. */
  variants: { format: 'webp' | 'avif'; width: number; height: number; fileName: string }[];
  placeholder: { color: string; dataUri: string };
}

/** The files rows with these ids (nulls skipped), in one query. */
export async function loadFiles(db: Kysely<Tables> | Transaction<Tables>, ids: readonly (number | null | undefined)[]): Promise<FileMap> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null && id !== undefined).map(Number))];
  if (wanted.length === 0) return NO_FILES;
  const rows = await db.selectFrom('files').selectAll().where('id', 'in', wanted).execute();
  return new Map(rows.map((r) => [Number(r.id), r]));
}

export function hostedFile(row: FileRow | undefined): HostedFile | null {
  if (!row) return null;
  return { name: row.name, size: Number(row.size), sha256: row.sha256, content_type: row.content_type };
}

export function parseStoredImage(json: string | null): StoredImage | null {
  if (!json) return null;
  try {
    const v = JSON.parse(json) as StoredImage;
    return Array.isArray(v.variants) && v.variants.length > 0 ? v : null;
  } catch {
    return null;
  }
}

const srcset = (image: StoredImage, format: 'webp' | 'avif') =>
  image.variants
    .filter((v) => v.format === format)
    .map((v) => `${mediaUrl(v.fileName)} ${v.width}w`)
    .join(', ');

/** The largest WebP variant's URL: `thumbnail.src`, and what `thumbnail_url` holds for a hosted thumbnail. */
export function imageSrc(image: StoredImage): string {
  const webp = image.variants.filter((v) => v.format === 'webp');
  return mediaUrl(webp[webp.length - 1].fileName);
}

export function hostedImage(row: FileRow | undefined): HostedImage | null {
  const image = parseStoredImage(row?.image ?? null);
  return image ? hostedImageOf(image) : null;
}

/** A stored image as the API shows it. */
export function hostedImageOf(image: StoredImage): HostedImage {
  return {
    src: imageSrc(image),
    srcset: srcset(image, 'webp'),
    avif_srcset: srcset(image, 'avif'),
    width: image.width,
    height: image.height,
    placeholder: { color: image.placeholder.color, data_uri: image.placeholder.dataUri },
  };
}
