import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowserServer, openPage } from './harness';

/**
 * Public pages arrive rendered by the server with their data (src/client/app/render.tsx, src/server/modules/spa),
 * so they paint before any JavaScript runs; the app then hydrates that markup with the same data: same nodes,
 * nothing moves, nothing is fetched again.
 */
describe('server-rendered first frame', () => {
  const env = useBrowserServer();

  const html = async (path: string) => {
    const res = await fetch(env.server.url + path);
    return { status: res.status, body: await res.text() };
  };

  const initialData = (body: string) => {
    const m = /<script type="application\/json" id="rv-initial-data">([^<]*)<\/script>/.exec(body);
    return m ? (JSON.parse(m[1]) as { now: number; queries: { key: unknown[]; data: unknown }[] }) : undefined;
  };

  it("puts the page, rendered with its data, and that data in the server's HTML", async () => {
    const home = await html('/');
    expect(home.status).toBe(200);
    expect(home.body).toMatch(/<h1 id="hero-heading"[^>]*><span class="block">PREMIUM<\/span> <span class="block">RESOURCES<\/span><\/h1>/);
    expect(home.body).toContain('Browse Categories');
    expect(home.body).not.toContain('data-testid="count-skeleton"');
    const homeData = initialData(home.body)!;
    expect(homeData.queries.map((q) => q.key)).toEqual([['site'], ['categories'], ['announcements', 'active']]);

    // The category page's first cards (the LCP image) are in the HTML, for the URL's filters too.
    const category = await html('/categories/video-editing');
    expect(category.body).toMatch(/<h1[^>]*>Video Editing<\/h1>/);
    expect(category.body).not.toContain('aria-label="Loading resources"');
    const list = initialData(category.body)!.queries[3].data as { pages: { items: { id: number; title: string }[] }[] };
    expect(list.pages[0].items).toHaveLength(24);
    expect(category.body).toContain(`src="/thumbnails/${list.pages[0].items[0].id}.svg"`);
    const api = (await (await fetch(`${env.server.url}/api/resources?category=video_editing&sort=popular&limit=24`)).json()) as { items: { id: number }[] };
    expect(list.pages[0].items.map((r) => r.id)).toEqual(api.items.map((r) => r.id));

    const newest = await html('/categories/video-editing?sort=newest&tags=zzz-not-a-tag');
    const newestData = initialData(newest.body)!.queries[3];
    expect(newestData.key).toEqual(['resources', 'list', { category: 'video_editing', q: '', tags: [], sort: 'newest' }]);

    for (const path of ['/admin/login', '/no-such-page']) {
      const page = await html(path);
      expect(page.body, path).toContain('<div id="root"></div>');
      expect(initialData(page.body), path).toBeUndefined();
    }
  });

  it('escapes data so no text can close the JSON script or inject markup', async () => {
    const hostile = '</script><script>alert(1)</script><!-- <img src=x onerror=alert(2)>';
    const { db } = env.server.database;
    const target = await db.selectFrom('resources').select('id').where('category', '=', 'video_editing').orderBy('id').executeTakeFirstOrThrow();
    // Cached before (the first test rendered it): a data change must re-render it, whatever the query says.
    const before = initialData((await html('/categories/video-editing')).body)!;
    await db.updateTable('resources').set({ title: hostile, popularity: 1_000_000_000 }).where('id', '=', target.id).execute();
    const after = await html('/categories/video-editing?utm_source=test');
    const firstCards = (d: ReturnType<typeof initialData>) => (d!.queries[3].data as { pages: { items: { title: string }[] }[] }).pages[0].items;
    expect(firstCards(before)[0].title).not.toBe(hostile);
    expect(firstCards(initialData(after.body))[0].title).toBe(hostile);
    expect(after.body).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    const page = await html('/categories/video-editing?q=' + encodeURIComponent('alert(1)'));
    expect(page.body).not.toContain('<script>alert');
    expect(page.body).not.toContain('<img src=x');
    const data = initialData(page.body)!;
    const list = data.queries[3].data as { pages: { items: { title: string }[] }[] };
    expect(list.pages[0].items.map((r) => r.title)).toContain(hostile);

    const s = await openPage(env.browser, env.server.url, { viewport: 'mobile' });
    let dialogs = 0;
    s.page.on('dialog', (d) => {
      dialogs++;
      void d.dismiss();
    });
    await s.page.goto('/categories/video-editing?q=' + encodeURIComponent('alert(1)'), { waitUntil: 'networkidle' });
    expect(await s.page.getByRole('heading', { level: 2, name: hostile }).count()).toBe(1);
    expect(dialogs).toBe(0);
    s.expectNoConsoleErrors();
    await s.close();
  });

  it('shows the hero with JavaScript off', async () => {
    const context = await env.browser.newContext({ javaScriptEnabled: false, baseURL: env.server.url });
    const page = await context.newPage();
    await page.goto('/');
    const heading = page.getByRole('heading', { level: 1, name: 'PREMIUM RESOURCES' });
    expect(await heading.isVisible()).toBe(true);
    await context.close();
  });

  /** A resource's page (its address is read from the API when the test runs). */
  const RESOURCE_PAGE = 'a resource page';
  const resourcePage = async () => {
    const res = await fetch(`${env.server.url}/api/resources?category=video_editing&limit=1`);
    return ((await res.json()) as { items: { url: string }[] }).items[0].url;
  };

  for (const path of ['/', '/categories/video-editing', '/categories/video-editing?sort=newest', RESOURCE_PAGE]) {
    it(`the app hydrates ${path}: same nodes, no layout shift, no refetch, no console error`, async () => {
      const s = await openPage(env.browser, env.server.url, { viewport: 'mobile' });
      await s.page.addInitScript(() => {
        const w = window as unknown as { __shift: number };
        w.__shift = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
            if (!e.hadRecentInput) w.__shift += e.value;
          }
        }).observe({ type: 'layout-shift', buffered: true });
      });
      const apiReads: string[] = [];
      s.page.on('request', (r) => {
        const url = new URL(r.url());
        if (url.pathname.startsWith('/api/') && url.pathname !== '/api/resources/premium') apiReads.push(url.pathname + url.search);
      });
      await s.page.goto(path === RESOURCE_PAGE ? await resourcePage() : path);
      const h1 = s.page.getByRole('heading', { level: 1 });
      const served = (await h1.boundingBox())!;
      const serverNode = await h1.elementHandle();
      // Hydrated: the data script has been read (and removed) and the header's browser-only buttons are in.
      await expect.poll(() => s.page.locator('#rv-initial-data').count(), { timeout: 20_000 }).toBe(0);
      await s.page.waitForLoadState('networkidle');
      expect(await serverNode!.evaluate((el) => el.isConnected)).toBe(true);
      expect(await h1.count()).toBe(1);
      const live = (await h1.boundingBox())!;
      for (const k of ['x', 'y', 'width', 'height'] as const) expect(Math.abs(live[k] - served[k]), k).toBeLessThanOrEqual(0.5);
      expect(await s.page.evaluate(() => (window as unknown as { __shift: number }).__shift)).toBeLessThan(0.01);
      // The server's data is the first render's data: nothing is read again on load.
      expect(apiReads).toEqual([]);
      s.expectNoConsoleErrors();
      await s.close();
    });
  }

  it('hydrates without a mismatch for a visitor with a stored dark theme and dismissed announcements', async () => {
    const s = await openPage(env.browser, env.server.url, { viewport: 'desktop' });
    await s.page.addInitScript(() => {
      localStorage.setItem('vite-ui-theme', 'dark');
      localStorage.setItem('dismissed-announcements', '[1,2,3]');
    });
    await s.page.goto('/', { waitUntil: 'networkidle' });
    await expect.poll(() => s.page.getByRole('button', { name: /theme/i }).count(), { timeout: 20_000 }).toBeGreaterThan(0);
    expect(await s.page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    s.expectNoConsoleErrors();
    await s.close();
  });

  /** Holds the app's code (the boot chunk) until the returned function is called. */
  async function holdAppCode(page: Page): Promise<() => void> {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    await page.route(/\/assets\/boot-[^/]+\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    return release;
  }

  it('a tap on a server-rendered button before the app has started is replayed once it has', async () => {
    const s = await openPage(env.browser, env.server.url, { viewport: 'mobile' });
    // Hold the app's code so the tap surely lands on the server's markup.
    const release = await holdAppCode(s.page);
    await s.page.goto('/');
    await s.page.getByRole('button', { name: 'Open menu' }).click();
    release();
    await expect.poll(() => s.page.getByRole('dialog', { name: 'Menu' }).isVisible(), { timeout: 20_000 }).toBe(true);
    s.expectNoConsoleErrors();
    await s.close();
  });

  it('text typed into a server-rendered search box before the app has started is kept and searched', async () => {
    const s = await openPage(env.browser, env.server.url, { viewport: 'mobile' });
    const release = await holdAppCode(s.page);
    await s.page.goto('/');
    const search = s.page.getByPlaceholder('Search categories or resources...');
    await search.fill('AMV');
    release();
    await s.page.locator('#root[data-live]').waitFor({ state: 'attached', timeout: 20_000 });
    const titles = () => s.page.getByRole('list', { name: 'Categories' }).getByRole('link').locator('h3').allTextContents();
    await expect.poll(titles, { timeout: 5_000 }).toEqual(['Anime Edits']);
    expect(await search.inputValue()).toBe('AMV');
    s.expectNoConsoleErrors();
    await s.close();
  });
});
