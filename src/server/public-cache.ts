import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from './context';
import type { Database } from './db/connection';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The GET answers every visitor the same way (no session, no per-user data): its serialized
     * body is kept in memory, keyed by URL, and served with a weak ETag until public data changes.
     */
    publicCache?: boolean;
  }
  interface FastifyRequest {
    /** Data version read when a cacheable request came in; undefined for other requests. */
    publicCacheVersion?: number;
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

/** Bounds memory: arbitrary search strings must not grow the map without limit. */
const MAX_ENTRIES = 1000;
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

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'GET' || !request.routeOptions.config?.publicCache) return;
    const version = await database.dataVersion();
    const entry = entries.get(request.url);
    if (!entry || entry.version !== version || Date.now() - entry.storedAt >= PUBLIC_CACHE_MAX_AGE_MS) {
      request.publicCacheVersion = version; // a miss: onSend stores the answer
      return;
    }
    reply.header('etag', entry.etag).header('cache-control', 'no-cache').header('vary', 'accept-encoding');
    if (matches(request.headers['if-none-match'], entry.etag)) return reply.code(304).send();
    reply.type('application/json; charset=utf-8');
    const encoding = entry.body.length >= COMPRESS_THRESHOLD ? pickEncoding(request.headers['accept-encoding']) : undefined;
    if (encoding === 'br') {
      entry.br ??= brotliCompressSync(entry.body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 6, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT } });
      return reply.header('content-encoding', 'br').send(entry.br);
    }
    if (encoding === 'gzip') {
      entry.gzip ??= gzipSync(entry.body, { level: 6 });
      return reply.header('content-encoding', 'gzip').send(entry.gzip);
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
    const version = request.publicCacheVersion;
    if (version === undefined || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
    const etag = `W/"${version.toString(36)}-${createHash('sha1').update(payload).digest('base64url').slice(0, 16)}"`;
    if (entries.size >= MAX_ENTRIES && !entries.has(request.url)) entries.delete(entries.keys().next().value!);
    entries.set(request.url, { version, storedAt: Date.now(), body: Buffer.from(payload), etag });
    reply.header('etag', etag).header('cache-control', 'no-cache').header('vary', 'accept-encoding');
    return payload;
  });
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
