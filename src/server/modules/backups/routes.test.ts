import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import { loadConfig } from '../../config';
import type { BackupList } from '../../../contract/backups';
import { JobKinds } from '../../jobs/kinds';
import { openFileStore } from '../../storage/open';
import { createAndSignIn, type SignedIn } from '../../testing/auth-helpers';
import { createTestApp, tampered, TEST_DATABASES, type TestApp } from '../../testing/test-utils';
import { auditDb } from '../audit/queries';
import { fileServices } from '../files/services';
import { sweepFiles } from '../files/sweep';
import { backupIntoStore, queueBackup } from './job';
import { verifyArchive } from './restore';
import { listBackups } from './store';

describe.each(TEST_DATABASES)('the server’s own backups on %s', (kind) => {
  let t: TestApp;
  let root: SignedIn;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'rv-backup-routes-'));
    t = await createTestApp(kind, { dataDir, backups: { schedule: null, keep: 2 } });
    root = await createAndSignIn(t.app, t.database, 'backup_root', { superUser: true });
  });
  afterAll(async () => {
    await t?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const list = async () => (await t.app.inject({ url: API.adminBackups, headers: { cookie: root.cookie } })).json() as BackupList;

  it('"Back up now" queues one backup (audited), the job writes it into the store, and its signed link downloads it', async () => {
    const queued = await t.app.inject({ method: 'POST', url: API.adminBackups, headers: { cookie: root.cookie } });
    expect(queued.statusCode, queued.body).toBe(202);
    const again = await t.app.inject({ method: 'POST', url: API.adminBackups, headers: { cookie: root.cookie } });
    // Asked twice while it waits or runs: the same job, not a second backup.
    if ((await list()).running) expect(again.json().job_id).toBe(queued.json().job_id);
    const audit = await auditDb(t.database.db).selectFrom('audit_log').select(['action', 'target_type', 'actor_username']).where('action', '=', 'backups.create').execute();
    expect(audit[0]).toEqual({ action: 'backups.create', target_type: 'backup', actor_username: 'backup_root' });

    await expect.poll(async () => (await list()).items.length, { timeout: 30_000 }).toBeGreaterThan(0);
    await expect.poll(async () => (await list()).running, { timeout: 30_000 }).toBe(false);
    const { items, failed } = await list();
    expect(failed).toBeNull();
    const [newest] = items;
    expect(newest!.name).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z\.tar$/);
    const system = (await t.app.inject({ url: API.adminSystem, headers: { cookie: root.cookie } })).json();
    expect(system.backups).toEqual({ last_at: newest!.created_at, count: items.length, running: false });

    const got = await t.app.inject({ url: newest!.download_url });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('application/x-tar');
    expect(got.rawPayload.length).toBe(newest!.size);
    const file = path.join(dataDir, 'downloaded.tar');
    await writeFile(file, got.rawPayload);
    const { manifest } = await verifyArchive(file);
    expect(manifest.rows.admins).toBe(1);

    const forged = await t.app.inject({ url: tampered(newest!.download_url) });
    expect(forged.statusCode).toBe(403);
    expect(forged.json().error.code).toBe('FORBIDDEN');
  });

  it('keeps the newest BACKUP_KEEP', async () => {
    const files = openFileStore(t.config).files;
    for (const at of ['2026-01-01T03:00:00Z', '2026-01-02T03:00:00Z', '2026-01-03T03:00:00Z']) {
      await backupIntoStore({ config: t.config, database: t.database, files, jobs: new JobKinds() }, { now: new Date(at) });
    }
    const names = (await listBackups(files)).map((b) => b.name);
    expect(names).toHaveLength(2);
    expect(names.every((n) => !n.startsWith('2026-01-01'))).toBe(true);
    // The orphan sweep, a year on and with no grace, leaves them be.
    const ctx = { config: t.config, database: t.database, files, jobs: new JobKinds() };
    await sweepFiles(ctx, fileServices(ctx).uploads, { nowMs: Date.now() + 365 * 86_400_000, graceMs: 0 });
    expect((await listBackups(files)).map((b) => b.name)).toEqual(names);
  });

  it('queues a scheduled time once, however many instances ask', async () => {
    await expect.poll(async () => (await list()).running, { timeout: 30_000 }).toBe(false);
    const slot = '2026-02-01T03:00:00.000Z';
    const asked = await Promise.all([queueBackup(t.database, { slot }), queueBackup(t.database, { slot })]);
    expect(asked.filter((a) => a.queued)).toHaveLength(1);
    expect((await queueBackup(t.database, { slot })).queued).toBe(false);
  });
});

describe('BACKUP_SCHEDULE and BACKUP_KEEP', () => {
  const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: os.tmpdir(), SESSION_SECRET: 'config-test-secret-0123456789abcdefghijkl', ...env }).backups;
  it('are off and 7 unless set; a cron expression and a count when set; one line naming a bad one', () => {
    expect(load({})).toEqual({ schedule: null, keep: 7 });
    expect(load({ BACKUP_SCHEDULE: 'off' })).toEqual({ schedule: null, keep: 7 });
    expect(load({ BACKUP_SCHEDULE: '0 2 * * *', BACKUP_KEEP: '3' })).toEqual({ schedule: '0 2 * * *', keep: 3 });
    expect(() => load({ BACKUP_SCHEDULE: 'nightly' })).toThrow(/^Invalid configuration: BACKUP_SCHEDULE must be a cron expression/);
    expect(() => load({ BACKUP_KEEP: '0' })).toThrow('Invalid configuration: BACKUP_KEEP must be a whole number from 1 to 1000');
  });
});

describe('a scheduled backup', () => {
  it('is written by the server itself at the scheduled time', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rv-backup-schedule-'));
    const t = await createTestApp('sqlite', { dataDir, backups: { schedule: '* * * * * *', keep: 7 } });
    try {
      await t.app.ready();
      const files = openFileStore(t.config).files;
      await expect.poll(async () => (await listBackups(files)).length, { timeout: 30_000 }).toBeGreaterThan(0);
      const jobs = await t.database.db.selectFrom('media_jobs').select('subject').where('kind', '=', 'backup').execute();
      expect(jobs[0]!.subject).toMatch(/^scheduled:\d{4}-\d{2}-\d{2}T/);
    } finally {
      await t.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
