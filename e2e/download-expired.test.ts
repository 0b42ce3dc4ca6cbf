import { describe, expect, it } from 'vitest';
import { resourcePath } from '../src/contract/resource-page';
import { nowIso } from '../src/server/time';
import { resolveSessionSecret } from '../src/server/modules/auth/secret';
import { linkSigner } from '../src/server/modules/files/links';
import { expectAccessible, openPage, screenshot, useBrowserServer } from './harness';

/** The machine is shared and busy: give the UI time (Vitest's default poll gives up after 1 s). */
const poll = <T>(fn: () => T | Promise<T>, timeout = 10_000) => expect.poll(fn, { timeout });

describe('an expired download link opened in the browser', () => {
  const env = useBrowserServer();

  /** A demo resource given a hosted download, and a link to it signed an hour ago (expired). */
  async function expiredLink() {
    const { db } = env.server.database;
    const resource = await db.selectFrom('resources').select(['id', 'title']).where('category', '=', 'typography').orderBy('id').executeTakeFirstOrThrow();
    const file = await db
      .insertInto('files')
      .values({ key: 'downloads/expired-e2e.zip', kind: 'download', name: 'pack.zip', size: 10, sha256: '0'.repeat(64), content_type: 'application/zip', image: null, created_at: nowIso(), detached_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.updateTable('resources').set({ download_file_id: file.id }).where('id', '=', resource.id).execute();
    const secret = await resolveSessionSecret(env.server.config, env.server.database);
    const token = linkSigner(secret).sign(Number(file.id), Date.now() - 3_600_000);
    return { resource: { id: Number(resource.id), title: resource.title }, token };
  }

  it("shows the site's page saying so, server-rendered, with the way back to the resource; a tampered link offers home", async () => {
    const { resource, token } = await expiredLink();
    const s = await openPage(env.browser, env.server.url);
    const { page } = s;
    const answer = await page.goto(`/api/files/${token}`);
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(`/download-expired?resource=${resource.id}`);
    // The page arrives rendered: the message and the resource's name are in the HTML itself.
    const html = (await answer!.text()).replace(/<!-- -->/g, '');
    expect(html).toContain('This download link has expired');
    expect(html).toContain(resource.title);
    expect(html).toContain('<meta name="robots" content="noindex" />');
    await poll(() => page.title()).toMatch(/^Download Link Expired - /);
    const main = page.getByRole('main');
    expect(await main.getByRole('heading', { level: 1 }).textContent()).toBe('This download link has expired');
    await poll(() => main.getByText(resource.title).isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'download-expired-desktop-light');
    await main.getByRole('link', { name: 'Back to the resource' }).click();
    await poll(() => new URL(page.url()).pathname).toBe(resourcePath(resource));
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(resource.title);

    const [fileId, expires, mac] = token.split('.');
    await page.goto(`/api/files/${fileId}.${Number(expires) + 7200}.${mac}`);
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/download-expired');
    await poll(() => main.getByRole('link', { name: 'Back to Home' }).isVisible()).toBe(true);
    expect(await main.getByRole('link', { name: 'Back to the resource' }).count()).toBe(0);
    // Every request the page makes has been answered (it asked for /api/resources/0 and logged a 400).
    await page.waitForLoadState('networkidle');
    s.expectNoConsoleErrors();
    await s.close();
  });
});
