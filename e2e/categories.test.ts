import type { Locator, Page, Request, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { API } from '../src/contract/api-paths';
import { type CategoryInfo, PUBLIC_CATEGORIES } from '../src/contract/categories';
import { PAGE_SIZE, SKELETON_COUNT } from '../src/contract/constants';
import type { DownloadResponse, ResourceList } from '../src/contract/resources';
import type { CategoryList } from '../src/contract/site';
import { ADMIN, expectAccessible, installClock, nextFrame, pageSettled, useBrowserServer, openPage, screenshot, type Session, skipWait, typeKeysApart, VIEWPORTS } from './harness';

const SITE_NAME = 'Resource Vault';
const LOAD_ERROR = 'Failed to load resources. Please try again later.';
/** Chromium reports every failed HTTP response on the console; expected where a test injects a failure. */
const NETWORK_FAILURE = [/Failed to load resource/];
/** Seven page loads, or a full axe run, on a shared 2-core machine. */
const SLOW_TEST_MS = 120_000;

const VIDEO = PUBLIC_CATEGORIES.find((c) => c.value === 'video_editing')!;
/** Demo data: Video Editing has the spec's 234 resources (PRODUCT.md). */
const VIDEO_TOTAL = 234;
const number = (n: number) => new Intl.NumberFormat('en-US').format(n);

describe('category pages', () => {
  const env = useBrowserServer();

  // From the database: public API answers may show a count up to PUBLIC_CACHE_MAX_AGE_MS old.
  const downloadCount = async (id: number) =>
    Number((await env.server.database.db.selectFrom('resources').select('download_count').where('id', '=', id).executeTakeFirstOrThrow()).download_count);

  async function apiGet<T>(path: string): Promise<T> {
    const res = await fetch(env.server.url + path);
    expect(res.status, path).toBe(200);
    return (await res.json()) as T;
  }

  function listPath(c: CategoryInfo, params: Record<string, string> = {}) {
    return `${API.resources}?${new URLSearchParams({ category: c.value, limit: String(PAGE_SIZE), ...params })}`;
  }

  const isListRequest = (url: URL) => url.pathname === API.resources;

  const grid = (page: Page) => page.getByRole('list', { name: 'Resources', exact: true });
  const cards = (page: Page) => grid(page).locator(':scope > li');
  const card = (page: Page, i: number) => cards(page).nth(i);
  const summary = (page: Page) => page.getByRole('heading', { level: 2, name: /^[\d,]+ resources?\b/ });
  /** The results line as seen (phones leave out the sort, which the select shows). */
  const expectSummary = (page: Page, total: number, q?: string) =>
    expect
      .poll(() => summary(page).innerText())
      .toMatch(new RegExp(`^${number(total)} resources?${q ? ` for “${q}”` : ''}( · [A-Za-z ]+)?$`));
  const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search resources' });
  const sortSelect = (page: Page) => page.getByRole('combobox', { name: 'Sort by' });
  const chip = (page: Page, tag: string) => page.getByRole('group', { name: 'Filter by tag' }).getByRole('button', { name: tag, exact: true });
  const toastRegion = (page: Page) => page.getByRole('region', { name: /Notifications \(F8\)/ });

  /** The page comes rendered by the server; interacting waits for the app to have hydrated it. */
  async function openCategory(s: Session, c: CategoryInfo, query = '') {
    await s.page.goto(`/categories/${c.slug}${query}`);
    await card(s.page, 0).waitFor();
    await s.page.locator('#root[data-live]').waitFor({ state: 'attached' });
  }

  /**
   * A category opened from home inside the app: its list is read by the browser (a first visit
   * gets it in the server's HTML), so this is where the loading and error states show.
   */
  async function openCategoryFromHome(s: Session, c: CategoryInfo) {
    await s.page.goto('/');
    await s.page.locator('#root[data-live]').waitFor({ state: 'attached' });
    await s.page.locator(`main a[href="/categories/${c.slug}"]`).first().click();
    await s.page.waitForURL(`**/categories/${c.slug}`);
  }

  /** Thumbnail paths of the cards on screen, in order: one per resource, so they identify them. */
  const shownThumbnails = (page: Page) => grid(page).locator(':scope > li img').evaluateAll((imgs) => imgs.map((i) => i.getAttribute('src')));
  const cardTitles = (page: Page) => grid(page).locator(':scope > li h2').allTextContents();
  const downloadsOn = async (c: Locator) => Number((await c.getByText(/^[\d,]+ downloads?$/).textContent())!.replace(/\D/g, ''));
  const searchParam = (page: Page, key: string) => new URL(page.url()).searchParams.get(key);

  /** Holds every matching request until release(): what the page shows while it waits. */
  async function holdRequests(page: Page, match: (url: URL) => boolean, method = 'GET') {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const held: Request[] = [];
    const handler = async (route: Route) => {
      if (route.request().method() !== method) return route.fallback();
      held.push(route.request());
      await released;
      await route.continue();
    };
    await page.route((url) => match(url), handler);
    return { held, release: () => release(), stop: () => page.unroute((url) => match(url), handler) };
  }

  for (const viewport of Object.keys(VIEWPORTS) as (keyof typeof VIEWPORTS)[]) {
    describe(viewport, () => {
      const open = (opts: Parameters<typeof openPage>[2] = {}) => openPage(env.browser, env.server.url, { viewport, ...opts });

      it('renders each of the 7 categories: gradient header, title tag, its tag chips and its resources', async () => {
        const s = await open();
        const counts = await apiGet<CategoryList>(API.categories);
        for (const c of PUBLIC_CATEGORIES) {
          await openCategory(s, c);
          await s.page.getByRole('heading', { level: 1, name: c.title, exact: true }).waitFor();
          await expect.poll(() => s.page.title()).toBe(`${c.title} - ${SITE_NAME}`);
          await s.page.getByText(c.description).waitFor();
          const count = counts.items.find((x) => x.value === c.value)!.count;
          await s.page.getByText(`${number(count)} resources`, { exact: true }).waitFor();

          const chips = s.page.getByRole('group', { name: 'Filter by tag' }).getByRole('button');
          expect(await chips.allTextContents()).toEqual([...c.tags]);
          expect(await chips.evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-pressed')))).toEqual(c.tags.map(() => 'false'));

          const first = await apiGet<ResourceList>(listPath(c));
          expect(first.total).toBe(count);
          expect(await cardTitles(s.page)).toEqual(first.items.map((r) => r.title));
          expect(await s.page.getByText(`Showing ${PAGE_SIZE} of ${number(count)}`).count()).toBe(1);
        }
        s.expectNoConsoleErrors();
        await s.close();
      }, SLOW_TEST_MS);

      it('cards show thumbnail (16:9, lazy after the first row), download count, tags and "Added … ago"', async () => {
        const s = await open();
        await openCategory(s, VIDEO);
        const { items } = await apiGet<ResourceList>(listPath(VIDEO));
        const imgs = await grid(s.page)
          .locator(':scope > li img')
          .evaluateAll((els) =>
            (els as HTMLImageElement[]).map((i) => ({
              alt: i.alt,
              width: i.getAttribute('width'),
              height: i.getAttribute('height'),
              loading: i.getAttribute('loading'),
              decoding: i.getAttribute('decoding'),
            })),
          );
        expect(imgs).toHaveLength(PAGE_SIZE);
        imgs.forEach((img, i) => {
          expect(img).toEqual({ alt: items[i].title, width: '640', height: '360', loading: i === 0 ? 'eager' : 'lazy', decoding: 'async' });
        });
        const firstImg = card(s.page, 0).getByRole('img', { name: items[0].title });
        await expect.poll(() => firstImg.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0)).toBe(true);
        const box = (await firstImg.boundingBox())!;
        expect(box.width / box.height).toBeCloseTo(16 / 9, 1);

        const first = card(s.page, 0);
        expect(await downloadsOn(first)).toBe(items[0].download_count);
        expect(await first.getByRole('list', { name: 'Tags' }).getByRole('listitem').allTextContents()).toEqual(items[0].tags.slice(0, 3));
        expect(await first.getByText(/^Added .+ ago$/).count()).toBe(1);
        expect(await first.getByRole('button', { name: /^Preview/ }).count()).toBe(1);
        expect(await first.getByRole('button', { name: /^Download/ }).count()).toBe(1);
        // Nothing in the demo's public categories is premium.
        expect(await first.getByText('Premium', { exact: true }).count()).toBe(items[0].is_premium ? 1 : 0);
        s.expectNoConsoleErrors();
        await s.close();
      });

      it('shows the Premium badge on a premium resource (created through the admin API)', async () => {
        const login = await env.server.app.inject({ method: 'POST', url: API.login, payload: ADMIN });
        expect(login.statusCode).toBe(200);
        const cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
        const title = `Gold Grain Overlay ${viewport}`;
        const created = await env.server.app.inject({
          method: 'POST',
          url: API.adminResources,
          headers: { cookie },
          payload: {
            title,
            description: 'Premium film grain for the finishing touch.',
            category: 'typography',
            thumbnail_url: '/thumbnails/1.svg',
            download_url: 'https://downloads.example.com/gold-grain.zip',
            tags: ['Vintage'],
            is_premium: true,
          },
        });
        expect(created.statusCode).toBe(201);

        const s = await open();
        const typography = PUBLIC_CATEGORIES.find((c) => c.value === 'typography')!;
        await openCategory(s, typography, `?q=${encodeURIComponent(title)}`);
        expect(await cards(s.page).count()).toBe(1);
        await card(s.page, 0).getByText('Premium', { exact: true }).waitFor();
        s.expectNoConsoleErrors();
        await s.close();
      });

      it(`shows ${SKELETON_COUNT} skeletons the size of the cards while loading, then the cards`, async () => {
        const s = await open();
        const hold = await holdRequests(s.page, isListRequest);
        await openCategoryFromHome(s, VIDEO);
        const loading = s.page.getByRole('status', { name: 'Loading resources' });
        await loading.waitFor();
        const skeletons = loading.locator('[data-testid="resource-skeleton"]');
        expect(await skeletons.count()).toBe(SKELETON_COUNT);
        await expect.poll(() => hold.held.length).toBe(1);
        // Measured on screen: before the page's first frame, the layout read can be mid-transition (under reduced motion
        // every property transitions for 0.01 ms, index.css, so the padding under the fixed header still reads 0).
        await nextFrame(s.page);
        const before = (await skeletons.first().boundingBox())!;
        await screenshot(s.page, `categories-loading-${viewport}`);

        hold.release();
        await card(s.page, 0).waitFor();
        expect(await loading.count()).toBe(0);
        const after = (await card(s.page, 0).boundingBox())!;
        expect(Math.abs(after.x - before.x)).toBeLessThanOrEqual(1);
        expect(Math.abs(after.y - before.y)).toBeLessThanOrEqual(1);
        expect(Math.abs(after.width - before.width)).toBeLessThanOrEqual(1);
        expect(Math.abs(after.height - before.height)).toBeLessThanOrEqual(1);
        await hold.stop();
        s.expectNoConsoleErrors();
        await s.close();
      });

      it('search (debounced), tag chips and sort filter through the API, live in the URL, and Back restores them', async () => {
        const s = await open();
        await installClock(s);
        const requested: URL[] = [];
        s.page.on('request', (r) => {
          const url = new URL(r.url());
          if (isListRequest(url) && r.method() === 'GET') requested.push(url);
        });
        await openCategory(s, VIDEO);

        // Search: typed key by key, 200 ms apart on the page's clock (under the 300 ms debounce), one
        // request for the whole word once the clock runs on.
        const term = 'film';
        const searched = await apiGet<ResourceList>(listPath(VIDEO, { q: term }));
        expect(searched.total).toBeGreaterThan(0);
        expect(searched.total).toBeLessThan(VIDEO_TOTAL);
        requested.length = 0;
        await typeKeysApart(s.page, searchBox(s.page), term, 200);
        expect(requested).toEqual([]);
        await s.page.clock.runFor(200);
        await s.page.clock.resume();
        await s.page.waitForURL((u) => u.searchParams.get('q') === term);
        await expectSummary(s.page, searched.total, term);
        expect(requested.map((u) => u.searchParams.get('q'))).toEqual([term]);
        expect(requested[0].searchParams.get('category')).toBe('video_editing');
        expect(await cardTitles(s.page)).toEqual(searched.items.map((r) => r.title));
        for (const r of searched.items) {
          expect(`${r.title} ${r.description} ${r.tags.join(' ')}`.toLowerCase()).toContain(term);
        }

        // A tag chip narrows further (any of the selected tags).
        const tagged = await apiGet<ResourceList>(listPath(VIDEO, { q: term, tags: 'Cinematic' }));
        await chip(s.page, 'Cinematic').click();
        await s.page.waitForURL((u) => u.searchParams.get('tags') === 'Cinematic');
        await expect.poll(() => chip(s.page, 'Cinematic').getAttribute('aria-pressed')).toBe('true');
        await expectSummary(s.page, tagged.total, term);
        await expect.poll(() => cardTitles(s.page)).toEqual(tagged.items.map((r) => r.title));
        for (const r of tagged.items) expect(r.tags.map((t) => t.toLowerCase())).toContain('cinematic');

        // Sort by downloads orders by download count.
        await sortSelect(s.page).selectOption({ label: 'Most Downloads' });
        await s.page.waitForURL((u) => u.searchParams.get('sort') === 'downloads');
        const byDownloads = await apiGet<ResourceList>(listPath(VIDEO, { q: term, tags: 'Cinematic', sort: 'downloads' }));
        await expect.poll(() => cardTitles(s.page)).toEqual(byDownloads.items.map((r) => r.title));
        const shown: number[] = [];
        for (let i = 0; i < (await cards(s.page).count()); i++) shown.push(await downloadsOn(card(s.page, i)));
        expect(shown).toEqual([...shown].sort((a, b) => b - a));
        expect(requested.at(-1)!.searchParams.get('sort')).toBe('downloads');
        await screenshot(s.page, `categories-filtered-${viewport}`);

        // Back walks the filters back one by one.
        await s.page.goBack();
        await s.page.waitForURL((u) => u.searchParams.get('sort') === null && u.searchParams.get('tags') === 'Cinematic');
        await expect.poll(() => sortSelect(s.page).inputValue()).toBe('popular');
        await expect.poll(() => cardTitles(s.page)).toEqual(tagged.items.map((r) => r.title));
        await s.page.goBack();
        await s.page.waitForURL((u) => u.searchParams.get('tags') === null && u.searchParams.get('q') === term);
        await expect.poll(() => chip(s.page, 'Cinematic').getAttribute('aria-pressed')).toBe('false');
        await expect.poll(() => cardTitles(s.page)).toEqual(searched.items.map((r) => r.title));
        await s.page.goBack();
        await s.page.waitForURL((u) => u.search === '');
        await expect.poll(() => searchBox(s.page).inputValue()).toBe('');
        await expectSummary(s.page, VIDEO_TOTAL);
        s.expectNoConsoleErrors();
        await s.close();
      });

      it('a shared link reproduces the view; Clear filters resets search and tags', async () => {
        const s = await open();
        const params = { q: 'transitions', tags: 'Motion,Titles', sort: 'newest' };
        const expected = await apiGet<ResourceList>(listPath(VIDEO, params));
        await openCategory(s, VIDEO, `?${new URLSearchParams(params)}`);
        expect(await searchBox(s.page).inputValue()).toBe('transitions');
        expect(await sortSelect(s.page).inputValue()).toBe('newest');
        for (const t of VIDEO.tags) expect(await chip(s.page, t).getAttribute('aria-pressed')).toBe(String(t === 'Motion' || t === 'Titles'));
        expect(await cardTitles(s.page)).toEqual(expected.items.map((r) => r.title));
        const dates = expected.items.map((r) => r.created_at);
        expect(dates).toEqual([...dates].sort().reverse());

        await s.page.getByRole('button', { name: 'Clear filters' }).click();
        await s.page.waitForURL((u) => u.searchParams.get('q') === null && u.searchParams.get('tags') === null);
        expect(searchParam(s.page, 'sort')).toBe('newest');
        await expect.poll(() => searchBox(s.page).inputValue()).toBe('');
        await expectSummary(s.page, VIDEO_TOTAL);
        if (viewport === 'desktop') expect(await summary(s.page).innerText()).toBe(`${number(VIDEO_TOTAL)} resources · Newest`);
        expect(await s.page.getByRole('button', { name: 'Clear filters' }).count()).toBe(0);
        s.expectNoConsoleErrors();
        await s.close();
      });

      // Alike at every width: once, on the desktop.
      if (viewport === 'desktop') {
        it('"Load more" appends the next page without duplicates', async () => {
          const s = await open();
          await openCategory(s, VIDEO);
          const page1 = await apiGet<ResourceList>(listPath(VIDEO));
          const page2 = await apiGet<ResourceList>(listPath(VIDEO, { cursor: page1.nextCursor! }));
          expect(await cards(s.page).count()).toBe(PAGE_SIZE);
          await s.page.getByText(`Showing ${PAGE_SIZE} of ${number(VIDEO_TOTAL)}`).waitFor();

          await s.page.getByRole('button', { name: 'Load more' }).click();
          await s.page.getByText(`Showing ${2 * PAGE_SIZE} of ${number(VIDEO_TOTAL)}`).waitFor();
          const thumbs = await shownThumbnails(s.page);
          expect(thumbs).toEqual([...page1.items, ...page2.items].map((r) => r.thumbnail_url));
          expect(new Set(thumbs).size).toBe(2 * PAGE_SIZE);

          // Changing a filter from deep in the list brings the new results into view.
          await s.page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
          await chip(s.page, 'Templates').click();
          await s.page.waitForURL((u) => u.searchParams.get('tags') === 'Templates');
          await expect
            .poll(async () => {
              const box = await summary(s.page).boundingBox();
              return box !== null && box.y > 0 && box.y + box.height < VIEWPORTS[viewport].height;
            })
            .toBe(true);
          s.expectNoConsoleErrors();
          await s.close();
        });
      }

      it('shows the empty state for a search without results', async () => {
        const s = await open();
        await openCategory(s, VIDEO);
        await searchBox(s.page).fill('zzqx nothing matches this');
        await s.page.getByRole('heading', { name: 'No resources found' }).waitFor();
        await s.page.getByText('Check back later for new resources').waitFor();
        expect(searchParam(s.page, 'q')).toBe('zzqx nothing matches this');
        expect(await cards(s.page).count()).toBe(0);
        await screenshot(s.page, `categories-empty-${viewport}`);
        await s.page.getByRole('main').getByRole('button', { name: 'Clear filters' }).last().click();
        await card(s.page, 0).waitFor();
        s.expectNoConsoleErrors();
        await s.close();
      });

      it('a failing API shows the error panel and toast after the retries; Try Again recovers', async () => {
        const s = await open();
        await installClock(s);
        let attempts = 0;
        const fail = async (route: Route) => {
          attempts++;
          await route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 'INTERNAL_ERROR', message: 'boom' } }) });
        };
        await s.page.route(isListRequest, fail);
        await openCategoryFromHome(s, VIDEO);
        // 1 + 3 retries after 1 s, 2 s and 4 s: each wait skipped on the page's clock, not sat through.
        await expect.poll(() => attempts).toBeGreaterThan(0);
        for (const [i, wait] of [1000, 2000, 4000].entries()) await skipWait(s.page, wait, () => attempts > i + 1);
        await s.page.getByRole('heading', { name: 'Oops! Something went wrong' }).waitFor();
        expect(attempts).toBe(4);
        await s.page.getByRole('alert').getByText(LOAD_ERROR).waitFor();
        await toastRegion(s.page).getByText(LOAD_ERROR).waitFor();
        expect(await cards(s.page).count()).toBe(0);
        await screenshot(s.page, `categories-error-${viewport}`);

        await s.page.unroute(isListRequest, fail);
        await s.page.getByRole('button', { name: 'Try Again' }).click();
        await card(s.page, 0).waitFor();
        expect(await s.page.getByRole('heading', { name: 'Oops! Something went wrong' }).count()).toBe(0);
        expect(await cards(s.page).count()).toBe(PAGE_SIZE);
        s.expectNoConsoleErrors(NETWORK_FAILURE);
        await s.close();
      });

      it('Preview opens the thumbnail large in a dialog with title and description', async () => {
        const s = await open();
        await openCategory(s, VIDEO);
        const { items } = await apiGet<ResourceList>(listPath(VIDEO));
        const r = items[1];
        const cardImg = (await card(s.page, 1).getByRole('img').boundingBox())!;
        await card(s.page, 1).getByRole('button', { name: /^Preview/ }).click();
        const dialog = s.page.getByRole('dialog', { name: r.title });
        await dialog.waitFor();
        await dialog.getByText(r.description).waitFor();
        const img = dialog.getByRole('img', { name: r.title });
        expect(await img.getAttribute('src')).toBe(r.thumbnail_url);
        await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0)).toBe(true);
        const large = (await img.boundingBox())!;
        expect(large.width).toBeGreaterThan(cardImg.width);
        await expectAccessible(s.page);
        await screenshot(s.page, `categories-preview-${viewport}`);
        await dialog.getByRole('button', { name: 'Close' }).click();
        await dialog.waitFor({ state: 'detached' });
        await card(s.page, 0).getByRole('button', { name: /^Preview/ }).click();
        await s.page.getByRole('dialog', { name: items[0].title }).waitFor();
        await s.page.keyboard.press('Escape');
        await s.page.getByRole('dialog').waitFor({ state: 'detached' });
        s.expectNoConsoleErrors();
        await s.close();
      });

      // Alike at every width: once, on the desktop.
      if (viewport === 'desktop') {
        it('Download records one download, opens the URL in a new tab without referrer or opener, and updates the count', async () => {
          const s = await open();
          await openCategory(s, VIDEO);
          const { items } = await apiGet<ResourceList>(listPath(VIDEO));
          const index = viewport === 'desktop' ? 2 : 0;
          const r = items[index];
          const before = await downloadCount(r.id);

          // The external download site, answered here (no network).
          const external: { url: string; referer: string | undefined }[] = [];
          await s.context.route(
            (url) => url.origin !== new URL(env.server.url).origin,
            async (route) => {
              external.push({ url: route.request().url(), referer: (await route.request().allHeaders())['referer'] });
              await route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Your download</title><p>Downloading…</p>' });
            },
          );
          // Hold the POST: the tab must already be open (inside the click) and the button busy.
          const hold = await holdRequests(s.page, (url) => url.pathname === API.download(r.id), 'POST');
          const button = card(s.page, index).getByRole('button', { name: /^Download/ });
          const popupOpened = s.context.waitForEvent('page');
          await button.click();
          const popup = await popupOpened;
          await card(s.page, index).getByRole('button', { name: /^Downloading\.\.\./ }).waitFor();
          expect(await card(s.page, index).getByRole('button', { name: /^Downloading\.\.\./ }).isDisabled()).toBe(true);
          expect(hold.held).toHaveLength(1);

          const responded = s.page.waitForResponse((res) => new URL(res.url()).pathname === API.download(r.id));
          hold.release();
          const body = (await (await responded).json()) as DownloadResponse;
          expect(body.download_count).toBe(before + 1);
          await popup.waitForURL(body.download_url);
          expect(external).toEqual([{ url: body.download_url, referer: undefined }]);
          expect(await popup.evaluate(() => window.opener)).toBeNull();
          expect(await popup.evaluate(() => document.referrer)).toBe('');

          // The card shows the count the server answered (a listed count may be up to 5 s old).
          await expect.poll(() => downloadsOn(card(s.page, index))).toBe(body.download_count);
          await card(s.page, index).getByRole('button', { name: /^Download/ }).waitFor();
          expect(await downloadCount(r.id)).toBe(before + 1);
          await hold.stop();
          await popup.close();
          s.expectNoConsoleErrors();
          await s.close();
        });
      }

      // Alike at every width: once, on the desktop.
      if (viewport === 'desktop') {
        it('a failing download closes the blank tab and shows "Download Failed"; nothing is counted', async () => {
          const s = await open();
          await openCategory(s, VIDEO);
          const { items } = await apiGet<ResourceList>(listPath(VIDEO));
          const r = items[0];
          const before = await downloadCount(r.id);
          const shown = await downloadsOn(card(s.page, 0));
          const warnings: string[] = [];
          s.page.on('console', (m) => {
            if (m.type() === 'warning') warnings.push(m.text());
          });
          await s.page.route(
            (url) => url.pathname === API.download(r.id),
            (route) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 'INTERNAL_ERROR', message: 'boom' } }) }),
          );
          const popupOpened = s.context.waitForEvent('page');
          await card(s.page, 0).getByRole('button', { name: /^Download/ }).click();
          const popup = await popupOpened;
          await toastRegion(s.page).getByText('Download Failed').waitFor();
          await toastRegion(s.page).getByText('Unable to download resource. Please try again later.').waitFor();
          await expect.poll(() => popup.isClosed()).toBe(true);
          expect(warnings.some((w) => w.startsWith('Download failed'))).toBe(true);
          expect(await card(s.page, 0).getByRole('button', { name: /^Download/ }).isEnabled()).toBe(true);
          expect(await downloadsOn(card(s.page, 0))).toBe(shown);
          expect(await downloadCount(r.id)).toBe(before);
          s.expectNoConsoleErrors(NETWORK_FAILURE);
          await s.close();
        });
      }

      for (const colorScheme of ['light', 'dark'] as const) {
        it(`looks finished and has no serious accessibility issue (${colorScheme})`, async () => {
          const s = await open({ colorScheme });
          await openCategory(s, VIDEO);
          await card(s.page, 0).getByRole('img').evaluate((i: HTMLImageElement) => i.decode());
          await expectAccessible(s.page);
          await screenshot(s.page, `categories-${viewport}-${colorScheme}`);
          await s.page.evaluate(() => window.scrollTo(0, 800));
          await pageSettled(s.page);
          await screenshot(s.page, `categories-${viewport}-${colorScheme}-scrolled`);
          s.expectNoConsoleErrors();
          await s.close();
        }, SLOW_TEST_MS);
      }
    });
  }

  it('while a new search loads, the results line says so instead of the last search\'s count', { timeout: SLOW_TEST_MS }, async () => {
    const s = await openPage(env.browser, env.server.url);
    await openCategory(s, VIDEO);
    await expectSummary(s.page, VIDEO_TOTAL);
    const term = 'transitions';
    const searched = await apiGet<ResourceList>(listPath(VIDEO, { q: term }));
    expect(searched.total).toBeGreaterThan(0);
    expect(searched.total).toBeLessThan(VIDEO_TOTAL);
    const hold = await holdRequests(s.page, (url) => isListRequest(url) && url.searchParams.get('q') === term);
    await searchBox(s.page).fill(term);
    await expect.poll(() => hold.held.length).toBe(1);
    const heading = s.page.locator('#results-heading');
    await expect.poll(() => heading.innerText()).toBe(`Searching for “${term}”…`);
    // The last search's cards stay, dimmed and busy, under no count of theirs.
    expect(await summary(s.page).count()).toBe(0);
    expect(await grid(s.page).getAttribute('aria-busy')).toBe('true');
    await screenshot(s.page, 'categories-searching');
    hold.release();
    await expectSummary(s.page, searched.total, term);
    expect(await grid(s.page).getAttribute('aria-busy')).toBe('false');
    await hold.stop();
    s.expectNoConsoleErrors();
    await s.close();
  });

  it('an unknown or non-public category shows "Page not found" with a way home (HTTP 404)', async () => {
    const s = await openPage(env.browser, env.server.url);
    for (const slug of ['no-such-category', 'premium-resources', 'video_editing']) {
      const res = await s.page.goto(`/categories/${slug}`);
      expect(res?.status()).toBe(404);
      await s.page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
      expect(await s.page.getByRole('list', { name: 'Resources', exact: true }).count()).toBe(0);
    }
    await s.page.getByRole('main').getByRole('link', { name: 'Back to Home' }).click();
    await s.page.waitForURL((u) => u.pathname === '/');
    // The 404 status of the documents themselves.
    s.expectNoConsoleErrors(NETWORK_FAILURE);
    await s.close();
  });
});
