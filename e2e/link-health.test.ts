import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../src/contract/api-paths';
import type { LinkHealth } from '../src/contract/links';
import type { Resource } from '../src/contract/resources';
import { expectAccessible, openPage, unique, useAdminSessions, useBrowserServer, waitLive } from './harness';

/**
 * Link health (issue 32) in a real browser: a visitor reports a broken link from the resource page
 * (by keyboard), the re-check it queues finds the link broken, and the admin sees it in the
 * dashboard's count, on the Link health page and under the resource list's "Broken links" filter.
 * The far end is a local HTTP server (127.0.0.1, the tests' one private address allowed).
 */
const SLOW = 150_000;

describe('link health in a real browser', () => {
  let farEnd: http.Server;
  let far = '';
  beforeAll(async () => {
    farEnd = http.createServer((req, res) => res.writeHead(req.url?.startsWith('/gone') ? 404 : 200).end());
    await new Promise<void>((resolve) => farEnd.listen(0, '127.0.0.1', resolve));
    far = `http://127.0.0.1:${(farEnd.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    farEnd.closeAllConnections();
    await new Promise((resolve) => farEnd.close(resolve));
  });

  const env = useBrowserServer({ linkChecks: { schedule: null, allowPrivate: false, allowAddresses: ['127.0.0.1'], timeoutMs: 5000, hostIntervalMs: 0 } });
  const { openAsAdmin, cookieHeader } = useAdminSessions(env);

  async function adminApi<T>(path: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
    const res = await fetch(env.server.url + path, { ...init, headers: { cookie: cookieHeader(), ...(init.body ? { 'content-type': 'application/json' } : {}) } });
    return { status: res.status, body: (await res.json()) as T };
  }
  async function createResource(title: string, download: string): Promise<Resource> {
    const { status, body } = await adminApi<Resource>(API.adminResources, {
      method: 'POST',
      body: JSON.stringify({ title, description: 'Made by the link health browser test.', category: 'typography', thumbnail_url: '/thumbnails/1.svg', download_url: download }),
    });
    expect(status).toBe(201);
    return body;
  }

  it(
    'a visitor reports a broken link; the admin sees it counted, listed and filtered',
    async () => {
      const broken = await createResource(unique('Gone Font Pack'), `${far}/gone.zip`);
      const fine = await createResource(unique('Fine Font Pack'), `${far}/fine.zip`);

      // The visitor: the action sits by the download, works from the keyboard, and thanks them.
      const visitor = await openPage(env.browser, env.server.url);
      await visitor.page.goto(broken.url);
      await visitor.page.getByRole('heading', { level: 1, name: broken.title }).waitFor();
      await waitLive(visitor.page);
      const report = visitor.page.getByRole('complementary', { name: 'Download' }).getByRole('button', { name: 'Report a broken link' });
      await report.focus();
      await visitor.page.keyboard.press('Enter');
      await visitor.page.getByRole('status').filter({ hasText: 'Thanks — we will check this link.' }).waitFor();
      await expectAccessible(visitor.page);
      visitor.expectNoConsoleErrors();
      await visitor.close();

      // The re-check it queued runs on the server's job worker.
      await expect
        .poll(async () => (await adminApi<LinkHealth>(API.adminLinkHealth)).body.items.map((i) => i.resource_id), { timeout: 30_000, interval: 200 })
        .toEqual([broken.id]);

      const s = await openAsAdmin();
      const { page } = s;
      await page.goto('/admin/dashboard');
      const card = page.getByRole('link', { name: /Link health/ });
      await card.getByText('1 broken link among external download and thumbnail links').waitFor();
      await card.click();
      await page.getByRole('heading', { level: 1, name: 'Link health' }).waitFor();
      const row = page.getByRole('row').filter({ hasText: broken.title });
      await row.getByText('The server answered 404 Not Found').waitFor();
      await page.getByRole('button', { name: 'Check now' }).waitFor();
      await expectAccessible(page);

      // The resource list's filter is the server's: only the broken one is listed.
      await page.goto('/admin/resources/typography');
      await page.getByRole('row').filter({ hasText: fine.title }).waitFor();
      const filter = page.getByRole('button', { name: 'Broken links' });
      await filter.click();
      await expect.poll(() => filter.getAttribute('aria-pressed')).toBe('true');
      await page.waitForURL(/links=broken/);
      await page.getByRole('row').filter({ hasText: broken.title }).waitFor();
      await page.getByRole('row').filter({ hasText: fine.title }).waitFor({ state: 'detached' });
      expect(await page.getByRole('row').filter({ hasText: /Font Pack/ }).count()).toBe(1);

      s.expectNoConsoleErrors();
      await s.close();
    },
    SLOW,
  );
});
