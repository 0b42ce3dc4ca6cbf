import { createHash, type Hash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { statfs } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStore as TusFileStore } from '@tus/file-store';
import { S3Store } from '@tus/s3-store';
import { type DataStore, Metadata, Server as TusServer, type Upload } from '@tus/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CODES, type ErrorCode } from '../../../contract/errors';
import {
  FILE_NAME_MAX,
  THUMBNAIL_UPLOAD_MAX_BYTES,
  UPLOAD_CHUNK_BYTES,
  UPLOAD_EXPIRY_MS,
  UPLOAD_ID_PATTERN,
  UPLOAD_METADATA,
  UPLOAD_PURPOSES,
  UPLOADS_PATH,
  type UploadPurpose,
} from '../../../contract/files';
import type { App, AppContext } from '../../context';
import { badRequest, errorBody, notFound } from '../../errors';
import { HttpError } from '../../http-error';
import { streamBodies } from '../../request-limits';
import { LocalFileStore } from '../../storage/local';
import { S3_DEFAULT_PART_BYTES, tusS3StoreOptions } from '../../storage/s3';
import { StorageFullError } from '../../storage/file-store';
import { nowIso } from '../../time';
import { signedInAdmin } from '../auth/guard';
import { DbLocker } from './locker';

/**
 * Resumable uploads (tus 1.0: core, creation, creation-with-upload, termination, expiration) at
 * UPLOADS_PATH through @tus/server, on the file store's own home: the local store's folder
 * (@tus/file-store writes `uploads/<id>` and `uploads/<id>.json` under it) or the bucket
 * (@tus/s3-store: a multipart upload straight into `uploads/<id>`; never the whole file on local
 * disk, but each part — S3_DEFAULT_PART_BYTES — is staged in os.tmpdir() while it is sent, and
 * deleted after). Only declared lengths: creation-defer-length is neither advertised nor accepted. Every
 * request passes the admin guard and the Origin check in Fastify first; what tus would answer in
 * plain text for bad headers is checked here and answered in the error shape. An `uploads` row
 * exists from creation until the upload is attached or swept: tus never sees an id without one.
 */

export const UPLOAD_KEY_PREFIX = 'uploads/';
/** Where a finished upload's bytes are in the file store. */
export const uploadKey = (id: string) => `${UPLOAD_KEY_PREFIX}${id}`;
/** The objects a tus store keeps beside an upload's bytes (local `.json`; S3 `.info`, `.part`). */
export const uploadCompanionKeys = (id: string) => ['json', 'info', 'part'].map((ext) => `${UPLOAD_KEY_PREFIX}${id}.${ext}`);
/**
 * The names of the thumbnail variants a save wrote under media/ for this upload (JSON), written
 * before them: a save that then fails leaves variants no row names, and this is how the sweep
 * tells them from previews and other derived files that share media/. Kept until the sweep.
 */
export const uploadVariantsKey = (id: string) => `${UPLOAD_KEY_PREFIX}${id}.variants`;
/** Kept free on the local disk beyond an upload's length: the database and logs need room too. */
export const DISK_RESERVE_BYTES = 64 * 1024 * 1024;
const TUS_CONTENT_TYPE = 'application/offset+octet-stream';

export interface Uploads {
  tus: TusServer;
  datastore: DataStore;
  /** The tus store's id of an upload id (S3: under the uploads/ prefix). */
  tusId(id: string): string;
  /** Removes an upload from the tus store (bytes, multipart upload, companions); a missing one is fine. */
  remove(id: string): Promise<void>;
  /** The id Fastify chose for a creation request (its uploads row is written before tus runs). */
  creating: WeakMap<IncomingMessage, string>;
}

