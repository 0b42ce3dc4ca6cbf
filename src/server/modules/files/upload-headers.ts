import { randomBytes } from 'node:crypto';
import { Metadata } from '@tus/server';
import type { FastifyRequest } from 'fastify';
import { ERROR_CODES } from '../../../contract/errors';
import { FILE_NAME_MAX, THUMBNAIL_UPLOAD_MAX_BYTES, UPLOAD_CHUNK_BYTES, UPLOAD_METADATA, UPLOAD_PURPOSES, type UploadPurpose } from '../../../contract/files';
import { badRequest } from '../../errors';
import { HttpError } from '../../http-error';

/**
 * What tus would answer in plain text for bad headers, checked before tus runs and answered in the
 * error shape; and our rules for names, purposes and sizes.
 */

export const TUS_CONTENT_TYPE = 'application/offset+octet-stream';

// eslint-disable-next-line no-control-regex
const NAME_CONTROL = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/;
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** Why `name` cannot be a file's name, or null. Refused rather than cleaned: the admin sees what is wrong. */
export function fileNameProblem(name: string): string | null {
  if (name.trim() === '') return 'The file name is empty';
  if ([...name].length > FILE_NAME_MAX) return `The file name must be at most ${FILE_NAME_MAX} characters`;
  if (NAME_CONTROL.test(name)) return 'The file name contains control characters';
  if (LONE_SURROGATE.test(name) || name.includes('\uFFFD')) return 'The file name is not valid UTF-8';
  if (/[/\\]/.test(name)) return 'The file name cannot contain / or \\';
  if (name === '.' || name === '..') return 'The file name cannot be . or ..';
  return null;
}

export interface Creation {
  id: string;
  purpose: UploadPurpose;
  name: string;
  typeHint: string | null;
  size: number;
}

const header = (request: FastifyRequest, name: string) => {
  const v = request.headers[name];
  return Array.isArray(v) ? v.join(',') : v;
};

/** Checks a creation request's headers as tus would, and our rules for names, purposes and sizes. */
export function checkCreation(request: FastifyRequest, maxBytes: number): Creation {
  if (header(request, 'upload-defer-length') !== undefined || header(request, 'upload-concat') !== undefined) {
    throw badRequest('Upload-Length is required (deferred lengths and concatenation are not supported)');
  }
  const lengthText = header(request, 'upload-length');
  if (lengthText === undefined || !/^\d{1,16}$/.test(lengthText)) throw badRequest('Upload-Length must be the file size in bytes');
  const size = Number(lengthText);
  if (size === 0) throw badRequest('The file is empty', { file: 'The file is empty' });
  const rawMeta = header(request, 'upload-metadata');
  if (!rawMeta) throw badRequest('Upload-Metadata with the file name is required');
  let meta: Record<string, string | null>;
  try {
    meta = Metadata.parse(rawMeta) as Record<string, string | null>;
  } catch {
    throw badRequest('Upload-Metadata must be comma-separated pairs of a key and a base64 value');
  }
  const purpose = (meta[UPLOAD_METADATA.purpose] ?? 'download') as UploadPurpose;
  if (!UPLOAD_PURPOSES.includes(purpose)) throw badRequest(`purpose must be one of ${UPLOAD_PURPOSES.join(', ')}`);
  const name = meta[UPLOAD_METADATA.filename];
  if (!name) throw badRequest('Upload-Metadata must hold the file name (filename)', { filename: 'The file name is required' });
  const problem = fileNameProblem(name);
  if (problem) throw badRequest(problem, { filename: problem });
  const hint = meta[UPLOAD_METADATA.filetype];
  const typeHint = hint && hint.length <= 255 && /^[\w.+-]+\/[\w.+-]+$/.test(hint) ? hint : null;
  const limit = purpose === 'thumbnail' ? Math.min(THUMBNAIL_UPLOAD_MAX_BYTES, maxBytes) : maxBytes;
  if (size > limit) throw new HttpError(413, ERROR_CODES.payloadTooLarge, `The file is larger than the limit of ${limit} bytes`);
  return { id: randomBytes(16).toString('hex'), purpose, name, typeHint, size };
}

export const chunkTooLarge = () => new HttpError(413, ERROR_CODES.payloadTooLarge, `One request may carry at most ${UPLOAD_CHUNK_BYTES} bytes (send the file in chunks)`);

export function checkChunk(request: FastifyRequest) {
  const length = header(request, 'content-length');
  if (length !== undefined && Number(length) > UPLOAD_CHUNK_BYTES) throw chunkTooLarge();
}

export function checkTusHeaders(request: FastifyRequest) {
  if (header(request, 'tus-resumable') !== '1.0.0') throw new HttpError(412, ERROR_CODES.validation, 'Tus-Resumable: 1.0.0 is required');
  if (request.method === 'PATCH') {
    const type = header(request, 'content-type');
    if (type !== TUS_CONTENT_TYPE) throw new HttpError(415, ERROR_CODES.unsupportedMediaType, `Content-Type must be ${TUS_CONTENT_TYPE}`);
    const offset = header(request, 'upload-offset');
    if (offset === undefined || !/^\d{1,16}$/.test(offset)) throw badRequest('Upload-Offset must be a number of bytes');
  }
}

