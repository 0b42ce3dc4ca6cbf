import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import type { AdminSettings } from '../../../contract/settings';
import { createAndSignIn, type SignedIn } from '../../testing/auth-helpers';
import { createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';

/**
 * A save is seen on the next server-rendered page (the built client's render bundle, as npm test
 * builds it first): the render cache is keyed by the answers' ETags, which a save changes.
 */
describe.each(TEST_DATABASES)('server-rendered pages after a settings save on %s', (kind) => {
  let t: TestApp;
  let root: SignedIn;
  beforeAll(async () => {
    t = await createTestApp(kind);
    root = await createAndSignIn(t.app, t.database, 'ssr_owner', { superUser: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('renders the saved community cards and name on /community', async () => {
    expect(existsSync(path.join(t.config.clientDir, 'ssr', 'render.js')), `build the client into ${t.config.clientDir} first (npm run build)`).toBe(true);
    const before = (await t.app.inject({ url: '/community' })).body;
    expect(before).toContain('Discord');
    expect(before).not.toContain('Ferret Club');

    const current = (await t.app.inject({ url: API.adminSettings, headers: { cookie: root.cookie } })).json<AdminSettings>();
    const res = await t.app.inject({
      method: 'PATCH',
      url: API.adminSettings,
      headers: { cookie: root.cookie },
      payload: {
        site: { ...current.site, name: 'Ferret Vault' },
        community: [{ name: 'Ferret Club', link: 'https://ferrets.example.com/', color: '#aa5500', description: 'All about ferrets.', icon: 'generic', hidden: false }],
      },
    });
    expect(res.statusCode, res.body).toBe(200);

    const after = (await t.app.inject({ url: '/community' })).body;
    const markup = after.slice(after.indexOf('<div id="root">'), after.indexOf('id="rv-initial-data"'));
    expect(markup).toContain('Ferret Club');
    expect(markup).toContain('All about ferrets.');
    expect(markup).toContain('https://ferrets.example.com/');
    expect(markup).not.toContain('Chat with creators, share work and get feedback.');
    expect(after).toContain('<title>Community - Ferret Vault</title>');
  });
});
