import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { errorBodySchema } from '../../../contract/errors';
import type { Config } from '../../config';
import { BROWSER, createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';
import { dayOf } from '../../time';
import { createAndSignIn } from '../../testing/auth-helpers';
import { insertResource } from '../../testing/resource-fixtures';
import { downloadsDb, SALT_PREFIX, sweepPastDays } from './queries';
import { visitorHash } from './visitor';

const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const DAY_MS = 86_400_000;

let ipCounter = 0;
/** A client address no other test uses (TRUST_PROXY is on: X-Forwarded-For names the client). */
const nextIp = () => `198.51.${(ipCounter >> 8) & 255}.${ipCounter++ & 255}`;

describe.each(TEST_DATABASES)('what counts as a download on %s', (kind) => {
  const apps: TestApp[] = [];
  const start = async (downloads: Config['downloads']) => {
    const t = await createTestApp(kind, { trustProxy: true, downloads });
    apps.push(t);
    return t;
  };
  let t: TestApp;
  beforeAll(async () => {
    t = await start({ counting: 'unique', rateLimit: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(async () => {
    for (const a of apps) await a.close();
  });

  const countOf = async (app: TestApp, id: number) =>
    Number((await app.database.db.selectFrom('resources').select('download_count').where('id', '=', id).executeTakeFirstOrThrow()).download_count);
  const perDay = async (app: TestApp, id: number) =>
    Object.fromEntries(
      (await downloadsDb(app.database.db).selectFrom('resource_download_days').select(['day', 'count']).where('resource_id', '=', id).orderBy('day').execute()).map(
        (r) => [r.day, Number(r.count)],
      ),
    );
  const totalOn = async (app: TestApp, day: string) =>
    Number((await app.database.db.selectFrom('download_days').select('count').where('day', '=', day).executeTakeFirst())?.count ?? 0);
  const press = (app: TestApp, id: number, ip: string, headers: Record<string, string> = {}, method: 'POST' | 'GET' | 'HEAD' = 'POST') =>
    app.app.inject({ method, url: `/api/resources/${id}/download`, headers: { ...BROWSER, 'x-forwarded-for': ip, ...headers } });

  it('counts 200 presses by one visitor (in parallel) once, and answers each with the link', async () => {
    const id = await insertResource(t.database, { download_count: 10 });
    const ip = nextIp();
    const day = dayOf();
    const total = await totalOn(t, day);
    const responses = await Promise.all(Array.from({ length: 200 }, () => press(t, id, ip)));
    expect(responses.map((r) => r.statusCode).filter((s) => s !== 200)).toEqual([]);
    expect(new Set(responses.map((r) => r.json().download_url)).size).toBe(1);
    expect(responses.map((r) => r.json().download_count)).toEqual(Array(200).fill(11));
    expect(await countOf(t, id)).toBe(11);
    expect(await perDay(t, id)).toEqual({ [day]: 1 });
    expect(await totalOn(t, day)).toBe(total + 1);
    // 200 more, one after another, still add nothing.
    for (let i = 0; i < 20; i++) expect((await press(t, id, ip)).json().download_count).toBe(11);
    expect(await countOf(t, id)).toBe(11);
  });

  it('counts each distinct visitor once (client address by X-Forwarded-For; another browser on one address is another visitor)', async () => {
    const id = await insertResource(t.database, { download_count: 0 });
    const ips = Array.from({ length: 150 }, nextIp);
    const responses = await Promise.all(ips.flatMap((ip) => [press(t, id, ip), press(t, id, ip)]));
    expect(responses.every((r) => r.statusCode === 200)).toBe(true);
    expect(await countOf(t, id)).toBe(150);
    await press(t, id, ips[0], { 'user-agent': FIREFOX });
    expect(await countOf(t, id)).toBe(151);
    expect(await perDay(t, id)).toEqual({ [dayOf()]: 151 });
    // Each visitor counted for this resource only: the same visitors downloading another count again there.
    const other = await insertResource(t.database, { download_count: 0 });
    await Promise.all(ips.slice(0, 10).map((ip) => press(t, other, ip)));
    expect(await countOf(t, other)).toBe(10);
  });

  it('stores no IP or User-Agent in clear: one keyed hash per visitor, resource and day', async () => {
    const id = await insertResource(t.database);
    const ip = nextIp();
    await press(t, id, ip);
    const rows = await downloadsDb(t.database.db).selectFrom('download_visitors').selectAll().where('resource_id', '=', id).execute();
    expect(rows).toHaveLength(1);
    const salt = await t.database.db.selectFrom('server_secrets').select('value').where('name', '=', `${SALT_PREFIX}${dayOf()}`).executeTakeFirstOrThrow();
    expect(rows[0]).toEqual({ day: dayOf(), resource_id: id, visitor: visitorHash(Buffer.from(salt.value, 'base64'), ip, BROWSER['user-agent']) });
    expect(rows[0].visitor).not.toContain(ip);
    expect(rows[0].visitor).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const limits = await t.database.db.selectFrom('rate_limits').select('key').execute();
    expect(limits.some((r) => r.key.includes(ip))).toBe(false);
  });

  it.each([
    ['a bot', 'POST', { 'user-agent': GOOGLEBOT }],
    ['a crawler library', 'POST', { 'user-agent': 'python-requests/2.32.3' }],
    ['a prefetch (Sec-Purpose)', 'GET', { 'sec-purpose': 'prefetch' }],
    ['a prerender (Sec-Purpose)', 'GET', { 'sec-purpose': 'prefetch;prerender' }],
    ['a prefetch (Purpose)', 'GET', { purpose: 'prefetch' }],
    ['a prefetch by POST', 'POST', { 'sec-purpose': 'prefetch' }],
    ['HEAD', 'HEAD', {}],
  ] as const)('does not count %s, and still gives the link', async (_label, method, headers) => {
    const id = await insertResource(t.database, { download_count: 5 });
    const total = await totalOn(t, dayOf());
    const res = await press(t, id, nextIp(), headers, method);
    const url = (await t.database.db.selectFrom('resources').select('download_url').where('id', '=', id).executeTakeFirstOrThrow()).download_url;
    if (method === 'POST') {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ download_url: url, download_count: 5 });
    } else {
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe(url);
    }
    expect(await countOf(t, id)).toBe(5);
    expect(await perDay(t, id)).toEqual({});
    expect(await totalOn(t, dayOf())).toBe(total);
    expect(await downloadsDb(t.database.db).selectFrom('download_visitors').select('visitor').where('resource_id', '=', id).execute()).toEqual([]);
  });

  it('counts a GET (a link or a download manager) and redirects to the file', async () => {
    const id = await insertResource(t.database, { download_count: 0 });
    const res = await press(t, id, nextIp(), {}, 'GET');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toMatch(/^https:\/\/files\.example\.com\/fixture-\d+\.zip$/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(await countOf(t, id)).toBe(1);
    expect((await press(t, 2147483647, nextIp(), {}, 'GET')).statusCode).toBe(404);
  });

  it('does not count a signed-in admin, who still gets the link', async () => {
    const id = await insertResource(t.database, { download_count: 3 });
    const { cookie } = await createAndSignIn(t.app, t.database, `dl-admin-${kind}`);
    const res = await press(t, id, nextIp(), { cookie });
    expect(res.statusCode).toBe(200);
    expect(res.json().download_count).toBe(3);
    expect(res.json().download_url).toMatch(/fixture-\d+\.zip$/);
    expect(await countOf(t, id)).toBe(3);
    // A stale or forged session cookie is a visitor like any other.
    expect((await press(t, id, nextIp(), { cookie: 'rv_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' })).json().download_count).toBe(4);
  });

  it('counts every download in `every` mode, bots and admins still excepted', async () => {
    const every = await start({ counting: 'every', rateLimit: 0 });
    const id = await insertResource(every.database, { download_count: 0 });
    const ip = nextIp();
    const responses = await Promise.all(Array.from({ length: 25 }, () => press(every, id, ip)));
    expect(responses.map((r) => r.json().download_count).sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    await press(every, id, ip, { 'user-agent': GOOGLEBOT });
    await press(every, id, ip, {}, 'HEAD');
    expect(await countOf(every, id)).toBe(25);
    expect(await perDay(every, id)).toEqual({ [dayOf()]: 25 });
    // No visitor set is kept when every download counts.
    expect(await downloadsDb(every.database.db).selectFrom('download_visitors').select('visitor').where('resource_id', '=', id).execute()).toEqual([]);
  });

  it('refuses downloads beyond the per-client limit with 429, Retry-After and the error shape, counting none of them', async () => {
    const limited = await start({ counting: 'unique', rateLimit: 3 });
    const ids = await Promise.all(Array.from({ length: 6 }, () => insertResource(limited.database, { download_count: 0 })));
    const ip = nextIp();
    const statuses: number[] = [];
    for (const id of ids.slice(0, 5)) {
      const res = await press(limited, id, ip);
      statuses.push(res.statusCode);
      if (res.statusCode === 429) {
        const seconds = Number(res.headers['retry-after']);
        expect(seconds).toBeGreaterThanOrEqual(1);
        expect(seconds).toBeLessThanOrEqual(60);
        const body = errorBodySchema.strict().parse(res.json());
        expect(body.error.code).toBe('RATE_LIMITED');
        expect(body.error.message).toMatch(/^Too many downloads\. Try again in \d+ seconds?\.$/);
      }
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(await Promise.all(ids.map((id) => countOf(limited, id)))).toEqual([1, 1, 1, 0, 0, 0]);
    // In parallel too: of 10 at once from a fresh client, 3 are recorded.
    const burst = nextIp();
    const parallel = await Promise.all(Array.from({ length: 10 }, () => press(limited, ids[5], burst, { 'user-agent': FIREFOX })));
    expect(parallel.filter((r) => r.statusCode === 200)).toHaveLength(3);
    expect(parallel.filter((r) => r.statusCode === 429)).toHaveLength(7);
    expect(await countOf(limited, ids[5])).toBe(1);
    // Another client is not held back, and neither are bots (they record nothing).
    expect((await press(limited, ids[3], nextIp())).statusCode).toBe(200);
    expect((await press(limited, ids[3], ip, { 'user-agent': GOOGLEBOT })).statusCode).toBe(200);
    expect(await countOf(limited, ids[3])).toBe(1);
  });

  it('rotates the salt daily: a new day counts the visitor again under a new hash, and the sweep deletes past visitors and salts', async () => {
    const id = await insertResource(t.database, { download_count: 0 });
    const ip = nextIp();
    const now = Date.now();
    const yesterday = dayOf(new Date(now - DAY_MS));
    const today = dayOf(new Date(now));
    vi.useFakeTimers({ toFake: ['Date'], now: now - DAY_MS });
    await press(t, id, ip);
    await press(t, id, ip);
    vi.setSystemTime(now);
    await press(t, id, ip);
    await press(t, id, ip);
    expect(await countOf(t, id)).toBe(2);
    expect(await perDay(t, id)).toEqual({ [yesterday]: 1, [today]: 1 });

    const visitors = downloadsDb(t.database.db).selectFrom('download_visitors').select(['day', 'visitor']).where('resource_id', '=', id).orderBy('day');
    const salts = t.database.db.selectFrom('server_secrets').select('name').where('name', 'like', `${SALT_PREFIX}%`).orderBy('name');
    const before = await visitors.execute();
    expect(before.map((r) => r.day)).toEqual([yesterday, today]);
    expect(before[0].visitor).not.toBe(before[1].visitor);
    expect((await salts.execute()).map((r) => r.name)).toEqual(expect.arrayContaining([`${SALT_PREFIX}${yesterday}`, `${SALT_PREFIX}${today}`]));

    await sweepPastDays(t.database.db, today);
    expect((await visitors.execute()).map((r) => r.day)).toEqual([today]);
    // Yesterday's salt is gone: yesterday's hash cannot be computed again for anyone.
    expect((await salts.execute()).map((r) => r.name)).toEqual([`${SALT_PREFIX}${today}`]);
    // The counts stay.
    expect(await perDay(t, id)).toEqual({ [yesterday]: 1, [today]: 1 });
    expect(await countOf(t, id)).toBe(2);
  });

  it('keeps one per-day row per resource however many downloads; deleting the resource deletes its rows', async () => {
    const id = await insertResource(t.database, { download_count: 0 });
    await Promise.all(Array.from({ length: 40 }, () => press(t, id, nextIp())));
    expect(await downloadsDb(t.database.db).selectFrom('resource_download_days').select('count').where('resource_id', '=', id).execute()).toEqual([{ count: 40 }]);
    await t.database.db.deleteFrom('resources').where('id', '=', id).execute();
    expect(await perDay(t, id)).toEqual({});
  });
});