export function createUploads(ctx: AppContext): Uploads {
  const { files, config, database } = ctx;
  const s3 = config.storage.kind === 's3' ? config.storage.s3 : undefined;
  let datastore: DataStore;
  let tusId: (id: string) => string;
  if (files instanceof LocalFileStore) {
    datastore = new TusFileStore({ directory: path.join(files.root, 'uploads'), expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS });
    tusId = (id) => id;
  } else if (s3) {
    datastore = new S3Store(tusS3StoreOptions(s3, { partBytes: S3_DEFAULT_PART_BYTES, expirationMs: UPLOAD_EXPIRY_MS }));
    tusId = uploadKey;
  } else {
    throw new Error('Uploads need the local or the S3 file store');
  }
  // Every length is declared at creation (checkCreation refuses Upload-Defer-Length), so the
  // deferred-length extension the stores offer is neither advertised nor accepted.
  datastore.extensions = datastore.extensions.filter((e) => e !== 'creation-defer-length');
  const hashing = hashWhileWriting(datastore);
  const idOf = (tid: string) => (tid.startsWith(UPLOAD_KEY_PREFIX) ? tid.slice(UPLOAD_KEY_PREFIX.length) : tid);
  const creating = new WeakMap<IncomingMessage, string>();
  const rawOf = (req: unknown) => (req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;

  const tus = new TusServer({
    path: UPLOADS_PATH,
    datastore,
    locker: new DbLocker(database),
    maxSize: config.uploadMaxBytes,
    relativeLocation: true,
    disableTerminationForFinishedUploads: false,
    namingFunction: (req) => {
      const raw = rawOf(req);
      const id = raw && creating.get(raw);
      if (!id) throw { status_code: 400, body: 'Uploads are created through the admin API only' };
      return tusId(id);
    },
    generateUrl: (_req, { path: base, id }) => `${base}/${idOf(id)}`,
    getFileIdFromRequest: (_req, lastPath) => (lastPath && UPLOAD_ID_PATTERN.test(lastPath) ? tusId(lastPath) : undefined),
    onUploadFinish: async (_req, upload: Upload) => {
      const id = idOf(upload.id);
      const sha256 = hashing.finished(upload.id, upload.size ?? 0);
      if (sha256) await recordFinished(ctx, id, sha256);
      else await verifyFinished(ctx, id, upload.size ?? 0);
      return {};
    },
    onResponseError: (req, err) => {
      const status = 'status_code' in err ? err.status_code : errnoStatus(err);
      const message = ('body' in err ? err.body : 'The upload failed').trim() || 'The upload failed';
      if (status >= 500) rawOf(req)?.emit('tus-error', err);
      return { status_code: status, body: JSON.stringify(errorBody(codeOf(status), status === 507 ? 'The server has no room for this file' : message)) };
    },
  });

  return {
    tus,
    datastore,
    tusId,
    creating,
    async remove(id) {
      hashing.forget(tusId(id));
      try {
        await datastore.remove(tusId(id));
      } catch {
        /* already gone */
      }
      await Promise.all([uploadKey(id), ...uploadCompanionKeys(id)].map((k) => files.delete(k).catch(() => undefined)));
    },
  };
}

function errnoStatus(err: Error): number {
  return (err as NodeJS.ErrnoException).code === 'ENOSPC' ? 507 : 500;
}

/**
 * Once every byte has arrived: the SHA-256 of the bytes as stored, read back as a stream, kept
 * on the uploads row with finished_at. Run by the final PATCH (the client waits for it) and, when
 * a crash came between the last byte and this, by attaching.
 */
export async function verifyFinished(ctx: AppContext, id: string, expectedSize: number): Promise<{ sha256: string; size: number }> {
  const { body } = await ctx.files.get(uploadKey(id));
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of body) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  if (size !== expectedSize) throw badRequest(`The upload holds ${size} of ${expectedSize} bytes`);
  const sha256 = hash.digest('hex');
  await recordFinished(ctx, id, sha256);
  return { sha256, size };
}

async function recordFinished(ctx: AppContext, id: string, sha256: string) {
  await ctx.database.db.updateTable('uploads').set({ sha256, finished_at: nowIso() }).where('id', '=', id).execute();
}

/**
 * SHA-256 computed as the bytes are written, while one process receives an upload from its first
 * byte on in order: the store's `write` gets a tee into the hash, and the state moves on only by
 * the bytes the store reports written. Anything else — a chunk that failed, a write that took
 * fewer bytes than it was given, an upload continued on another instance or after a restart —
 * drops the state, and the last PATCH reads the stored file back instead (verifyFinished), so the
 * recorded hash is always of exactly the stored bytes. Saves reading a multi-GB file a second time.
 */
function hashWhileWriting(datastore: DataStore) {
  const states = new Map<string, { hash: Hash; offset: number; at: number }>();
  const write = datastore.write.bind(datastore);
  datastore.write = async (readable, tid, offset) => {
    const now = Date.now();
    for (const [k, v] of states) if (now - v.at > UPLOAD_EXPIRY_MS) states.delete(k);
    if (offset === 0) states.set(tid, { hash: createHash('sha256'), offset: 0, at: now });
    const state = states.get(tid);
    if (!state || state.offset !== offset) {
      states.delete(tid);
      return write(readable, tid, offset);
    }
    let seen = 0;
    const tee = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        state.hash.update(chunk);
        seen += chunk.length;
        done(null, chunk);
      },
    });
    pipeline(readable, tee).catch(() => undefined);
    try {
      const written = await write(tee, tid, offset);
      if (written === offset + seen) Object.assign(state, { offset: written, at: Date.now() });
      else states.delete(tid);
      return written;
    } catch (err) {
      states.delete(tid);
      throw err;
    }
  };
  return {
    /** The hash of an upload received whole by this process, or undefined. */
    finished(tid: string, size: number): string | undefined {
      const state = states.get(tid);
      states.delete(tid);
      return state && state.offset === size ? state.hash.digest('hex') : undefined;
    },
    forget: (tid: string) => states.delete(tid),
  };
}

