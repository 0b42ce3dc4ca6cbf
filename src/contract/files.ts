import { z } from 'zod';

/**
 * Hosted files: what the client and the server agree on for uploads (tus 1.0) and for the files a
 * resource carries. The upload protocol itself is tus (https://tus.io/protocols/resumable-upload),
 * spoken by @tus/server on the server and tus-js-client (or Uppy) in the browser; this module only
 * fixes the endpoint, the sizes and the metadata keys. See docs/decisions/200-hosted-files.md.
 */

/**
 * The tus endpoint. POST here creates an upload (creation, creation-with-upload); the answer's
 * Location is `${UPLOADS_PATH}/<upload id>`, where HEAD/PATCH/DELETE resume, continue and cancel
 * it. Every request needs an admin session cookie and, for writes (POST, PATCH, DELETE), the same
 * Origin check as the other admin writes. Errors are in the API's one error shape (JSON).
 */
export const UPLOADS_PATH = '/api/admin/uploads';

/** The URL of one upload (tus's upload URL); `id` is an upload id (see uploadIdSchema). */
export const uploadPath = (id: string) => `${UPLOADS_PATH}/${id}`;

/**
 * The largest body of one PATCH (one chunk): 50 MiB, so a reverse proxy with a 100 MB body limit
 * passes every request. tus-js-client: `chunkSize: UPLOAD_CHUNK_BYTES`. A bigger PATCH body gets 413.
 */
export const UPLOAD_CHUNK_BYTES = 50 * 1024 * 1024;

/**
 * UPLOAD_MAX_BYTES's default (5 GiB): the largest file an admin can upload. The running server's
 * value is in the tus OPTIONS answer's `Tus-Max-Size` header; an Upload-Length over it gets 413
 * at creation, before any byte is sent.
 */
export const UPLOAD_MAX_BYTES_DEFAULT = 5 * 1024 * 1024 * 1024;

/** The largest image accepted in the thumbnail slot (an Upload-Length over it gets 413 at creation). */
export const THUMBNAIL_UPLOAD_MAX_BYTES = 30 * 1024 * 1024;

/**
 * An unfinished upload expires this long after it was created, however recently bytes arrived (tus
 * expiration: `Upload-Expires` is creation + this); then HEAD/PATCH get 410 and the sweep removes it.
 */
export const UPLOAD_EXPIRY_MS = 24 * 60 * 60 * 1000;

/** Longest original file name kept (characters); a longer `filename` is refused at creation with 400. */
export const FILE_NAME_MAX = 255;

/**
 * Upload-Metadata keys the server reads (values base64 as tus says; anything that is not valid
 * base64 gets 400). `filename` is required: the name the file is saved as on download (no control
 * characters, no `/` or `\`, at most FILE_NAME_MAX characters). `filetype` is the browser's MIME
 * type, a hint only (the server sniffs the bytes). `purpose` says which slot the upload is for:
 * `thumbnail` uploads are limited to THUMBNAIL_UPLOAD_MAX_BYTES at creation; default `download`.
 */
export const UPLOAD_METADATA = { filename: 'filename', filetype: 'filetype', purpose: 'purpose' } as const;
export const UPLOAD_PURPOSES = ['download', 'thumbnail'] as const;
export type UploadPurpose = (typeof UPLOAD_PURPOSES)[number];

/** An upload id: the last path segment of the tus upload URL (32 lowercase hex characters). */
export const UPLOAD_ID_PATTERN = /^[0-9a-f]{32}$/;
export const uploadIdSchema = z.string({ error: 'Upload id must be text' }).regex(UPLOAD_ID_PATTERN, { error: 'Invalid upload id' });

/** The upload id in a tus upload URL (absolute or a path), or null when it is not one. */
export function uploadIdFromUrl(url: string): string | null {
  const m = /\/api\/admin\/uploads\/([0-9a-f]{32})(?:[?#]|$)/.exec(url);
  return m ? m[1] : null;
}

/**
 * A hosted download as a visitor and an admin see it (the resource's `file`). The bytes are
 * reached only through POST /api/resources/:id/download, which hands out a signed link valid for
 * a few minutes; no stable URL serves a hosted file.
 */
export const hostedFileSchema = z.object({
  /** The original file name as uploaded (UTF-8), the name a browser saves it as. */
  name: z.string(),
  /** Bytes. */
  size: z.number().int(),
  /** Hex SHA-256 of the bytes, computed by the server on attach: shown for integrity checks. */
  sha256: z.string(),
  /** The Content-Type it is served with (sniffed from the bytes where known, else application/octet-stream). */
  content_type: z.string(),
});
export type HostedFile = z.infer<typeof hostedFileSchema>;

/**
 * A hosted (uploaded) thumbnail: re-encoded WebP (and AVIF where it pays) at a few widths, served
 * from content-hashed immutable URLs under /media/. For `<img src srcset sizes width height>`; a
 * `<picture>` may add `avif_srcset` as a `<source type="image/avif">`.
 */
export const hostedImageSchema = z.object({
  /** The largest WebP variant (also what `thumbnail_url` is for a hosted thumbnail). */
  src: z.string(),
  /** Every WebP variant: `"/media/<hash>.webp 400w, /media/<hash>.webp 800w, …"`. */
  srcset: z.string(),
  /** AVIF variants in srcset form, or '' when none paid off. */
  avif_srcset: z.string(),
  /** The image's own size in pixels (orientation applied), for aspect ratio (no layout shift). */
  width: z.number().int(),
  height: z.number().int(),
  /** Shown until the image arrives: dominant colour `#rrggbb` and a tiny blurred WebP data URI. */
  placeholder: z.object({ color: z.string(), data_uri: z.string() }),
});
export type HostedImage = z.infer<typeof hostedImageSchema>;

/** GET path of a signed download link handed out by POST /api/resources/:id/download for a hosted file (local store). */
export const FILES_PATH = '/api/files';
// Kept with the spec's constants: the public pages read it without this module (and zod).
export { DOWNLOAD_LINK_TTL_SECONDS } from './constants';

/**
 * Files the server derives from uploads (thumbnail variants, previews, fonts) are served here by
 * their content's name (`<hash>.<ext>`): a name never changes meaning, so they are kept a year.
 */
export const MEDIA_PATH = '/media/';
/** The URL a browser fetches a derived file from. */
export const mediaUrl = (fileName: string) => `${MEDIA_PATH}${fileName}`;
