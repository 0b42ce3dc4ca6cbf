import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API } from '../../../contract/api-paths';
import type { AdminSettings } from '../../../contract/settings';
import { buildApp } from '../../app';
import type { App } from '../../context';
import { type Database, openDatabase } from '../../db/connection';
import { createAndSignIn, type SignedIn } from '../../testing/auth-helpers';
import { createTestApp, type TestApp } from '../../testing/test-utils';

/**
 * A save on one instance is seen by another on the same PostgreSQL within a second (the data
 * version's notifications): its public answer, its legal pages and its page heads, though the
 * other instance had them cached.
 */
describe('settings on two instances of one PostgreSQL', () => {
  let t: TestApp;
  let b: App;
  let bDb: Database | undefined;
  let root: SignedIn;

  beforeAll(async () => {
    const clientDir = mkdtempSync(path.join(tmpdir(), 'rv-settings-twins-'));
    copyFileSync(path.resolve('index.html'), path.join(clientDir, 'index.html'));
    t = await createTestApp('postgres', { clientDir });
    // A real second connection (and listener) where the database is a server; in-process PGlite is shared.
    if (t.config.database.kind === 'postgres') bDb = await openDatabase(t.config.database);
    b = await buildApp(t.config, bDb ?? t.database);
    root = await createAndSignIn(t.app, t.database, 'twin_owner', { superUser: true });
  });
  afterAll(async () => {
    await b?.close();
    await bDb?.close();
    await t?.close();
  });

  it('shows A’s save on B within a second: /api/site, the legal page and the page head', async () => {
    const onB = async () => ({
      site: (await b.inject({ url: API.site })).json(),
      privacy: (await b.inject({ url: API.page('privacy') })).json(),
      head: (await b.inject({ url: '/community' })).body,
    });
    const before = await onB(); // B's caches now hold the defaults
    expect(before.site.name).toBe('Resource Vault');
    const bDatabase = bDb ?? t.database;
    await bDatabase.dataVersion();
    await vi.waitFor(() => expect(bDatabase.dataVersionListening ?? true).toBe(true));

    const current = (await t.app.inject({ url: API.adminSettings, headers: { cookie: root.cookie } })).json<AdminSettings>();
    const saved = await t.app.inject({
      method: 'PATCH',
      url: API.adminSettings,
      headers: { cookie: root.cookie },
      payload: {
        base_version: current.version,
        site: { ...current.site, name: 'Twin Vault' },
        community: [{ name: 'Twin Chat', link: 'https://chat.example.com/', color: '#abcdef', description: 'Both.', icon: 'generic', hidden: false }],
        legal: { ...current.legal, privacy: '# Twin privacy' },
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);

    await expect
      .poll(async () => {
        const now = await onB();
        return [now.site.name, now.site.community.map((c: { name: string }) => c.name), now.privacy.html, now.head.includes('<title>Community - Twin Vault</title>')];
      })
      .toEqual(['Twin Vault', ['Twin Chat'], '<h1 id="twin-privacy">Twin privacy</h1>\n', true]);
  });
});