function codeOf(status: number): ErrorCode {
  if (status === 404 || status === 410) return ERROR_CODES.notFound;
  if (status === 409) return ERROR_CODES.conflict;
  if (status === 413) return ERROR_CODES.payloadTooLarge;
  if (status === 415) return ERROR_CODES.unsupportedMediaType;
  if (status === 507) return ERROR_CODES.storageFull;
  if (status >= 500) return ERROR_CODES.internal;
  return ERROR_CODES.validation;
}

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

interface Creation {
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

/** 507 before any byte is sent when the local disk cannot hold `bytes` (and a reserve). */
async function checkRoom(ctx: AppContext, bytes: number) {
  if (!(ctx.files instanceof LocalFileStore)) return; // a bucket has no fill level to ask
  let free: number;
  try {
    const s = await statfs(ctx.files.root);
    free = Number(s.bavail) * Number(s.bsize);
  } catch {
    return; // the folder does not exist yet: the store makes it; a full disk still fails the write
  }
  if (free < bytes + DISK_RESERVE_BYTES) throw new StorageFullError();
}

const chunkTooLarge = () => new HttpError(413, ERROR_CODES.payloadTooLarge, `One request may carry at most ${UPLOAD_CHUNK_BYTES} bytes (send the file in chunks)`);

function checkChunk(request: FastifyRequest) {
  const length = header(request, 'content-length');
  if (length !== undefined && Number(length) > UPLOAD_CHUNK_BYTES) throw chunkTooLarge();
}

function checkTusHeaders(request: FastifyRequest) {
  if (header(request, 'tus-resumable') !== '1.0.0') throw new HttpError(412, ERROR_CODES.validation, 'Tus-Resumable: 1.0.0 is required');
  if (request.method === 'PATCH') {
    const type = header(request, 'content-type');
    if (type !== TUS_CONTENT_TYPE) throw new HttpError(415, ERROR_CODES.unsupportedMediaType, `Content-Type must be ${TUS_CONTENT_TYPE}`);
    const offset = header(request, 'upload-offset');
    if (offset === undefined || !/^\d{1,16}$/.test(offset)) throw badRequest('Upload-Offset must be a number of bytes');
  }
}

/**
 * Hands the request to tus as a web Request (its body a stream of the socket, never buffered) and
 * answers with tus's response through Fastify, so the reply gets the security headers, no-store,
 * the request timeouts' bookkeeping and the error shape like any other route.
 */
async function handOver(uploads: Uploads, request: FastifyRequest, reply: FastifyReply, beforeReply?: (status: number) => Promise<void>): Promise<number> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const hasBody = request.method === 'POST' || request.method === 'PATCH';
  let body: ReadableStream<Uint8Array> | undefined;
  let overflowed = false;
  if (hasBody) {
    // Socket reads of 64 KiB cost a promise each through the web stream and back (tus turns it into
    // a Node stream again): gathered into 1 MiB pieces that costs a sixteenth. A failed request
    // fails the stream, so tus keeps what it wrote and the client resumes from there.
    // A chunked body declares no length: the bytes are counted here, and past UPLOAD_CHUNK_BYTES
    // tus gets the end of its stream (it keeps exactly the bytes allowed) and the client a 413.
    const gathered = gather(GATHER_BYTES, UPLOAD_CHUNK_BYTES, () => (overflowed = true));
    pipeline(request.raw, gathered).catch(() => undefined);
    body = Readable.toWeb(gathered) as ReadableStream<Uint8Array>;
  }
  const web = new Request(`http://upload.invalid${request.url}`, {
    method: request.method,
    headers,
    body,
    duplex: 'half',
  } as RequestInit);
  // tus ends its work when the Node request fails (a client gone), and our hooks find the request by it.
  Object.defineProperty(web, 'runtime', { value: { node: { req: request.raw, res: reply.raw } } });
  request.raw.once('tus-error', (err: unknown) => request.log.error({ err }, 'upload request failed'));
  // Answered before tus was done (a 408: the body stopped arriving): Node does not end a request
  // whose answer has gone out, so its body would wait for ever and tus with it, holding the upload's
  // lock. Ending it here lets tus keep what arrived and let go; the client resumes from there.
  let handled = false;
  reply.raw.once('close', () => {
    if (!handled && !request.raw.complete) request.raw.destroy(new Error('The request was answered before its body ended'));
  });
  const res = await uploads.tus.handleWeb(web);
  handled = true;
  // Answered meanwhile: the request timed out (408) while tus kept what had arrived.
  if (reply.sent || reply.raw.headersSent) {
    await res.body?.cancel();
    return res.status;
  }
  if (overflowed && res.ok) {
    await res.body?.cancel();
    reply.header('connection', 'close');
    throw chunkTooLarge();
  }
  await beforeReply?.(res.status);
  reply.code(res.status);
  // Same-origin only: tus's CORS headers (it allows any origin by default) are not passed on.
  res.headers.forEach((value, name) => {
    if (name !== 'content-length' && !name.startsWith('access-control-')) reply.header(name, value);
  });
  const text = await res.text();
  if (text) reply.type('application/json; charset=utf-8');
  await reply.send(text || undefined);
  return res.status;
}

