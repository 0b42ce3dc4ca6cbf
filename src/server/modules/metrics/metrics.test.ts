import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { UPLOADS_PATH, uploadPath } from '../../../contract/files';
import { loadConfig } from '../../config';
import { defineJob, enqueueJob, JobFailure } from '../../jobs/queue';
import { JobRunner } from '../../jobs/runner';
import { AppMetrics } from '../../metrics';
import { createAndSignIn, type SignedIn } from '../../testing/auth-helpers';
import { insertResource } from '../../testing/resource-fixtures';
import { TUS, tusCreation } from '../../testing/route-targets';
import { BROWSER, createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';
import { METRICS_PATH } from './routes';

const TOKEN = 'metrics-token-for-the-test-0123456789';

/** The value of the series `name{labels}` in a Prometheus text answer; undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[3]);
  }
  return undefined;
}

describe.each(TEST_DATABASES)('/metrics on %s', (kind) => {
  let t: TestApp;
  let admin: SignedIn;
  const scrape = async () => {
    const res = await t.app.inject({ url: METRICS_PATH, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode, res.body).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    // Counted once per visitor per day, as a site runs by default.
    t = await createTestApp(kind, { metricsToken: TOKEN, downloads: { counting: 'unique', rateLimit: 0 } });
    admin = await createAndSignIn(t.app, t.database, 'metrics_admin');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers only the bearer token, never cached, in Prometheus text format', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, TOKEN, `Basic ${TOKEN}`]) {
      const res = await t.app.inject({ url: METRICS_PATH, headers: authorization ? { authorization } : {} });
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(res.json().error.code).toBe('UNAUTHORIZED');
      expect(res.body).not.toContain('rv_');
    }
    const ok = await t.app.inject({ url: METRICS_PATH, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(ok.headers['cache-control']).toBe('no-store');
    expect(sample(ok.body, 'rv_process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sample(ok.body, 'rv_nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    // The database pool: PostgreSQL's only.
    expect(sample(ok.body, 'rv_db_pool_connections', { state: 'total' }) !== undefined).toBe(kind === 'postgres');
  });

  it('counts requests by route pattern and status, never by raw URL', async () => {
    const id = await insertResource(t.database, {});
    const before = await scrape();
    const at = (text: string, route: string, status: string) => sample(text, 'rv_http_request_duration_seconds_count', { method: 'GET', route, status_code: status }) ?? 0;
    await t.app.inject({ url: `/api/resources/${id}` });
    await t.app.inject({ url: `/api/resources/${id}` });
    await t.app.inject({ url: '/api/resources/7654321' });
    await t.app.inject({ url: '/api/no-such-thing/12345' });
    const after = await scrape();
    expect(at(after, '/api/resources/:id', '200') - at(before, '/api/resources/:id', '200')).toBe(2);
    expect(at(after, '/api/resources/:id', '404') - at(before, '/api/resources/:id', '404')).toBe(1);
    // A path no API route takes is the catch-all's pattern.
    expect(at(after, '/*', '404') - at(before, '/*', '404')).toBe(1);
    expect(after).not.toContain('/api/resources/7654321');
    expect(after).not.toContain('no-such-thing');
  });

  it('counts downloads by outcome and upload bytes', async () => {
    const id = await insertResource(t.database, {});
    const before = await scrape();
    const press = () => t.app.inject({ method: 'POST', url: `/api/resources/${id}/download`, headers: { ...BROWSER, 'x-forwarded-for': '198.51.100.77' } });
    expect((await press()).statusCode).toBe(200);
    expect((await press()).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/resources/999999/download', headers: BROWSER })).statusCode).toBe(404);
    const created = await t.app.inject({ method: 'POST', url: UPLOADS_PATH, headers: { ...tusCreation(), cookie: admin.cookie } });
    expect(created.statusCode).toBe(201);
    const upload = String(created.headers.location).split('/').pop()!;
    const sent = await t.app.inject({
      method: 'PATCH',
      url: uploadPath(upload),
      payload: Buffer.from('0123456789'),
      headers: { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream', cookie: admin.cookie },
    });
    expect(sent.statusCode).toBe(204);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) => (sample(after, name, labels) ?? 0) - (sample(before, name, labels) ?? 0);
    expect(delta('rv_downloads_total', { outcome: 'counted' })).toBe(1);
    expect(delta('rv_downloads_total', { outcome: 'not_counted' })).toBe(1);
    expect(delta('rv_downloads_total', { outcome: 'missing' })).toBe(1);
    expect(delta('rv_upload_bytes_total')).toBe(10);
  });

  it('reports the queue by kind and state, and each job run by kind and outcome', async () => {
    const ok = defineJob({ kind: 'metrics.ok', payload: z.object({}), timeLimitMs: 10_000, run: async () => ({}) });
    const bad = defineJob({ kind: 'metrics.bad', payload: z.object({}), timeLimitMs: 10_000, maxAttempts: 1, run: async () => Promise.reject(new JobFailure('no', false)) });
    await enqueueJob(t.database, ok, {});
    await enqueueJob(t.database, bad, {});
    expect(sample(await scrape(), 'rv_jobs', { kind: 'metrics.ok', state: 'queued' })).toBe(1);
    const metrics = new AppMetrics(t.database);
    const runner = new JobRunner({ database: t.database, jobs: [ok, bad], onSettled: (k, outcome, seconds) => metrics.job(k, outcome, seconds) });
    while (await runner.runOnce());
    const text = await metrics.registry.metrics();
    expect(sample(text, 'rv_job_duration_seconds_count', { kind: 'metrics.ok', outcome: 'ready' })).toBe(1);
    expect(sample(text, 'rv_job_duration_seconds_count', { kind: 'metrics.bad', outcome: 'failed' })).toBe(1);
    const queue = await scrape();
    expect(sample(queue, 'rv_jobs', { kind: 'metrics.ok', state: 'ready' })).toBe(1);
    expect(sample(queue, 'rv_jobs', { kind: 'metrics.bad', state: 'failed' })).toBe(1);
    expect(sample(queue, 'rv_jobs', { kind: 'metrics.ok', state: 'queued' })).toBeUndefined();
  });
});

describe('METRICS_TOKEN', () => {
  const load = (METRICS_TOKEN?: string) => loadConfig({ SESSION_SECRET: 'config-test-session-secret-0123456789', ...(METRICS_TOKEN === undefined ? {} : { METRICS_TOKEN }) });

  it('is off unless set: no /metrics at all', async () => {
    expect(load().metricsToken).toBeUndefined();
    const t = await createTestApp('sqlite');
    try {
      expect((await t.app.inject({ url: METRICS_PATH, headers: { authorization: `Bearer ${TOKEN}` } })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('is refused when too short or not a token, with the reason', () => {
    expect(load(TOKEN).metricsToken).toBe(TOKEN);
    expect(() => load('short')).toThrow(/METRICS_TOKEN.*at least 16 characters/);
    expect(() => load('has spaces in it, sixteen+')).toThrow(/METRICS_TOKEN.*printable ASCII without spaces/);
  });
});
