import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../../contract/errors';
import { BROWSER, createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';
import { encodeCursor } from './cursor';
import { insertResource, snapshot } from '../../testing/resource-fixtures';

const b64 = (s: string) => Buffer.from(s).toString('base64url');
const cursorOf = (v: unknown) => b64(JSON.stringify(v));
const enc = encodeURIComponent;
/** A resource id that exists (the fixture below is the first row of a fresh database). */
const ID = 1;
const json = (payload: string): Partial<InjectOptions> => ({ headers: { 'content-type': 'application/json' }, payload });

interface Case {
  name: string;
  method?: 'GET' | 'POST';
  url: string;
  extra?: Partial<InjectOptions>;
  status: number;
  code: string;
  /** The field named in `fields`, when the error is about one. */
  field?: string;
}

const list = (query: string, status: number, field: string, name = query): Case => ({
  name: `list ${name}`,
  url: `/api/resources?${query}`,
  status,
  code: 'VALIDATION_ERROR',
  field,
});

const CASES: Case[] = [
  list('limit=0', 400, 'limit'),
  list('limit=101', 400, 'limit'),
  list('limit=abc', 400, 'limit'),
  list('limit=1.5', 400, 'limit'),
  list('limit=-1', 400, 'limit'),
  list('limit=1&limit=2', 400, 'limit'),
  list('limit=99999999999999999999999', 400, 'limit'),
  list('sort=bogus', 400, 'sort'),
  list(`sort=${enc('popular; drop table resources')}`, 400, 'sort'),
  list('category=nope', 400, 'category'),
  list(`category=${enc("' OR 1=1 --")}`, 400, 'category'),
  list(`category=${enc('../../etc/passwd')}`, 400, 'category'),
  list(`category=${'x'.repeat(5000)}`, 400, 'category', 'category=<5000 chars>'),
  list('category=video_editing&category=typography', 400, 'category'),
  list(`q=${'x'.repeat(201)}`, 400, 'q', 'q=<201 chars>'),
  list('q=a%00b', 400, 'q', 'q with NUL'),
  list(`q=${enc('\u001b[31mred')}`, 400, 'q', 'q with an escape sequence'),
  list('q=a&q=b', 400, 'q'),
  list(`tags=${Array.from({ length: 21 }, (_, i) => `t${i}`).join(',')}`, 400, 'tags', '21 tags'),
  list(`tags=${'x'.repeat(41)}`, 400, 'tags.0', 'a 41-character tag'),
  list('tags=ok,bad%01tag', 400, 'tags.1', 'a tag with a control character'),
  list('cursor=!!!', 400, 'cursor'),
  list(`cursor=${'A'.repeat(513)}`, 400, 'cursor', 'cursor=<513 chars>'),
  list(`cursor=${b64('not json')}`, 400, 'cursor', 'cursor of non-JSON'),
  list(`cursor=${b64('null')}`, 400, 'cursor', 'cursor of null'),
  list(`cursor=${b64('[1,2,3]')}`, 400, 'cursor', 'cursor of an array'),
  list(`cursor=${cursorOf({ sort: 'popular', keys: [1], id: 1 })}`, 400, 'cursor', 'cursor missing a key'),
  list(`cursor=${cursorOf({ sort: 'popular', keys: ['1', '2'], id: 1 })}`, 400, 'cursor', 'cursor with text keys'),
  list(`cursor=${cursorOf({ sort: 'popular', keys: [1, 2], id: -5 })}`, 400, 'cursor', 'cursor with a negative id'),
  list(`cursor=${cursorOf({ sort: 'popular', keys: [1e300, 2], id: 1 })}`, 400, 'cursor', 'cursor with a huge number'),
  list(`cursor=${cursorOf({ sort: 'popular', keys: [1, 2], id: 1, x: 1 })}`, 400, 'cursor', 'cursor with an extra field'),
  list(`cursor=${cursorOf({ sort: 'newest', keys: ["' OR 1=1 --"], id: 1 })}&sort=newest`, 400, 'cursor', 'cursor with SQL for a date'),
  list(
    `cursor=${encodeCursor('newest', { id: 5, popularity: 1, download_count: 1, created_at: '2024-01-01T00:00:00.000Z' })}&sort=popular`,
    400,
    'cursor',
    'cursor made for another sort',
  ),
  ...['abc', '-1', '0', '1.5', '99999999999', '1e400', 'a%00', `..${enc('/')}..${enc('/')}etc`, enc("1' OR '1'='1")].map(
    (id): Case => ({ name: `one resource, id ${id}`, url: `/api/resources/${id}`, status: 400, code: 'VALIDATION_ERROR', field: 'id' }),
  ),
  { name: 'download, id abc', method: 'POST', url: '/api/resources/abc/download', status: 400, code: 'VALIDATION_ERROR', field: 'id' },
  { name: 'download, id 0', method: 'POST', url: '/api/resources/0/download', status: 400, code: 'VALIDATION_ERROR', field: 'id' },
  { name: 'download, malformed JSON', method: 'POST', url: `/api/resources/${ID}/download`, extra: json('{bad'), status: 400, code: 'BAD_JSON' },
  { name: 'download, whitespace as JSON', method: 'POST', url: `/api/resources/${ID}/download`, extra: json('   '), status: 400, code: 'BAD_JSON' },
  { name: 'download, prototype pollution', method: 'POST', url: `/api/resources/${ID}/download`, extra: json('{"__proto__":{"admin":true}}'), status: 400, code: 'BAD_JSON' },
  { name: 'download, unexpected field', method: 'POST', url: `/api/resources/${ID}/download`, extra: json('{"download_count":0}'), status: 400, code: 'VALIDATION_ERROR' },
  { name: 'download, a JSON array', method: 'POST', url: `/api/resources/${ID}/download`, extra: json('[]'), status: 400, code: 'VALIDATION_ERROR' },
  { name: 'download, a JSON string', method: 'POST', url: `/api/resources/${ID}/download`, extra: json('"x"'), status: 400, code: 'VALIDATION_ERROR' },
  {
    name: 'download, 1 MB body',
    method: 'POST',
    url: `/api/resources/${ID}/download`,
    extra: json(`{"x":"${'a'.repeat(1024 * 1024)}"}`),
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
  },
  {
    name: 'download, text body',
    method: 'POST',
    url: `/api/resources/${ID}/download`,
    extra: { headers: { 'content-type': 'text/plain' }, payload: "' OR 1=1 --" },
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  {
    name: 'download, form body',
    method: 'POST',
    url: `/api/resources/${ID}/download`,
    extra: { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=1' },
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
  },
  {
    name: 'download from another origin',
    method: 'POST',
    url: `/api/resources/${ID}/download`,
    extra: { headers: { origin: 'https://evil.example' } },
    status: 403,
    code: 'BAD_ORIGIN',
  },
  // Bad percent-encoding is refused by Fastify before routing (errors.ts handleFrameworkError).
  { name: 'one resource, malformed percent-encoding', url: '/api/resources/%E0%A4%A', status: 400, code: 'VALIDATION_ERROR' },
  { name: 'download, malformed percent-encoding', method: 'POST', url: '/api/resources/%FF/download', status: 400, code: 'VALIDATION_ERROR' },
  { name: 'thumbnail, malformed percent-encoding', url: '/thumbnails/%FF.svg', status: 400, code: 'VALIDATION_ERROR' },
  { name: 'one resource, a 300-digit id', url: `/api/resources/${'1'.repeat(300)}`, status: 404, code: 'NOT_FOUND' },
  ...['abc', '0', '-1', '1.5', '99999999999', '2147483647', '%00', `..${enc('/')}1`].map(
    (id): Case => ({ name: `thumbnail ${id}`, url: `/thumbnails/${id}.svg`, status: 404, code: 'NOT_FOUND' }),
  ),
];

describe.each(TEST_DATABASES)('bad input to the public API on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
    expect(await insertResource(t.database, { title: 'The one', tags: ['Transitions'] })).toBe(ID);
    await t.app.inject({ method: 'POST', url: `/api/resources/${ID}/download`, headers: BROWSER });
  });
  afterAll(async () => {
    await t.close();
  });

  it.each(CASES)('$name → $status $code', async (c) => {
    const before = await snapshot(t.database);
    const res = await t.app.inject({ method: c.method ?? 'GET', url: c.url, ...c.extra });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(c.status);
    const body = errorBodySchema.strict().parse(res.json());
    expect(body.error.code).toBe(c.code);
    expect(body.error.message.length).toBeGreaterThan(0);
    if (c.field) expect(Object.keys(body.error.fields ?? {})).toContain(c.field);
    expect(await snapshot(t.database)).toEqual(before);
  });

  it('still serves the resource afterwards', async () => {
    const res = await t.app.inject({ url: `/api/resources/${ID}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: ID, title: 'The one', download_count: 1 });
  });
});