const GATHER_BYTES = 1024 * 1024;

/**
 * Passes the bytes on in pieces of at least `size` (the last one smaller). Past `limit` bytes in
 * all it passes on exactly `limit`, ends its output, drops the rest and calls `onOverflow` once.
 */
function gather(size: number, limit: number, onOverflow: () => void): Transform {
  let parts: Buffer[] = [];
  let bytes = 0;
  let total = 0;
  let over = false;
  const take = () => {
    const piece = Buffer.concat(parts, bytes);
    parts = [];
    bytes = 0;
    return piece;
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (over) return done();
      if (total + chunk.length > limit) {
        over = true;
        const allowed = chunk.subarray(0, limit - total);
        total = limit;
        if (allowed.length > 0) {
          parts.push(allowed);
          bytes += allowed.length;
        }
        if (bytes > 0) this.push(take());
        this.push(null);
        onOverflow();
        return done();
      }
      total += chunk.length;
      parts.push(chunk);
      bytes += chunk.length;
      done(null, bytes < size ? undefined : take());
    },
    flush(done) {
      done(null, !over && bytes > 0 ? take() : undefined);
    },
  });
}

export function registerUploadRoutes(app: App, ctx: AppContext, uploads: Uploads) {
  const { database, config } = ctx;
  const config_ = { access: 'admin' as const, requestTimeoutMs: config.timeouts.uploadRequestMs };
  const rowOf = async (id: string) => (UPLOAD_ID_PATTERN.test(id) ? database.db.selectFrom('uploads').select(['id']).where('id', '=', id).executeTakeFirst() : undefined);

  return app.register(async (scope) => {
    // Bodies go to tus as streams, never buffered by Fastify.
    streamBodies(scope as App, [TUS_CONTENT_TYPE]);
    scope.route({
      method: ['POST', 'OPTIONS'],
      url: UPLOADS_PATH,
      config: config_,
      schema: { hide: true },
      handler: async (request, reply) => {
        if (request.method === 'POST') {
          checkTusHeaders(request);
          const c = checkCreation(request, config.uploadMaxBytes);
          checkChunk(request);
          await checkRoom(ctx, c.size);
          await database.db
            .insertInto('uploads')
            .values({ id: c.id, purpose: c.purpose, name: c.name, type_hint: c.typeHint, size: c.size, sha256: null, admin_id: signedInAdmin(request).id, created_at: nowIso(), finished_at: null })
            .execute();
          uploads.creating.set(request.raw, c.id);
        }
        await handOver(uploads, request, reply);
      },
    });
    scope.route({
      method: ['HEAD', 'PATCH', 'DELETE'],
      url: `${UPLOADS_PATH}/:id`,
      config: config_,
      schema: { hide: true },
      handler: async (request, reply) => {
        const { id } = request.params as { id: string };
        checkTusHeaders(request);
        if (!(await rowOf(id))) throw notFound('No such upload (finished and attached, cancelled or expired)');
        if (request.method === 'PATCH') checkChunk(request);
        // A cancelled upload's row goes before the client hears 204 (its bytes are gone by then).
        await handOver(uploads, request, reply, async (status) => {
          if (request.method === 'DELETE' && status === 204) await database.db.deleteFrom('uploads').where('id', '=', id).execute();
        });
      },
    });
  });
}
