import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from './context';
import type { Database } from './db/connection';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The GET answers every visitor the same way (no session, no per-user data): its serialized
     * body is kept in memory, keyed by its validated parameters, and served with a weak ETag until
     * public data changes.
     */
    publicCache?: boolean;
  }
  interface FastifyRequest {
    /** Data version read when a cacheable request came in; undefined for other requests. */
    publicCacheVersion?: number;
    /** The cache key of a cacheable request (see keyOf). */
    publicCacheKey?: string;
  }
}

interface Entry {
  version: number;
  storedAt: number;
  /** UTF-8 once, so a hit is written as it is (a string with any non-Latin-1 character is re-encoded on every write). */
  body: Buffer;
  etag: string;
  br?: Buffer;
  gzip?: Buffer;
}

/**
 * Bounds memory in bytes (bodies, their compressed forms, keys), not entries: a page of 100 long
 * descriptions weighs as much as a thousand small answers, and anyone can ask for either.
 */
export const PUBLIC_CACHE_MAX_BYTES = 16 * 1024 * 1024;
/** What an entry costs beyond its bytes (the Map slot, the object, the ETag string), so tiny entries count too. */
const ENTRY_OVERHEAD_BYTES = 256;
/**
 * Downloads raise download_count without bumping the data version (migration 004), so an entry's
 * counts may lag: they are at most this old. Everything an admin writes shows at once.
 */
export const PUBLIC_CACHE_MAX_AGE_MS = 5000;
/** Same threshold as @fastify/compress: tiny bodies are not worth an encoding. */
const COMPRESS_THRESHOLD = 1024;

/**
 * Public GET responses from memory, kept correct by the `data_version` counter (migration 002):
 * triggers bump it in the same transaction as any write to resources, tags, announcements or
 * settings, whichever instance, script or test made it — except a download's count, which is
 * allowed to lag by PUBLIC_CACHE_MAX_AGE_MS (migration 004). Each cacheable request reads the
 * counter (one indexed row on SQLite; from memory on PostgreSQL, kept by notifications, see
 * connection.ts) and uses an entry only if it was stored under the same version and is young enough.
 * Another instance's write is seen here when its notification arrives (ms); this instance's own
 * admin writes at once (the onSend hook below). The version is read before the data,
 * so an entry can only be older-labelled than its content, which costs a miss, never a stale answer.
 */
export function installPublicCache(app: App, database: Database): void {
  const entries = new Map<string, Entry>();
  let bytes = 0;
  const sizeOf = (key: string, e: Entry) => ENTRY_OVERHEAD_BYTES + key.length + e.body.length + (e.br?.length ?? 0) + (e.gzip?.length ?? 0);
  const remove = (key: string) => {
    const e = entries.get(key);
    if (!e) return;
    bytes -= sizeOf(key, e);
    entries.delete(key);
  };
  /** Oldest first, until the cache fits again (an answer larger than the whole bound is not kept). */
  const evict = () => {
    while (bytes > PUBLIC_CACHE_MAX_BYTES && entries.size > 0) remove(entries.keys().next().value!);
  };
  const encoded = (key: string, entry: Entry, encoding: 'br' | 'gzip', make: () => Buffer): Buffer => {
    let body = entry[encoding];
    if (body) return body;
    body = entry[encoding] = make();
    if (entries.get(key) === entry) {
      bytes += body.length;
      evict();
    }
    return body;
  };

  // After validation, so the key is made of the parameters the route takes, as it reads them.
  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'GET' || !request.routeOptions.config?.publicCache) return;
    const version = await database.dataVersion();
    const key = keyOf(request);
    const entry = entries.get(key);
    if (!entry || entry.version !== version || Date.now() - entry.storedAt >= PUBLIC_CACHE_MAX_AGE_MS) {
      request.publicCacheVersion = version; // a miss: onSend stores the answer
      request.publicCacheKey = key;
      return;
    }
    reply.header('etag', entry.etag).header('cache-control', 'no-cache').header('vary', 'accept-encoding');
    if (matches(request.headers['if-none-match'], entry.etag)) return reply.code(304).send();
    reply.type('application/json; charset=utf-8');
    const encoding = entry.body.length >= COMPRESS_THRESHOLD ? pickEncoding(request.headers['accept-encoding']) : undefined;
    if (encoding === 'br') {
      const br = encoded(key, entry, 'br', () =>
        brotliCompressSync(entry.body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 6, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT } }),
      );
      return reply.header('content-encoding', 'br').send(br);
    }
    if (encoding === 'gzip') {
      return reply.header('content-encoding', 'gzip').send(encoded(key, entry, 'gzip', () => gzipSync(entry.body, { level: 6 })));
    }
    return reply.send(entry.body);
  });

  // App-level onSend runs before @fastify/compress's route-level one: the payload is still the JSON text.
  app.addHook('onSend', async (request, reply, payload) => {
    // An admin's write is seen by this instance's next read at once, before its answer goes out
    // (on PostgreSQL the version is otherwise learned from a notification a moment later).
    if (request.method !== 'GET' && request.method !== 'HEAD' && request.routeOptions.config?.access) {
      await database.dataVersion({ fresh: true });
      return payload;
    }
    const { publicCacheVersion: version, publicCacheKey: key } = request;
    if (version === undefined || key === undefined || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
    const etag = `W/"${version.toString(36)}-${createHash('sha1').update(payload).digest('base64url').slice(0, 16)}"`;
    const entry: Entry = { version, storedAt: Date.now(), body: Buffer.from(payload), etag };
    remove(key);
    entries.set(key, entry);
    bytes += sizeOf(key, entry);
    evict();
    reply.header('etag', etag).header('cache-control', 'no-cache').header('vary', 'accept-encoding');
    return payload;
  });
}

/**
 * An entry's key: the route and the values its schemas validated, not the URL's text. Parameters
 * the route does not take, their order, and other spellings of one value (`limit=024`) name the
 * same entry, so a client cannot make new entries without asking for a different answer
 * (decision 341). A route without a query schema reads no query, so none is in its key.
 */
function keyOf(request: FastifyRequest): string {
  const schema = request.routeOptions.schema;
  return JSON.stringify([request.routeOptions.url, schema?.params ? request.params : null, schema?.querystring ? request.query : null]);
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((t) => t.trim() === etag || t.trim() === '*');
}

function pickEncoding(accept: string | undefined): 'br' | 'gzip' | undefined {
  if (!accept) return undefined;
  // q=0 means "not acceptable"; anything else counts as offered.
  const offered = new Set(
    accept
      .split(',')
      .map((p) => p.trim().split(';'))
      .filter(([, q]) => !q || !/^\s*q\s*=\s*0(\.0*)?\s*$/.test(q))
      .map(([name]) => name.trim().toLowerCase()),
  );
  if (offered.has('br')) return 'br';
  if (offered.has('gzip') || offered.has('*')) return 'gzip';
  return undefined;
}
