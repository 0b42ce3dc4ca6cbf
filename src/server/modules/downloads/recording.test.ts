import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadResponseSchema } from '../../../contract/resources';
import { BROWSER, createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';
import { dayOf } from '../../time';
import { insertResource, snapshot } from '../../testing/resource-fixtures';

// Recording itself, in `every` mode (each download counts): exact under concurrency, nothing else
// changed. The counting rules are in counting.test.ts.
describe.each(TEST_DATABASES)('recording downloads on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { downloads: { counting: 'every', rateLimit: 0 } });
  });
  afterAll(async () => {
    await t.close();
  });

  const countOf = async (id: number) =>
    Number((await t.database.db.selectFrom('resources').select('download_count').where('id', '=', id).executeTakeFirstOrThrow()).download_count);
  const today = async () =>
    Number((await t.database.db.selectFrom('download_days').select('count').where('day', '=', dayOf()).executeTakeFirst())?.count ?? 0);

  it.each([
    ['no body, no content type', {}],
    ['an empty body sent as JSON', { headers: { 'content-type': 'application/json' }, payload: '' }],
    ['an empty JSON object', { headers: { 'content-type': 'application/json' }, payload: '{}' }],
    ['an empty JSON object with a charset', { headers: { 'content-type': 'application/json; charset=utf-8' }, payload: '{}' }],
  ])('accepts %s and returns the URL and the new count', async (_label, request) => {
    const id = await insertResource(t.database, { download_count: 41 });
    const day = await today();
    const res = await t.app.inject({ method: 'POST', url: `/api/resources/${id}/download`, ...request, headers: { ...BROWSER, ...('headers' in request ? request.headers : {}) } });
    expect(res.statusCode, res.body).toBe(200);
    const body = downloadResponseSchema.strict().parse(res.json());
    expect(body.download_count).toBe(42);
    expect(body.download_url).toMatch(/^https:\/\/files\.example\.com\/fixture-\d+\.zip$/);
    expect(await countOf(id)).toBe(42);
    expect(await today()).toBe(day + 1);
  });

  it('counts 500 parallel downloads of one resource exactly, in the resource and in today', async () => {
    const id = await insertResource(t.database, { download_count: 7 });
    const day = await today();
    const responses = await Promise.all(
      Array.from({ length: 500 }, () => t.app.inject({ method: 'POST', url: `/api/resources/${id}/download`, headers: BROWSER })),
    );
    expect(responses.map((r) => r.statusCode).filter((s) => s !== 200)).toEqual([]);
    // Every response saw its own increment: 8 … 507, each exactly once.
    const seen = responses.map((r) => r.json().download_count as number).sort((a, b) => a - b);
    expect(seen).toEqual(Array.from({ length: 500 }, (_, i) => 8 + i));
    expect(await countOf(id)).toBe(507);
    expect(await today()).toBe(day + 500);
  });

  it('answers mixed parallel downloads (several resources and a missing one) each with its own exact count', async () => {
    const a = await insertResource(t.database, { download_count: 100 });
    const b = await insertResource(t.database, { download_count: 0 });
    const day = await today();
    const ids = Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? a : i % 3 === 1 ? b : 2147483647));
    const responses = await Promise.all(ids.map((id) => t.app.inject({ method: 'POST', url: `/api/resources/${id}/download`, headers: BROWSER })));
    const countsOf = (id: number) =>
      responses
        .filter((_, i) => ids[i] === id)
        .map((r) => r.json().download_count as number)
        .sort((x, y) => x - y);
    expect(countsOf(a)).toEqual(Array.from({ length: 100 }, (_, i) => 101 + i));
    expect(countsOf(b)).toEqual(Array.from({ length: 100 }, (_, i) => 1 + i));
    expect(responses.filter((_, i) => ids[i] === 2147483647).every((r) => r.statusCode === 404)).toBe(true);
    expect(await countOf(a)).toBe(200);
    expect(await countOf(b)).toBe(100);
    expect(await today()).toBe(day + 200);
  });

  it('counts downloads that arrive while another transaction holds the connection (after it ends)', async () => {
    const id = await insertResource(t.database, { download_count: 0 });
    let release!: () => void;
    const held = t.database.db.transaction().execute(async (trx) => {
      await trx.selectFrom('resources').select('id').where('id', '=', id).execute();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const pending = Promise.all(Array.from({ length: 20 }, () => t.app.inject({ method: 'POST', url: `/api/resources/${id}/download`, headers: BROWSER })));
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await held;
    const responses = await pending;
    expect(responses.map((r) => r.json().download_count).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(await countOf(id)).toBe(20);
  });

  it('404s for a resource that does not exist and records nothing', async () => {
    const before = await snapshot(t.database);
    const res = await t.app.inject({ method: 'POST', url: '/api/resources/2147483647/download', headers: BROWSER });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Resource not found' } });
    expect(await snapshot(t.database)).toEqual(before);
  });

  it('does not change anything but the count when recording', async () => {
    const id = await insertResource(t.database, { title: 'Stable', popularity: 33, download_count: 1 });
    const before = await t.database.db.selectFrom('resources').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    await t.app.inject({ method: 'POST', url: `/api/resources/${id}/download`, headers: BROWSER });
    const after = await t.database.db.selectFrom('resources').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(after).toEqual({ ...before, download_count: 2 });
  });
});
