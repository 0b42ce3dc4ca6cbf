import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import { INSTANCE_SEEN_SECONDS, type SystemStatus } from '../../../contract/system';
import { MIGRATIONS } from '../../db/migrations';
import { enqueueJob } from '../../jobs/queue';
import { createAndSignIn, type SignedIn } from '../../testing/auth-helpers';
import { openShared, type Shared } from '../../testing/shared-db';
import { createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';
import { buildApp } from '../../app';
import { testConfig } from '../../testing/test-config';
import { z } from 'zod';
import { beat, runningInstances, thisInstance } from './instances';

describe.each(TEST_DATABASES)('the System page API on %s', (kind) => {
  let t: TestApp;
  let root: SignedIn;
  const status = async (): Promise<SystemStatus> => {
    const res = await t.app.inject({ url: API.adminSystem, headers: { cookie: root.cookie } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    return res.json();
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    root = await createAndSignIn(t.app, t.database, 'system_root', { superUser: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('says what runs: version, database and its migration, storage, ffmpeg, this instance', async () => {
    const s = await status();
    expect(s.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(s.node).toBe(process.version);
    expect(s.database.kind).toBe(kind);
    expect(s.database.size_bytes).toBeGreaterThan(0);
    expect(s.database.migration).toBe(MIGRATIONS.at(-1)![0]);
    expect(s.storage.kind).toBe('local');
    expect(s.storage.free_bytes).toBeGreaterThan(0);
    expect(s.ffmpeg.version).toMatch(/^ffmpeg version \S+$/);
    // This instance beat when it started.
    await expect.poll(async () => (await status()).instances.filter((i) => i.this_one)).toEqual([expect.objectContaining({ pid: process.pid, version: s.version })]);
  });

  it('counts the jobs by state with the oldest waiting, and the broken links', async () => {
    const before = await status();
    const kindDef = { kind: 'system.test', payload: z.object({}) };
    await enqueueJob(t.database, kindDef, {}, { now: Date.parse('2026-01-02T03:04:05Z') });
    await enqueueJob(t.database, kindDef, {});
    const after = await status();
    expect(after.jobs.queued - before.jobs.queued).toBe(2);
    expect(after.jobs.oldest_waiting_at).toBe('2026-01-02T03:04:05.000Z');
    expect(after.links).toEqual({ broken: 0, last_run_at: null });
  });

  it('is for super admins only', async () => {
    const admin = await createAndSignIn(t.app, t.database, 'system_editor');
    expect((await t.app.inject({ url: API.adminSystem, headers: { cookie: admin.cookie } })).statusCode).toBe(403);
    expect((await t.app.inject({ url: API.adminSystem })).statusCode).toBe(401);
  });
});

describe.each(TEST_DATABASES)('instances on one %s database', (kind) => {
  let shared: Shared;
  beforeAll(async () => {
    shared = await openShared(kind);
  });
  afterAll(async () => {
    await shared?.close();
  });

  it('lists every instance that beat in the last minute, and forgets one that stopped', async () => {
    const one = await buildApp(testConfig(), shared.a);
    const two = await buildApp(testConfig(), shared.b);
    const listed = async () => (await runningInstances(shared.a.db)).map((i) => i.id);
    // Each beats as it becomes ready.
    await expect.poll(listed).toHaveLength(2);
    // One silent for longer than a minute is not running.
    const old = thisInstance('0.0.0');
    await beat(shared.a.db, old, new Date(Date.now() - (INSTANCE_SEEN_SECONDS + 5) * 1000));
    expect(await listed()).toHaveLength(2);
    await two.close();
    expect(await listed()).toHaveLength(1);
    await one.close();
    expect(await listed()).toEqual([]);
  });
});
