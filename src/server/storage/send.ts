import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ByteRange, FileNotFoundError, type FileStore, RangeNotSatisfiableError } from './file-store';

/**
 * `attachment` with the original name: an ASCII fallback for old clients and the exact name as
 * RFC 6266/8187 `filename*`. Control characters are dropped, never passed into a header.
 */
export function attachmentDisposition(fileName: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = fileName.replace(/[\u0000-\u001f\u007f]/g, '').trim() || 'download';
  const fallback =
    clean
      .normalize('NFKD')
      .replace(/[^\x20-\x7e]/g, '')
      .replace(/["\\%]/g, '_')
      .trim() || 'download';
  const encoded = encodeURIComponent(clean).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

export interface SendOptions {
  contentType: string;
  cacheControl: string;
  /** Served as an attachment under this name (never rendered on the site's origin); inline when absent. */
  attachmentName?: string;
}

/**
 * The byte range a `Range` header asks of a file of `size` bytes: undefined for the whole file (no
 * header, one we do not serve such as several ranges, or a unit other than bytes — HTTP lets a
 * server answer those with the whole file), 'unsatisfiable' for a range wholly past the end.
 */
export function parseRange(header: string | undefined, size: number): Required<ByteRange> | 'unsatisfiable' | undefined {
  if (header === undefined) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') {
    // The last N bytes.
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    return size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== '' && Number(m[2]) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

/**
 * Answers with a stored file: validators (ETag, Last-Modified, 304 on If-None-Match), byte ranges
 * (206, 416, If-Range), `nosniff` always, and the caller's caching and disposition. Streams; never
 * holds the file in memory. A missing file is a 404 in the error shape. The route must be registered
 * with `compress: false`: a compressed whole file would not match its ETag or Content-Length.
 */
export async function sendStoredFile(request: FastifyRequest, reply: FastifyReply, files: FileStore, key: string, options: SendOptions) {
  const stat = await files.stat(key);
  if (!stat) throw new FileNotFoundError(key);
  reply
    .header('content-type', options.contentType)
    .header('cache-control', options.cacheControl)
    .header('etag', stat.etag)
    .header('last-modified', stat.modifiedAt.toUTCString())
    .header('accept-ranges', 'bytes')
    .header('x-content-type-options', 'nosniff');
  if (options.attachmentName !== undefined) reply.header('content-disposition', attachmentDisposition(options.attachmentName));
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined && ifNoneMatch.split(',').some((t) => t.trim() === stat.etag || t.trim() === '*')) {
    return sendNoBody(request, reply.status(304));
  }
  // If-Range: the range holds only for the version the client already has part of.
  const ifRange = request.headers['if-range'];
  const rangeHeader = ifRange === undefined || ifRange === stat.etag ? request.headers.range : undefined;
  const range = parseRange(rangeHeader, stat.size);
  if (range === 'unsatisfiable') throw new RangeNotSatisfiableError(key, stat.size);
  if (request.method === 'HEAD') {
    // What GET would send, from the stat alone: a download manager's probe opens no file (on S3, no GET of the object).
    reply.header('content-length', String(range ? range.end - range.start + 1 : stat.size));
    if (range) reply.status(206).header('content-range', `bytes ${range.start}-${range.end}/${stat.size}`);
    return sendNoBody(request, reply);
  }
  const got = await files.get(key, range ? { range } : {});
  reply.header('content-length', String(got.contentLength));
  if (range && got.range) {
    reply.status(206).header('content-range', `bytes ${got.range.start}-${got.range.end}/${got.size}`);
  }
  return reply.send(got.body);
}

/**
 * Ends an answer that has no body, keeping its headers. Fastify's automatic HEAD route sets
 * `Content-Length: 0` when the payload is absent (and its own length for a string); an empty
 * stream is the one payload it leaves the headers alone for, so HEAD says what GET sends.
 */
function sendNoBody(request: FastifyRequest, reply: FastifyReply) {
  return request.method === 'HEAD' ? reply.send(Readable.from([])) : reply.send();
}
