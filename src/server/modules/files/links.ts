import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { DOWNLOAD_LINK_TTL_SECONDS, FILES_PATH } from '../../../contract/files';
import { downloadExpiredPath } from '../../../contract/pages';
import { ERROR_CODES } from '../../../contract/errors';
import type { Tables } from '../../db/schema';
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
  /** The file id of a valid token; a LinkRefused (403 in the error shape) for an expired or tampered one. */
  verify(token: string, nowMs?: number): number;
}

/** A link that is not (or no longer) valid; `fileId` only when the link is authentic and merely expired. */
export class LinkRefused extends HttpError {
  constructor(
    message: string,
    public fileId?: number,
  ) {
    super(403, ERROR_CODES.forbidden, message);
  }
}

/**
 * Another kind of signed link (an admin's preview of a draft): its own purpose, so its key is its
 * own and a token of one kind is never valid as the other.
 */
export interface LinkKind {
  purpose: string;
  ttlSeconds: number;
}

const DOWNLOAD_LINKS: LinkKind = { purpose: 'hosted-file-download-links', ttlSeconds: DOWNLOAD_LINK_TTL_SECONDS };

export function linkSigner(sessionSecret: string, kind: LinkKind = DOWNLOAD_LINKS): LinkSigner {
  const key = createHmac('sha256', sessionSecret).update(kind.purpose).digest();
  const mac = (payload: string) => createHmac('sha256', key).update(payload).digest().subarray(0, 16).toString('base64url');
  return {
    sign(fileId, nowMs = Date.now()) {
      const payload = `${fileId}.${Math.floor(nowMs / 1000) + kind.ttlSeconds}`;
      return `${payload}.${mac(payload)}`;
    },
    verify(token, nowMs = Date.now()) {
      const m = TOKEN.exec(token);
      const invalid = () => new LinkRefused('This download link is not valid');
      if (!m) throw invalid();
      const expected = Buffer.from(mac(`${m[1]}.${m[2]}`));
      const given = Buffer.from(m[3]);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid();
      if (Number(m[2]) * 1000 < nowMs) throw new LinkRefused('This download link has expired: download the file again from its page', Number(m[1]));
      return Number(m[1]);
    },
  };
}

/** The absolute URL of a token (the client opens it in a new tab, which takes http(s) URLs only). */
export function linkUrl(request: FastifyRequest, publicUrl: string | undefined, token: string): string {
  const origin = publicUrl ?? `${request.protocol}://${request.host}`;
  return `${origin}${FILES_PATH}/${token}`;
}

/**
 * Whether the Accept header ranks HTML above JSON: a browser opening the link does (`text/html`
 * first, `*\/*` below it); fetch, curl and download managers (`*\/*` alone) and API clients do not.
 */
export function prefersHtml(accept: string | undefined): boolean {
  let html = 0;
  let json = 0;
  for (const part of (accept ?? '').split(',')) {
    const [type, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) || 0 : 1;
    if (type === 'text/html') html = Math.max(html, q);
    else if (type === 'application/json' || type === 'application/*' || type === '*/*') json = Math.max(json, q);
  }
  return html > json;
}

/**
 * Where a browser is sent for a refused link: the site's page saying so, naming the resource an
 * expired link was for (a tampered link names nothing: its file id is not to be trusted).
 * Decision 370.
 */
export async function refusedLinkPage(db: Kysely<Tables>, refused: LinkRefused): Promise<string> {
  if (refused.fileId === undefined) return downloadExpiredPath();
  const row = await db.selectFrom('resources').select('id').where('download_file_id', '=', refused.fileId).executeTakeFirst();
  return downloadExpiredPath(row ? Number(row.id) : undefined);
}
