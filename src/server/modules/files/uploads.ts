import { createHash, type Hash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type DataStore, Server as TusServer, type Upload } from '@tus/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CODES, type ErrorCode } from '../../../contract/errors';
import { UPLOAD_CHUNK_BYTES, UPLOAD_EXPIRY_MS, UPLOAD_ID_PATTERN, UPLOADS_PATH } from '../../../contract/files';
import type { AppContext } from '../../context';
import { unavailableReason } from '../../db/unavailable';
import { badRequest, errorBody } from '../../errors';
import { UPLOAD_KEY_PREFIX, uploadCompanionKeys, uploadKey } from '../../storage/keys';
import { nowIso } from '../../time';
import { DbLocker } from './locker';
import { chunkTooLarge } from './upload-headers';

/**
 * The tus bridge: resumable uploads (tus 1.0: core, creation, creation-with-upload, termination,
 * expiration) at UPLOADS_PATH through @tus/server, on the datastore the file store provides
 * (`FileStore.uploadStore`: the local folder or the bucket). Only declared lengths:
 * creation-defer-length is neither advertised nor accepted. The routes (upload-routes.ts) pass
 * every request through the admin guard, the Origin check and the header checks
 * (upload-headers.ts) first, then hand it over here. An `uploads` row exists from creation until
 * the upload is attached or swept: tus never sees an id without one.
 */


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
  const { datastore, tusId } = files.uploadStore({ expirationMs: UPLOAD_EXPIRY_MS });
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
      ctx.metrics?.uploadCompleted(upload.size ?? 0);
      return {};
    },
    onResponseError: (req, err) => {
      // The database could not take the lock's write (a full disk): handOver throws it to the error
      // handler, which answers 503 with Retry-After like any other write (errors.ts).
      if (unavailableReason(err)) {
        rawOf(req)?.emit('tus-unavailable', err);
        return { status_code: 503, body: '' };
      }
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
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOSPC' || code === 'EDQUOT' ? 507 : 500;
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

/**
 * Hands the request to tus as a web Request (its body a stream of the socket, never buffered) and
 * answers with tus's response through Fastify, so the reply gets the security headers, no-store,
 * the request timeouts' bookkeeping and the error shape like any other route.
 */
export async function handOver(uploads: Uploads, request: FastifyRequest, reply: FastifyReply, beforeReply?: (status: number) => Promise<void>): Promise<number> {
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
  let unavailable: unknown;
  request.raw.once('tus-unavailable', (err: unknown) => (unavailable = err));
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
  if (unavailable) {
    await res.body?.cancel();
    throw unavailable;
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

