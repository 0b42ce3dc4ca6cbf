import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import { REPORT_LINK_LIMIT, type LinkHealth } from '../../../contract/links';
import { loadConfig } from '../../config';
import { buildApp } from '../../app';
import type { App } from '../../context';
import { getJob, type JobView } from '../../jobs/queue';
import { createAndSignIn, type SignedIn } from '../../testing/auth-helpers';
import { createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';
import { createResource } from '../resources/admin-queries';
import { createPacer, LINK_CHECK_KIND, LINK_RECHECK_KIND } from './job';
import { queueScheduledRun } from './routes';

/**
 * Link checks (issue 32): the job against a local HTTP server (127.0.0.1 allowed as the tests'
 * one private address), the routes, the schedule across two instances, and the settings.
 */

/** A far end: what each path answers, and which paths were asked for. */
async function startFarEnd() {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    const port = (server.address() as AddressInfo).port;
    switch (req.url) {
      case '/ok.zip':
        return res.writeHead(200).end();
      case '/missing.zip':
      case '/missing.png':
        return res.writeHead(404).end();
      case '/no-head.zip':
        if (req.method === 'HEAD') return res.writeHead(405).end();
        return res.writeHead(req.headers.range === 'bytes=0-0' ? 206 : 400).end('x');
      case '/moved.zip':
        return res.writeHead(301, { location: '/ok.zip' }).end();
      case '/to-metadata.zip':
        return res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      // 127.0.0.2 reaches this very server (it listens on every address) but is not the allowed one.
      case '/to-other-loopback.zip':
        return res.writeHead(302, { location: `http://127.0.0.2:${port}/secret.zip` }).end();
      case '/slow.zip':
        return; // never answers
      default:
        return res.writeHead(200).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    hits,
    url: (p: string) => `${base}${p}`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

type FarEnd = Awaited<ReturnType<typeof startFarEnd>>;

const linkChecks = { schedule: null, allowPrivate: false, allowAddresses: ['127.0.0.1'], timeoutMs: 700, hostIntervalMs: 0 };

let unique = 0;
/** The admin the test resources are created by (any admin will do). */
let creator = 0;
async function resource(t: TestApp, download: string, extra: { status?: 'draft' | 'published'; thumbnail?: string } = {}) {
  const r = await createResource(
    t.database,
    {
      title: `Linked ${unique++}`,
      description: 'Checked by the link check tests',
      category: 'typography',
      thumbnail_url: extra.thumbnail ?? '/thumbnails/1.svg',
      download_url: download,
      tags: ['Links'],
      is_premium: false,
      licence: { kind: 'free-commercial' },
      thumbnail_choice: 'image',
      status: extra.status ?? 'published',
    },
    creator,
  );
  return r.id;
}

async function settled(t: TestApp, id: number): Promise<JobView> {
  let job: JobView | undefined;
  await expect.poll(async () => (job = await getJob(t.database, id))?.state, { timeout: 20_000, interval: 50 }).toMatch(/ready|failed/);
  return job!;
}

describe.each(TEST_DATABASES)('link checks on %s', (kind) => {
  let t: TestApp;
  let far: FarEnd;
  let admin: SignedIn;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    far = await startFarEnd();
    t = await createTestApp(kind, { linkChecks });
    admin = await createAndSignIn(t.app, t.database, 'link_admin');
    creator = admin.admin.id;
    ids.ok = await resource(t, far.url('/ok.zip'));
    ids.missing = await resource(t, far.url('/missing.zip'), { thumbnail: far.url('/missing.png') });
    ids.noHead = await resource(t, far.url('/no-head.zip'));
    ids.moved = await resource(t, far.url('/moved.zip'));
    ids.slow = await resource(t, far.url('/slow.zip'), { status: 'draft' });
    ids.metadata = await resource(t, 'http://169.254.169.254/latest/meta-data/');
    ids.privateNet = await resource(t, 'http://10.1.2.3/file.zip');
    ids.toMetadata = await resource(t, far.url('/to-metadata.zip'));
    ids.toLoopback = await resource(t, far.url('/to-other-loopback.zip'));
    ids.hosted = await resource(t, '');
  });
  afterAll(async () => {
    await t?.close();
    await far?.close();
  });

  const health = async (query = ''): Promise<LinkHealth> => {
    const res = await t.app.inject({ method: 'GET', url: `${API.adminLinkHealth}${query}`, headers: { cookie: admin.cookie } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const brokenOf = (h: LinkHealth, id: number) => h.items.filter((i) => i.resource_id === id);
  const stateOf = (id: number, link = 'download') =>
    t.database.db.selectFrom('resource_links').selectAll().where('resource_id', '=', id).where('link', '=', link as 'download').executeTakeFirst();

  it('checks every link of every resource not in the trash on "Check now", and lists the broken ones', async () => {
    const res = await t.app.inject({ method: 'POST', url: API.adminLinkHealthRun, headers: { cookie: admin.cookie } });
    expect(res.statusCode, res.body).toBe(202);
    const job = await settled(t, res.json().job_id);
    expect(job.state, job.error ?? '').toBe('ready');

    // A 200, a HEAD refused then a ranged GET, and a redirect followed to a 200: ok.
    for (const id of [ids.ok, ids.noHead, ids.moved]) expect(await stateOf(id!)).toMatchObject({ state: 'ok' });
    expect(far.hits).toContain('GET /no-head.zip');
    expect(far.hits.filter((h) => h === 'HEAD /ok.zip').length).toBeGreaterThanOrEqual(2); // its own and the redirect's

    const h = await health();
    expect(brokenOf(h, ids.missing!)).toEqual([
      expect.objectContaining({ link: 'download', status: 404, reason: 'The server answered 404 Not Found', url: far.url('/missing.zip'), category: 'typography' }),
      expect.objectContaining({ link: 'thumbnail', status: 404 }),
    ]);
    // A draft is checked too; no answer within the deadline is broken.
    expect(brokenOf(h, ids.slow!)).toEqual([expect.objectContaining({ status: null, reason: 'No answer within 0.7 s' })]);
    for (const id of [ids.metadata, ids.privateNet, ids.toMetadata, ids.toLoopback]) {
      expect(brokenOf(h, id!), String(id)).toEqual([expect.objectContaining({ status: null, reason: expect.stringContaining('private or reserved address') })]);
    }
    // The redirect to another loopback address was refused before connecting.
    expect(far.hits).not.toContain('HEAD /secret.zip');
    // A hosted download is not an external link.
    expect(await stateOf(ids.hosted!)).toBeUndefined();
    expect(h.total).toBe(h.items.length);
    expect(h.total).toBe(7);
    expect(h.running).toBe(false);
  });

  it('filters the admin resource list (and its "select all" ids) by broken links, on the server', async () => {
    const broken = [ids.missing, ids.slow, ids.metadata, ids.privateNet, ids.toMetadata, ids.toLoopback].map(Number).sort((x, y) => x - y);
    const list = await t.app.inject({ method: 'GET', url: `${API.adminResources}?links=broken&limit=100`, headers: { cookie: admin.cookie } });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().items.map((r: { id: number }) => r.id).sort((x: number, y: number) => x - y)).toEqual(broken);
    expect(list.json().total).toBe(broken.length);
    const drafts = await t.app.inject({ method: 'GET', url: `${API.adminResources}?links=broken&status=draft`, headers: { cookie: admin.cookie } });
    expect(drafts.json().items.map((r: { id: number }) => r.id)).toEqual([ids.slow]);
    const idsAnswer = await t.app.inject({ method: 'GET', url: `${API.adminResourceIds}?links=broken`, headers: { cookie: admin.cookie } });
    expect(idsAnswer.statusCode, idsAnswer.body).toBe(200);
    expect([...idsAnswer.json().ids].sort((x: number, y: number) => x - y)).toEqual(broken);
    const bad = await t.app.inject({ method: 'GET', url: `${API.adminResources}?links=ok`, headers: { cookie: admin.cookie } });
    expect(bad.statusCode).toBe(400);
  });

  it('pages the list, and forgets a broken link once the resource links elsewhere or is in the trash', async () => {
    const first = await health('?limit=3&page=1');
    const second = await health('?limit=3&page=2');
    expect(first.items).toHaveLength(3);
    expect(second.items[0]).not.toEqual(first.items[0]);
    expect(first.total).toBe(7);

    await t.database.db.updateTable('resources').set({ download_url: far.url('/ok.zip?fixed') }).where('id', '=', ids.privateNet!).execute();
    await t.database.db.updateTable('resources').set({ status: 'trashed', status_before_trash: 'published', trashed_at: new Date().toISOString() }).where('id', '=', ids.metadata!).execute();
    const after = await health();
    expect(after.total).toBe(5);
    expect(brokenOf(after, ids.privateNet!)).toEqual([]);
    expect(brokenOf(after, ids.metadata!)).toEqual([]);
  });

  it('refuses a bad page in the error shape', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${API.adminLinkHealth}?page=0`, headers: { cookie: admin.cookie } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBeTruthy();
  });

  it("queues a re-check of a resource's own links on a visitor's report, answering 202 with no body", async () => {
    await t.database.db.deleteFrom('resource_links').where('resource_id', '=', ids.ok!).execute();
    const res = await t.app.inject({ method: 'POST', url: API.reportLink(ids.ok!), remoteAddress: '198.51.100.1' });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.body).toBe('');
    const job = await t.database.db.selectFrom('media_jobs').select(['id', 'payload']).where('kind', '=', LINK_RECHECK_KIND).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(JSON.parse(job.payload)).toEqual({ resource: ids.ok });
    expect((await settled(t, Number(job.id))).state).toBe('ready');
    expect(await stateOf(ids.ok!)).toMatchObject({ state: 'ok', url: far.url('/ok.zip') });
    // Only that resource: no full check was queued.
    const full = await t.database.db.selectFrom('media_jobs').select((eb) => eb.fn.countAll<number>().as('n')).where('kind', '=', LINK_CHECK_KIND).executeTakeFirstOrThrow();
    expect(Number(full.n)).toBe(1);
  });

  it('answers 404 for an unknown, draft or trashed resource', async () => {
    for (const id of [999_999, ids.slow!, ids.metadata!]) {
      const res = await t.app.inject({ method: 'POST', url: API.reportLink(id), remoteAddress: '198.51.100.2' });
      expect(res.statusCode, String(id)).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
    }
  });

  it('limits reports per address like downloads, with Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= REPORT_LINK_LIMIT; i++) statuses.push((await t.app.inject({ method: 'POST', url: API.reportLink(ids.missing!), remoteAddress: '198.51.100.3' })).statusCode);
    expect(statuses).toEqual([...Array(REPORT_LINK_LIMIT).fill(202), 429]);
    const refused = await t.app.inject({ method: 'POST', url: API.reportLink(ids.missing!), remoteAddress: '198.51.100.3' });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not limited by it.
    expect((await t.app.inject({ method: 'POST', url: API.reportLink(ids.missing!), remoteAddress: '198.51.100.4' })).statusCode).toBe(202);
  });

  it('queues a scheduled time once however many instances claim it at the same moment', async () => {
    const slot = '2030-01-01T03:00:00.000Z';
    const answers = await Promise.all(Array.from({ length: 4 }, () => queueScheduledRun(t.database, slot)));
    const queued = answers.filter((a) => a !== null);
    expect(queued).toHaveLength(1);
    const jobs = await t.database.db.selectFrom('media_jobs').select('id').where('subject', '=', `scheduled:${slot}`).execute();
    expect(jobs.map((j) => Number(j.id))).toEqual(queued);
    expect((await settled(t, queued[0]!)).state).toBe('ready');
  });

  it('keeps the routes to admins', async () => {
    expect((await t.app.inject({ method: 'GET', url: API.adminLinkHealth })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: API.adminLinkHealthRun })).statusCode).toBe(401);
  });
});

describe.each(TEST_DATABASES)('the scheduled link check on two instances of one %s database', (kind) => {
  let t: TestApp;
  let b: App;
  let far: FarEnd;

  beforeAll(async () => {
    far = await startFarEnd();
    // Every second, on both instances.
    // A check takes longer than the second between two scheduled times (a link that never answers).
    t = await createTestApp(kind, { linkChecks: { ...linkChecks, timeoutMs: 1500, schedule: '* * * * * *' } });
    creator = (await createAndSignIn(t.app, t.database, 'link_scheduler')).admin.id;
    await resource(t, far.url('/ok.zip'));
    await resource(t, far.url('/slow.zip'));
    b = await buildApp(t.config, t.database);
    await b.ready();
  });
  afterAll(async () => {
    await b?.close();
    await t?.close();
    await far?.close();
  });

  it('queues each scheduled time once, whichever instances fire, and never a second check while one runs', async () => {
    await expect.poll(async () => (await t.database.db.selectFrom('link_check_runs').select('slot').execute()).length, { timeout: 10_000, interval: 100 }).toBeGreaterThanOrEqual(5);
    await b.close();
    await t.app.close();
    const runs = await t.database.db.selectFrom('link_check_runs').selectAll().execute();
    const jobs = await t.database.db.selectFrom('media_jobs').select(['id', 'subject']).where('kind', '=', LINK_CHECK_KIND).execute();
    // At most one job per scheduled time: each job is the one its slot names, and no slot has two.
    const queued = runs.filter((r) => r.job_id !== null);
    expect(queued.length).toBeGreaterThanOrEqual(1);
    expect(queued.length).toBeLessThan(runs.length);
    expect(jobs.map((j) => j.subject).sort()).toEqual(queued.map((r) => `scheduled:${r.slot}`).sort());
    expect(jobs.map((j) => Number(j.id)).sort()).toEqual(queued.map((r) => Number(r.job_id)).sort());
    // A slot whose time came while a check was queued or running added none: there were never two at once.
    const overlapping = await t.database.db.selectFrom('media_jobs').select(['created_at', 'finished_at']).where('kind', '=', LINK_CHECK_KIND).orderBy('id').execute();
    for (let i = 1; i < overlapping.length; i++) expect(overlapping[i]!.created_at >= (overlapping[i - 1]!.finished_at ?? '9')).toBe(true);
  });
});

describe('link check settings', () => {
  it('defaults to a daily check that reaches no private address', () => {
    expect(loadConfig({ DATA_DIR: '.tmp', SESSION_SECRET: 'a-test-secret-with-enough-entropy-1234567' }).linkChecks).toMatchObject({ schedule: '0 3 * * *', allowPrivate: false });
  });

  it('takes a cron expression, off, and LINK_CHECK_ALLOW_PRIVATE', () => {
    const env = { DATA_DIR: '.tmp', SESSION_SECRET: 'a-test-secret-with-enough-entropy-1234567' };
    expect(loadConfig({ ...env, LINK_CHECK_SCHEDULE: '30 4 * * 1' }).linkChecks.schedule).toBe('30 4 * * 1');
    expect(loadConfig({ ...env, LINK_CHECK_SCHEDULE: 'off' }).linkChecks.schedule).toBeNull();
    expect(loadConfig({ ...env, LINK_CHECK_ALLOW_PRIVATE: 'true' }).linkChecks.allowPrivate).toBe(true);
  });

  it('refuses a schedule that is not a cron expression, and a bad boolean, naming the variable', () => {
    const env = { DATA_DIR: '.tmp', SESSION_SECRET: 'a-test-secret-with-enough-entropy-1234567' };
    expect(() => loadConfig({ ...env, LINK_CHECK_SCHEDULE: 'daily' })).toThrow(/^Invalid configuration: LINK_CHECK_SCHEDULE must be a cron expression/);
    expect(() => loadConfig({ ...env, LINK_CHECK_SCHEDULE: '61 * * * *' })).toThrow(/LINK_CHECK_SCHEDULE/);
    expect(() => loadConfig({ ...env, LINK_CHECK_ALLOW_PRIVATE: 'maybe' })).toThrow(/^Invalid configuration: LINK_CHECK_ALLOW_PRIVATE must be true or false/);
  });
});

describe('the pacer', () => {
  it('spaces requests to one host and lets other hosts go at once', async () => {
    const pace = createPacer(200);
    const started = Date.now();
    const times: Record<string, number[]> = { a: [], b: [] };
    await Promise.all([
      ...[1, 2, 3].map(async () => {
        await pace(new URL('https://a.example/x'));
        times.a!.push(Date.now() - started);
      }),
      (async () => {
        await pace(new URL('https://B.example/y'));
        times.b!.push(Date.now() - started);
      })(),
    ]);
    const a = times.a!.sort((x, y) => x - y);
    expect(a[1]! - a[0]!).toBeGreaterThanOrEqual(190);
    expect(a[2]! - a[1]!).toBeGreaterThanOrEqual(190);
    expect(times.b![0]).toBeLessThan(100);
  });
});
