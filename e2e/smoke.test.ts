import { describe, expect, it } from 'vitest';
import { useBrowserServer, openPage } from './harness';

describe('the built site in a real browser', () => {
  const env = useBrowserServer();

  it('loads the home page with the server-rendered title, applies the theme before paint, without console errors', async () => {
    const s = await openPage(env.browser, env.server.url, { colorScheme: 'dark' });
    const res = await s.page.goto('/');
    expect(res?.status()).toBe(200);
    await expect.poll(() => s.page.title()).toBe('Premium Resources for Creators - Resource Vault');
    expect(await s.page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    s.expectNoConsoleErrors();
    await s.close();
  });

  it('a short search whose first stretch matches nothing keeps reading instead of saying "No resources found"', async () => {
    const s = await openPage(env.browser, env.server.url);
    const asked: string[] = [];
    // The server reads a bounded stretch per request for a 1–2 character q; at a million rows the first
    // stretch can hold no match. Here: the first answer is such an empty page; the next one is real.
    await s.page.route(
      (url) => url.pathname === '/api/resources' && url.searchParams.get('q') === 'zq',
      async (route) => {
        const url = new URL(route.request().url());
        asked.push(url.searchParams.get('cursor') ?? 'first');
        if (!url.searchParams.has('cursor')) {
          await route.fulfill({ json: { items: [], total: 0, totalExact: false, nextCursor: 'more' } });
          return;
        }
        url.searchParams.set('q', 'Retro');
        url.searchParams.delete('cursor');
        await route.continue({ url: url.toString() });
      },
    );
    await s.page.goto('/categories/video-editing');
    await s.page.getByRole('searchbox', { name: 'Search resources', exact: true }).fill('zq');
    await expect.poll(() => asked, { timeout: 15_000 }).toEqual(['first', 'more']);
    await expect.poll(() => s.page.getByText(/^Showing \d+ of/).textContent()).toMatch(/^Showing [1-9]/);
    expect(await s.page.getByText('No resources found').count()).toBe(0);
    s.expectNoConsoleErrors();
    await s.close();
  });
});
