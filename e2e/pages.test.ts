import type { SiteSettings } from '@contract/site';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, useBrowserServer, openPage, screenshot } from './harness';
/** The machine is shared and busy: give the UI time (Vitest's default poll gives up after 1 s). */
const poll = <T>(fn: () => T | Promise<T>, timeout = 10_000) => expect.poll(fn, { timeout });

/** The server answers unknown paths with HTTP 404 (and the SPA's page), which Chromium logs as a console error. */
const NOT_FOUND_DOCUMENT = /Failed to load resource: the server responded with a status of 404/;

describe('small public pages', () => {
  const env = useBrowserServer();
  let site: SiteSettings;

  beforeAll(async () => {
    site = (await (await fetch(`${env.server.url}/api/site`)).json()) as SiteSettings;
  });

  it('Community: eight cards from the site settings, each with a Join Now → link opening in a new tab', async () => {
    expect(site.community).toHaveLength(8);
    for (const [viewport, colorScheme] of [
      ['desktop', 'light'],
      ['mobile', 'dark'],
    ] as const) {
      const s = await openPage(env.browser, env.server.url, { viewport, colorScheme });
      const { page } = s;
      await page.goto('/community');
      await poll(() => page.title()).toBe(`Community - ${site.name}`);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Join Our Community');
      const main = page.getByRole('main');
      await poll(() => main.getByRole('listitem').filter({ has: page.getByRole('heading') }).count()).toBe(8);
      for (const c of site.community) {
        const card = main.getByRole('listitem').filter({ has: page.getByRole('heading', { name: c.name, exact: true }) });
        await poll(() => card.getByText(c.description).isVisible()).toBe(true);
        const join = card.getByRole('link', { name: 'Join Now →' });
        expect(await join.getAttribute('href')).toBe(c.link);
        expect(await join.getAttribute('target')).toBe('_blank');
        expect((await join.getAttribute('rel'))?.split(' ').sort()).toEqual(['noopener', 'noreferrer']);
      }
      await screenshot(page, `pages-community-${viewport}-${colorScheme}`);
      s.expectNoConsoleErrors();
      await s.close();
    }
  });

  it('Community: says so and offers a retry when the links cannot be loaded', async () => {
    const s = await openPage(env.browser, env.server.url);
    const { page } = s;
    await page.route('**/api/site', (route) => route.fulfill({ status: 404, contentType: 'application/json', body: '{"error":{"code":"NOT_FOUND","message":"gone"}}' }));
    // The page normally arrives with the site settings in its data; without them the app asks /api/site.
    await page.route(
      (url) => url.pathname === '/community',
      async (route) => {
        const res = await route.fetch();
        const html = (await res.text()).replace(/<script type="application\/json" id="rv-initial-data">[\s\S]*?<\/script>/, '');
        await route.fulfill({ response: res, body: html });
      },
    );
    await page.goto('/community');
    await poll(() => page.getByRole('alert').filter({ hasText: "couldn't load the community links" }).isVisible()).toBe(true);
    await page.unroute('**/api/site');
    await page.getByRole('button', { name: 'Try Again' }).click();
    await poll(() => page.getByRole('link', { name: 'Join Now →' }).count()).toBe(8);
    s.expectNoConsoleErrors([/Failed to load resource/]);
    await s.close();
  });

  // Needs GET /api/pages/:page (the settings server, issue 29).
  it("Privacy Policy and Terms of Service: the owner's Markdown as the server renders it, dated, reachable from the footer", async () => {
    const s = await openPage(env.browser, env.server.url);
    const { page } = s;
    await page.goto('/community');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' }).click();
    await page.waitForURL('**/privacy');
    await poll(() => page.title()).toBe(`Privacy Policy - ${site.name}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Privacy Policy');
    await poll(() => page.getByText(/^Last updated: /).isVisible()).toBe(true);
    expect(await page.getByRole('article').getByRole('heading').count()).toBeGreaterThanOrEqual(3);
    await screenshot(page, 'pages-privacy-desktop-light');

    await page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Service' }).click();
    await page.waitForURL('**/terms');
    await poll(() => page.title()).toBe(`Terms of Service - ${site.name}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Terms of Service');
    await poll(() => page.getByRole('article').getByRole('heading').count()).toBeGreaterThanOrEqual(3);
    s.expectNoConsoleErrors();
    await s.close();

    const m = await openPage(env.browser, env.server.url, { viewport: 'mobile', colorScheme: 'dark' });
    await m.page.goto('/terms');
    await poll(() => m.page.title()).toBe(`Terms of Service - ${site.name}`);
    await screenshot(m.page, 'pages-terms-mobile-dark');
    m.expectNoConsoleErrors();
    await m.close();
  });

  it('Coming Soon: full screen, with scrolling rows of thumbnails that stand still under reduced motion', async () => {
    const s = await openPage(env.browser, env.server.url, { colorScheme: 'dark', reducedMotion: 'no-preference' });
    const { page } = s;
    await page.goto('/coming-soon');
    await poll(() => page.title()).toBe(`Coming Soon - ${site.name}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Coming Soon');
    expect(await page.getByText('Get ready for something amazing').isVisible()).toBe(true);
    // Full screen: no site header or footer.
    expect(await page.getByRole('contentinfo').count()).toBe(0);
    expect(await page.getByRole('button', { name: /Notifications/ }).count()).toBe(0);

    const images = page.locator('main img');
    expect(await images.count()).toBe(48);
    const srcs = new Set(await images.evaluateAll((imgs) => imgs.map((i) => i.getAttribute('src'))));
    expect([...srcs].sort()).toEqual(Array.from({ length: 24 }, (_, i) => `/thumbnails/${i + 1}.svg`).sort());
    await poll(() => images.evaluateAll((imgs) => (imgs as HTMLImageElement[]).every((i) => i.complete && i.naturalWidth > 0)))
      .toBe(true);
    const track = page.locator('.coming-soon-track').first();
    expect(await track.evaluate((t) => getComputedStyle(t).animationName)).toBe('coming-soon-marquee');
    const before = await track.evaluate((t) => getComputedStyle(t).transform);
    await poll(() => track.evaluate((t) => getComputedStyle(t).transform)).not.toBe(before);
    await screenshot(page, 'pages-coming-soon-desktop-dark');

    await page.getByRole('link', { name: 'Back to Home' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    s.expectNoConsoleErrors();
    await s.close();

    const still = await openPage(env.browser, env.server.url, { viewport: 'mobile', reducedMotion: 'reduce' });
    await still.page.goto('/coming-soon');
    await poll(() => still.page.getByRole('heading', { name: 'Coming Soon' }).isVisible()).toBe(true);
    expect(await still.page.locator('.coming-soon-track').first().evaluate((t) => getComputedStyle(t).animationName)).toBe('none');
    await screenshot(still.page, 'pages-coming-soon-mobile-light');
    still.expectNoConsoleErrors();
    await still.close();
  });

  it('an unknown path shows the 404 page with a way home', async () => {
    const s = await openPage(env.browser, env.server.url, { viewport: 'mobile' });
    const { page } = s;
    const res = await page.goto('/no/such/page');
    expect(res?.status()).toBe(404);
    await poll(() => page.title()).toBe(`Page Not Found - ${site.name}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Page not found');
    await screenshot(page, 'pages-not-found-mobile-light');
    await page.getByRole('link', { name: 'Back to Home' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await poll(() => page.title()).not.toBe(`Page Not Found - ${site.name}`);
    s.expectNoConsoleErrors([NOT_FOUND_DOCUMENT]);
    await s.close();
  });

  const A11Y_PAGES = [
    ['/community', 'Join Our Community'],
    ['/privacy', 'Privacy Policy'],
    ['/terms', 'Terms of Service'],
    ['/coming-soon', 'Coming Soon'],
    ['/missing-page', 'Page not found'],
  ] as const;
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const [path, h1] of A11Y_PAGES) {
      it(`${path} has no serious or critical accessibility violation (${colorScheme})`, async () => {
        const s = await openPage(env.browser, env.server.url, { colorScheme, reducedMotion: 'reduce' });
        const { page } = s;
        await page.goto(path);
        await poll(() => page.getByRole('heading', { level: 1, name: h1 }).isVisible()).toBe(true);
        if (path === '/community') await poll(() => page.getByRole('link', { name: 'Join Now →' }).count()).toBe(8);
        await expectAccessible(page);
        await screenshot(page, `pages-${path.slice(1)}-desktop-${colorScheme}`);
        s.expectNoConsoleErrors([NOT_FOUND_DOCUMENT]);
        await s.close();
      });
    }
  }
});
