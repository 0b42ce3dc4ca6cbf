import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API } from '../../contract/api-paths';
import { createAndSignIn, type SignedIn } from '../testing/auth-helpers';
import { insertResource } from '../testing/resource-fixtures';
import { createTestApp, type TestApp } from '../testing/test-utils';
import { type Database, openDatabase } from './connection';

/**
 * On a PostgreSQL server each instance keeps the data version in memory from the database's
 * notifications (migration 006, connection.ts). Needs a server: TEST_DATABASE_URL (CI sets it);
 * the in-process PGlite used without it reads the version for every request instead.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('data version kept from PostgreSQL notifications', () => {
  let t: TestApp;
  let other: Database; // a second instance (or a script) on the same schema
  let editor: SignedIn;
  const fresh = (db: Database) => db.dataVersion({ fresh: true });

  beforeAll(async () => {
    t = await createTestApp('postgres');
    other = await openDatabase(t.config.database);
    editor = await createAndSignIn(t.app, t.database, 'version_editor');
    await t.database.dataVersion(); // the first read starts listening
    await vi.waitFor(() => expect(t.database.dataVersionListening).toBe(true));
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  it("learns another connection's commit without reading", async () => {
    const before = await fresh(t.database);
    await insertResource(other, { title: 'Written elsewhere' });
    await expect.poll(() => t.database.dataVersion()).toBe(before + 1);
  });

  it('answers from memory: a read-back would wait behind a lock on the counter, this does not', async () => {
    const expected = await fresh(t.database);
    const client = new pg.Client({ connectionString: (t.config.database as { url: string }).url });
    await client.connect();
    try {
      await client.query('begin');
      await client.query('lock table data_version in access exclusive mode');
      const answer = await Promise.race([t.database.dataVersion(), new Promise((r) => setTimeout(() => r('blocked'), 2000))]);
      expect(answer).toBe(expected);
    } finally {
      await client.query('rollback').catch(() => {});
      await client.end();
    }
  });

  it("ignores another schema's bumps (tests and tenants share a database)", async () => {
    const neighbour = await createTestApp('postgres');
    try {
      for (let i = 0; i < 5; i++) await insertResource(neighbour.database, { title: `Neighbour ${i}` });
      await insertResource(other, { title: 'Ours' });
      const ours = await fresh(other);
      await expect.poll(() => t.database.dataVersion()).toBe(ours);
      expect(await fresh(neighbour.database)).toBeGreaterThan(ours);
      expect(await t.database.dataVersion()).toBe(ours);
    } finally {
      await neighbour.close();
    }
  });

  it("sees this instance's admin writes at once, before their answers go out", async () => {
    for (let i = 0; i < 20; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: API.adminResources,
        headers: { cookie: editor.cookie },
        payload: { title: `At once ${i}`, description: 'x', category: 'typography', thumbnail_url: '/thumbnails/1.svg', download_url: 'https://example.com/a.zip', tags: [] },
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(await t.database.dataVersion()).toBe(await fresh(other));
    }
  });

  it('sees writes made through its own database handle at once (tests, seeds, scripts in-process)', async () => {
    for (let i = 0; i < 20; i++) {
      await t.database.db.updateTable('settings').set({ value: JSON.stringify(i) }).where('key', '=', 'footer_year').execute();
      await t.database.db.insertInto('announcements').values({ message: `Own ${i}`, is_active: 1, created_at: new Date().toISOString() }).execute();
      expect(await t.database.dataVersion()).toBe(await fresh(other));
    }
  });

  it('reads while its listening connection is lost, and listens again', async () => {
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      // Every listener on the database goes (other test files' too: they read meanwhile, as designed).
      await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'rv-data-version'`);
      await expect.poll(() => t.database.dataVersionListening).toBe(false);
      await insertResource(other, { title: 'While deaf' });
      expect(await t.database.dataVersion()).toBe(await fresh(other));
      await expect.poll(() => t.database.dataVersionListening, { timeout: 5000 }).toBe(true);
      await insertResource(other, { title: 'Heard again' });
      const now = await fresh(other);
      await expect.poll(() => t.database.dataVersion()).toBe(now);
    } finally {
      await admin.end();
    }
  });
});
