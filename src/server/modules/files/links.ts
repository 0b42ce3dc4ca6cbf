import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { DOWNLOAD_LINK_TTL_SECONDS, FILES_PATH } from '../../../contract/files';
import { ERROR_CODES } from '../../../contract/errors';
import { HttpError } from '../../http-error';

/**
 * Signed download links for hosted files: `/api/files/<file id>.<expiry, unix seconds>.<HMAC>`.
 * The HMAC (SHA-256, 128 bits kept, base64url) is keyed with a key derived from the session
 * secret for this purpose only, so a link can be neither guessed, extended nor moved to another
 * file. A link is checked on every request (a download manager's ranged requests too) and lives
 * DOWNLOAD_LINK_TTL_SECONDS; a download that began keeps going.
 */
const TOKEN = /^(\d{1,10})\.(\d{1,12})\.([A-Za-z0-9_-]{22})$/;

export interface LinkSigner {
  sign(fileId: number, nowMs?: number): string;
  /** The file id of a valid token; 403 in the error shape for an expired or tampered one. */
  verify(token: string, nowMs?: number): number;
}

export function linkSigner(sessionSecret: string): LinkSigner {
  const key = createHmac('sha256', sessionSecret).update('hosted-file-download-links').digest();
  const mac = (payload: string) => createHmac('sha256', key).update(payload).digest().subarray(0, 16).toString('base64url');
  return {
    sign(fileId, nowMs = Date.now()) {
      const payload = `${fileId}.${Math.floor(nowMs / 1000) + DOWNLOAD_LINK_TTL_SECONDS}`;
      return `${payload}.${mac(payload)}`;
    },
    verify(token, nowMs = Date.now()) {
      const m = TOKEN.exec(token);
      const invalid = () => new HttpError(403, ERROR_CODES.forbidden, 'This download link is not valid');
      if (!m) throw invalid();
      const expected = Buffer.from(mac(`${m[1]}.${m[2]}`));
      const given = Buffer.from(m[3]);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid();
      if (Number(m[2]) * 1000 < nowMs) throw new HttpError(403, ERROR_CODES.forbidden, 'This download link has expired: download the file again from its page');
      return Number(m[1]);
    },
  };
}

/** The absolute URL of a token (the client opens it in a new tab, which takes http(s) URLs only). */
export function linkUrl(request: FastifyRequest, publicUrl: string | undefined, token: string): string {
  const origin = publicUrl ?? `${request.protocol}://${request.host}`;
  return `${origin}${FILES_PATH}/${token}`;
}
