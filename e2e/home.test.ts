import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { CAROUSEL_DEBOUNCE_MS, COUNTER_DURATION_MS } from '../src/contract/constants';
import type { PremiumList } from '../src/contract/resources';
import type { SiteSettings } from '../src/contract/site';
import { expectAccessible, installClock, nextFrame, useBrowserServer, openPage, screenshot, type Session, showTypedFigures, skipWait, VIEWPORTS } from './harness';

const VIEWPORT_NAMES = Object.keys(VIEWPORTS) as (keyof typeof VIEWPORTS)[];
/** Chromium logs every failed request as a console error; the tests that inject failures expect exactly those. */
const FAILED_REQUEST = /Failed to load resource: the server responded with a status of (500|503)/;

describe('home page', () => {
  const env = useBrowserServer();
  // The counters and dialogs below are checked against the spec's figures, shown as typed.
  beforeAll(() => showTypedFigures(env.server));

  const open = (opts: Parameters<typeof openPage>[2] = {}) => openPage(env.browser, env.server.url, opts);
  const getJson = async <T>(path: string): Promise<T> => {
    const res = await fetch(env.server.url + path);
    expect(res.status, path).toBe(200);
    return (await res.json()) as T;
  };
  // From the database: public API answers may show a count up to PUBLIC_CACHE_MAX_AGE_MS old.
  const downloadCount = async (id: number) =>
    Number((await env.server.database.db.selectFrom('resources').select('download_count').where('id', '=', id).executeTakeFirstOrThrow()).download_count);

  const visible = (l: Locator) => l.waitFor({ state: 'visible' });
  const hidden = (l: Locator) => l.waitFor({ state: 'hidden' });
  const carousel = (page: Page) => page.getByRole('region', { name: 'Premium picks' });
  const activeSlide = (page: Page) => carousel(page).getByRole('group', { name: /^\d+ of \d+$/ });
  const activeLabel = (page: Page) => activeSlide(page).getAttribute('aria-label');
  /** Carousel moves are debounced; tests that move twice wait this long in between. */
  /** Until the carousel's debounce (CAROUSEL_DEBOUNCE_MS on the page's own clock) has passed since now. */
  const afterDebounce = async (page: Page) => {
    const start = await page.evaluate(() => performance.now());
    await page.waitForFunction((end) => performance.now() >= end, start + CAROUSEL_DEBOUNCE_MS);
  };

  /** Waits until the data-driven parts are on screen, so screenshots and axe see the real page. */
  async function loadHome(s: Session) {
    await s.page.goto('/');
    await visible(s.page.getByText(/Discover 7 unique categories with [\d,]+\+ resources/));
    await visible(carousel(s.page));
    await visible(s.page.getByRole('button', { name: /Total Resources/ }));
  }

  async function openCarousel(s: Session) {
    await loadHome(s);
    await carousel(s.page).scrollIntoViewIfNeeded();
    expect(await activeLabel(s.page)).toBe('1 of 12');
  }

  for (const viewport of VIEWPORT_NAMES) {
    for (const colorScheme of ['light', 'dark'] as const) {
      it(`sets the title, passes axe and is screenshotted (${viewport}, ${colorScheme})`, async () => {
        const s = await open({ viewport, colorScheme });
        await loadHome(s);
        await expect.poll(() => s.page.title()).toBe('Premium Resources for Creators - Resource Vault');
        await expectAccessible(s.page);
        await screenshot(s.page, `home-${viewport}-${colorScheme}`, { fullPage: true });
        s.expectNoConsoleErrors();
        await s.close();
      });
    }
  }

  describe.each(VIEWPORT_NAMES)('on %s', (viewport) => {
    it("'Explore Resources' smooth-scrolls to the premium section", async () => {
      const s = await open({ viewport });
      await loadHome(s);
      expect(await s.page.evaluate(() => window.scrollY)).toBe(0);
      await s.page.getByRole('button', { name: 'Explore Resources' }).click();
      const topOfPremium = () => s.page.evaluate(() => Math.round(document.getElementById('premium-resources')!.getBoundingClientRect().top));
      // scroll-margin keeps the heading clear of the fixed header.
      await expect.poll(topOfPremium, { timeout: 5000 }).toBeGreaterThanOrEqual(0);
      await expect.poll(topOfPremium, { timeout: 5000 }).toBeLessThanOrEqual(100);
      expect(await s.page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
      s.expectNoConsoleErrors();
      await s.close();
    });

    it('counts the community figures up from 0 when visible and resets them when they leave view', async () => {
      const s = await open({ viewport, reducedMotion: 'no-preference' });
      await loadHome(s);
      const card = s.page.getByRole('button', { name: /Total Downloads/ });
      const counter = card.locator('[data-counter]');
      // Below the fold at first: not counted yet.
      expect(await counter.textContent()).toBe('0');
      const shownAt = await counter.evaluate((el) => {
        const w = window as unknown as { seen: { text: string; at: number }[] };
        w.seen = [];
        new MutationObserver(() => w.seen.push({ text: el.textContent ?? '', at: performance.now() })).observe(el, {
          subtree: true,
          childList: true,
          characterData: true,
        });
        return performance.now();
      });
      await card.scrollIntoViewIfNeeded();
      await expect.poll(() => counter.textContent(), { timeout: 6000 }).toBe('2,893');
      const seen = await s.page.evaluate(() => (window as unknown as { seen: { text: string; at: number }[] }).seen);
      const values = seen.map((x) => Number(x.text.replace(/,/g, '')));
      expect(values.at(-1)).toBe(2893);
      expect(values.every((v, i) => i === 0 || v >= values[i - 1]), 'never counts down').toBe(true);
      expect(values.filter((v) => v > 0 && v < 2893).length, 'shows figures in between').toBeGreaterThan(2);
      // COUNTER_DURATION_MS: the last step comes two seconds or more after the count started, which was after
      // `shownAt`. (Not after the first change seen: on a loaded machine the first frame can come late.)
      expect(seen.at(-1)!.at - shownAt).toBeGreaterThanOrEqual(COUNTER_DURATION_MS);
      expect(await card.getByText('Total Downloads').isVisible()).toBe(true);
      for (const [name, figure] of [['Total Resources', '156'], ['Community Members', '467'], ['Monthly Growth', '15']]) {
        const c = s.page.getByRole('button', { name: new RegExp(name) });
        await c.scrollIntoViewIfNeeded();
        await expect.poll(() => c.locator('[data-counter]').textContent(), { timeout: 6000 }).toBe(figure);
      }
      await screenshot(s.page, `home-stats-${viewport}`);

      await s.page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
      await expect.poll(() => counter.textContent()).toBe('0');
      await card.scrollIntoViewIfNeeded();
      await expect.poll(() => counter.textContent(), { timeout: 6000 }).toBe('2,893');
      s.expectNoConsoleErrors();
      await s.close();
    });

    it('opens a stat dialog with Daily / Weekly / Monthly figures and closes it with Close', async () => {
      const s = await open({ viewport });
      await loadHome(s);
      const card = s.page.getByRole('button', { name: /Total Downloads/ });
      await card.click();
      const dialog = s.page.getByRole('dialog', { name: 'Total Downloads' });
      await visible(dialog);
      await screenshot(s.page, `home-stat-dialog-${viewport}`);
      const figures = await dialog.locator('dl > div').evaluateAll((els) => els.map((el) => el.textContent));
      expect(figures).toEqual(['Daily+56', 'Weekly+378', 'Monthly+1,290']);
      await dialog.getByRole('button', { name: 'Close' }).click();
      await hidden(dialog);
      await expect.poll(() => card.evaluate((el) => el === document.activeElement)).toBe(true);

      await s.page.getByRole('button', { name: /Monthly Growth/ }).click();
      const growth = s.page.getByRole('dialog', { name: 'Monthly Growth' });
      expect(await growth.locator('dl > div').evaluateAll((els) => els.map((el) => el.textContent))).toEqual([
        'Daily+0.5%',
        'Weekly+3.5%',
        'Monthly+15%',
      ]);
      await growth.getByRole('button', { name: 'Close' }).click();
      await hidden(growth);
      s.expectNoConsoleErrors();
      await s.close();
    });

    it('lists the 7 categories with live counts and filters them by title, description or tag', async () => {
      const s = await open({ viewport });
      let countReads = 0;
      s.page.on('request', (r) => {
        if (new URL(r.url()).pathname === '/api/categories') countReads++;
      });
      // The counts come in the server's HTML (rendered with them): no placeholder, no read from the env.browser.
      await s.page.goto('/');
      await visible(s.page.getByRole('heading', { name: 'Browse Categories' }));
      const line = s.page.getByText(/^Discover 7 unique categories with/);
      expect(await line.textContent()).toBe('Discover 7 unique categories with 1,134+ resources');
      expect(await s.page.getByTestId('count-skeleton').count()).toBe(0);
      await s.page.locator('#root[data-live]').waitFor({ state: 'attached' });
      expect(countReads).toBe(0);

      const grid = s.page.getByRole('list', { name: 'Categories' });
      const cards = grid.getByRole('link');
      expect(await cards.count()).toBe(7);
      const anime = cards.filter({ hasText: 'Anime Edits' });
      expect(await anime.getAttribute('href')).toBe('/categories/anime-edits');
      expect(await anime.getByText('New', { exact: true }).isVisible()).toBe(true);
      expect(await anime.getByText('145 resources').isVisible()).toBe(true);
      expect(await cards.filter({ hasText: 'Video Editing' }).getByText('234 resources').isVisible()).toBe(true);
      expect(await cards.filter({ hasText: 'Video Editing' }).getByText('New', { exact: true }).count()).toBe(0);
      // The Anime Edits card spans the grid.
      const gridBox = (await grid.boundingBox())!;
      const animeBox = (await anime.boundingBox())!;
      expect(Math.abs(animeBox.width - gridBox.width)).toBeLessThan(2);

      const search = s.page.getByPlaceholder('Search categories or resources...');
      const titles = async () => (await cards.locator('h3').allTextContents()).sort();
      await search.fill('AMV');
      await expect.poll(titles).toEqual(['Anime Edits']);
      await search.fill('portrait'); // a tag, other case
      await expect.poll(titles).toEqual(['Photo Editing']);
      await search.fill('LUTs'); // a tag of one, the description of another
      await expect.poll(titles).toEqual(['Color Grading', 'Video Editing']);
      await search.fill('TYPOGRAPHY'); // a title, and a tag of Anime Edits
      await expect.poll(titles).toEqual(['Anime Edits', 'Typography']);
      await search.fill('no such thing');
      await visible(s.page.getByText('No categories match “no such thing”'));
      await screenshot(s.page, `home-categories-empty-${viewport}`);
      expect(await cards.count()).toBe(0);
      await s.page.getByRole('button', { name: 'Clear search' }).click();
      await expect.poll(() => cards.count()).toBe(7);

      await anime.click();
      await s.page.waitForURL('**/categories/anime-edits');
      s.expectNoConsoleErrors();
      await s.close();
    });

    it('moves the carousel with the arrow keys, the buttons, the dots and a side card, wrapping both ways', async () => {
      const s = await open({ viewport });
      await openCarousel(s);
      const { page } = s;
      const region = carousel(page);
      const items = (await getJson<PremiumList>('/api/resources/premium')).items;
      expect(await activeSlide(page).getByRole('heading').textContent()).toBe(items[0].title);
      expect(await region.locator('[data-offset]:not([data-offset="3"]):not([data-offset="-3"])').count()).toBe(5);

      await region.focus();
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => activeLabel(page)).toBe('2 of 12');
      expect(await activeSlide(page).getByRole('heading').textContent()).toBe(items[1].title);
      await afterDebounce(page);
      await page.keyboard.press('ArrowLeft');
      await expect.poll(() => activeLabel(page)).toBe('1 of 12');
      await afterDebounce(page);
      await page.keyboard.press('ArrowLeft');
      await expect.poll(() => activeLabel(page)).toBe('12 of 12');
      await afterDebounce(page);
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => activeLabel(page)).toBe('1 of 12');
      await afterDebounce(page);
      // Two presses inside CAROUSEL_DEBOUNCE_MS move once.
      await region.evaluate((el) => {
        for (let i = 0; i < 2; i++) el.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
      });
      await expect.poll(() => activeLabel(page)).toBe('2 of 12');
      await afterDebounce(page);
      await nextFrame(page);
      expect(await activeLabel(page)).toBe('2 of 12');

      await page.getByRole('button', { name: 'Next resource' }).click();
      await expect.poll(() => activeLabel(page)).toBe('3 of 12');
      await afterDebounce(page);
      await page.getByRole('button', { name: 'Previous resource' }).click();
      await expect.poll(() => activeLabel(page)).toBe('2 of 12');
      await afterDebounce(page);

      const dot = page.getByRole('button', { name: 'Go to resource 7 of 12' });
      await dot.click();
      await expect.poll(() => activeLabel(page)).toBe('7 of 12');
      expect(await dot.getAttribute('aria-current')).toBe('true');
      expect(await page.locator('[aria-label^="Go to resource"][aria-current="true"]').count()).toBe(1);
      await afterDebounce(page);

      // A side card comes forward when clicked (its visible edge: the centre card covers the rest).
      const side = region.locator('[data-offset="1"]');
      // The card slides in from the far side for 550 ms, and the page may have scrolled it away (the dot
      // brought into view): aim only once it stands still on screen (same box two frames apart).
      await side.scrollIntoViewIfNeeded();
      let box = (await side.boundingBox())!;
      await expect
        .poll(async () => {
          const then = JSON.stringify(box);
          await nextFrame(page);
          box = (await side.boundingBox())!;
          return JSON.stringify(box) === then && (await side.evaluate((el) => el.getAnimations().length)) === 0;
        })
        .toBe(true);
      const width = VIEWPORTS[viewport].width;
      await page.mouse.click(Math.min(box.x + box.width - 12, width - 6), box.y + box.height / 2);
      await expect.poll(() => activeLabel(page)).toBe('8 of 12');
      await afterDebounce(page);

      // Arrows pressed on the active card's button keep focus in the carousel as that card moves aside.
      await activeSlide(page).getByRole('button', { name: 'Get Resource' }).focus();
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => activeLabel(page)).toBe('9 of 12');
      expect(await region.evaluate((el) => el === document.activeElement)).toBe(true);
      s.expectNoConsoleErrors();
      await s.close();
    });

    it(`moves the carousel by ${viewport === 'desktop' ? 'mouse drag' : 'touch swipe'} over 50 px, not under`, async () => {
      const s = await open({ viewport });
      await openCarousel(s);
      const { page } = s;
      const box = (await carousel(page).boundingBox())!;
      const x = box.x + box.width / 2;
      const y = box.y + 100;
      const cdp = viewport === 'mobile' ? await s.context.newCDPSession(page) : undefined;
      const drag = async (dx: number) => {
        if (cdp) {
          await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
          for (let i = 1; i <= 8; i++) {
            await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: x + (dx * i) / 8, y }] });
          }
          await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
        } else {
          await page.mouse.move(x, y);
          await page.mouse.down();
          await page.mouse.move(x + dx, y, { steps: 8 });
          await page.mouse.up();
        }
        await afterDebounce(page);
      };
      await drag(-35);
      expect(await activeLabel(page)).toBe('1 of 12');
      await drag(-120);
      await expect.poll(() => activeLabel(page)).toBe('2 of 12');
      await drag(120);
      await expect.poll(() => activeLabel(page)).toBe('1 of 12');
      await drag(120);
      await expect.poll(() => activeLabel(page)).toBe('12 of 12');
      await drag(40);
      expect(await activeLabel(page)).toBe('12 of 12');
      s.expectNoConsoleErrors();
      await s.close();
    });

    it("'Get Resource' shows 'Downloading...', opens the URL in a new tab without opener or referrer, and counts once", async () => {
      const s = await open({ viewport });
      const seenByDownloadSite: { url: string; referer: string | undefined }[] = [];
      await s.context.route('https://downloads.example.com/**', async (route) => {
        seenByDownloadSite.push({ url: route.request().url(), referer: route.request().headers().referer });
        await route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>File</title><p>Your file</p>' });
      });
      // Hold the POST until the busy state has been seen.
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      await s.page.route('**/api/resources/*/download', async (route) => {
        await released;
        await route.continue();
      });
      await openCarousel(s);
      const item = (await getJson<PremiumList>('/api/resources/premium')).items[0];
      const before = await downloadCount(item.id);

      const slide = activeSlide(s.page);
      const posted = s.page.waitForResponse((r) => r.url().endsWith(`/api/resources/${item.id}/download`) && r.request().method() === 'POST');
      const opened = s.context.waitForEvent('page');
      await slide.getByRole('button', { name: 'Get Resource' }).click();
      const busy = slide.getByRole('button', { name: 'Downloading...' });
      await visible(busy);
      expect(await busy.isDisabled()).toBe(true);
      release();

      const tab = await opened;
      const { download_url, download_count } = (await (await posted).json()) as { download_url: string; download_count: number };
      expect(download_url).toMatch(/^https:\/\/downloads\.example\.com\//);
      await tab.waitForURL(download_url);
      expect(await tab.evaluate(() => window.opener)).toBeNull();
      expect(await tab.evaluate(() => document.referrer)).toBe('');
      expect(seenByDownloadSite).toEqual([{ url: download_url, referer: undefined }]);
      expect(s.context.pages()).toHaveLength(2);

      expect(download_count).toBe(before + 1);
      expect(await downloadCount(item.id)).toBe(before + 1);
      await visible(slide.getByRole('button', { name: 'Get Resource' }));
      expect(await slide.getByRole('button', { name: 'Get Resource' }).isEnabled()).toBe(true);
      s.expectNoConsoleErrors();
      await s.close();
    });
  });

  it("a failed download closes the blank tab and shows the 'Download Failed' toast, counting nothing", async () => {
    const s = await open();
    await s.page.route('**/api/resources/*/download', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 'INTERNAL', message: 'Injected' } }) }),
    );
    await openCarousel(s);
    const item = (await getJson<PremiumList>('/api/resources/premium')).items[0];
    const before = await downloadCount(item.id);
    const opened = s.context.waitForEvent('page');
    await activeSlide(s.page).getByRole('button', { name: 'Get Resource' }).click();
    const tab = await opened;
    await expect.poll(() => tab.isClosed()).toBe(true);
    await visible(s.page.getByText('Download Failed', { exact: true }));
    // exact: the toast's live-region announcement repeats the text inside a longer one.
    await visible(s.page.getByText('Unable to download resource. Please try again later.', { exact: true }));
    await screenshot(s.page, 'home-download-failed-desktop');
    expect(await downloadCount(item.id)).toBe(before);
    await visible(activeSlide(s.page).getByRole('button', { name: 'Get Resource' }));
    s.expectNoConsoleErrors([FAILED_REQUEST]);
    await s.close();
  });

  it("a premium card's title and picture open the resource's page; side cards' links are out of reach", async () => {
    const s = await open();
    await openCarousel(s);
    const item = (await getJson<PremiumList>('/api/resources/premium')).items[0];
    const links = carousel(s.page).getByRole('link');
    // The active card's two (picture and title); the side cards are inert pictures.
    expect(await links.evaluateAll((els) => els.map((a) => a.getAttribute('href')))).toEqual([item.url, item.url]);
    expect(await activeSlide(s.page).getByRole('heading').getByRole('link', { name: item.title }).getAttribute('tabindex')).toBeNull();
    await activeSlide(s.page).getByRole('heading').getByRole('link').click();
    await s.page.waitForURL(`**${item.url}`);
    await visible(s.page.getByRole('heading', { level: 1, name: item.title }));
    s.expectNoConsoleErrors();
    await s.close();
  });

  it("a failing premium fetch shows 'Retry attempt N/3 in Xs...', then the error view, and recovers with 'Try Again'", async () => {
    const s = await open({ viewport: 'mobile' });
    await installClock(s);
    let calls = 0;
    const premium = '**/api/resources/premium';
    await s.page.route(premium, (route) => {
      calls += 1;
      return route.fulfill({ status: 503, body: '' });
    });
    await s.page.goto('/');
    await visible(s.page.getByText('Loading premium resources...'));
    const notice = s.page.getByText(/^Retry attempt \d\/3 in [\d.]+s\.\.\.$/);
    const secondsLeft = async () => Number(/in ([\d.]+)s/.exec((await notice.textContent()) ?? '')?.[1]);
    for (const retry of [1, 2, 3]) {
      await visible(s.page.getByText(new RegExp(`^Retry attempt ${retry}/3 in`)));
      if (retry === 3) {
        // It counts down (on the page's clock, running as real time does).
        await notice.scrollIntoViewIfNeeded();
        await screenshot(s.page, 'home-premium-retrying-mobile');
        const first = await secondsLeft();
        await expect.poll(secondsLeft).toBeLessThan(first);
      }
      // The rest of the wait it announces, skipped on the page's clock.
      await skipWait(s.page, Math.ceil((await secondsLeft()) * 1000), () => calls > retry);
    }

    const tryAgain = s.page.getByRole('button', { name: 'Try Again' });
    await tryAgain.waitFor();
    expect(await s.page.getByRole('alert').filter({ hasText: 'Service unavailable' }).isVisible()).toBe(true);
    await visible(s.page.getByText('Error', { exact: true }));
    expect(calls).toBe(4); // the first try and PREMIUM_RETRY_MAX_ATTEMPTS retries
    await tryAgain.scrollIntoViewIfNeeded();
    await screenshot(s.page, 'home-premium-error-mobile');
    await expectAccessible(s.page);

    await s.page.unroute(premium);
    await tryAgain.click();
    await visible(carousel(s.page));
    expect(await s.page.getByRole('alert').filter({ hasText: 'Service unavailable' }).count()).toBe(0);
    s.expectNoConsoleErrors([FAILED_REQUEST]);
    await s.close();
  });

  it('does not retry an error its policy calls permanent', async () => {
    const s = await open();
    let calls = 0;
    await s.page.route('**/api/resources/premium', (route) => {
      calls += 1;
      return route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ error: { code: 'BAD_REQUEST', message: 'Injected refusal' } }) });
    });
    await s.page.goto('/');
    await visible(s.page.getByRole('alert').filter({ hasText: 'Injected refusal' }));
    await visible(s.page.getByRole('button', { name: 'Try Again' }));
    expect(calls).toBe(1);
    expect(await s.page.getByText(/^Retry attempt/).count()).toBe(0);
    s.expectNoConsoleErrors([/status of 400/]);
    await s.close();
  });

  it("shows the 'Crafting Digital Experiences' section with a playing promo video and the portfolio link", async () => {
    const s = await open({ reducedMotion: 'no-preference' });
    await loadHome(s);
    const site = await getJson<SiteSettings>('/api/site');
    const section = s.page.locator('#my-website');
    await section.scrollIntoViewIfNeeded();
    await visible(section.getByRole('heading', { name: 'Crafting Digital Experiences' }));
    await visible(section.getByRole('heading', { name: 'Clean Code' }));
    await visible(section.getByRole('heading', { name: 'Modern UI' }));
    const link = section.getByRole('link', { name: /View Portfolio/ });
    expect(await link.getAttribute('href')).toBe(site.portfolio_url);
    expect(await link.getAttribute('target')).toBe('_blank');
    expect((await link.getAttribute('rel'))?.split(' ').sort()).toEqual(['noopener', 'noreferrer']);

    const video = section.locator('video');
    expect(await video.evaluate((v: HTMLVideoElement) => [v.muted, v.loop, v.playsInline, v.preload, v.poster.endsWith('.webp')])).toEqual([
      true,
      true,
      true,
      'none',
      true,
    ]);
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => !v.paused && v.currentTime > 0), { timeout: 10_000 }).toBe(true);
    await section.getByRole('button', { name: 'Pause video' }).click();
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
    await visible(section.getByRole('button', { name: 'Play video' }));
    s.expectNoConsoleErrors();
    await s.close();
  });

  // Last: it empties the premium category for a moment.
  it("says 'No premium resources found' without a retry when there are none", async () => {
    const db = env.server.database.db;
    const ids = (await db.selectFrom('resources').select('id').where('category', '=', 'premium_resources').execute()).map((r) => r.id);
    expect(ids.length).toBeGreaterThan(0);
    await db.updateTable('resources').set({ category: 'typography' }).where('id', 'in', ids).execute();
    try {
      const s = await open({ viewport: 'mobile' });
      await s.page.goto('/');
      await visible(s.page.getByText('No premium resources found'));
      expect(await s.page.getByRole('button', { name: 'Try Again' }).count()).toBe(0);
      expect(await s.page.getByText('Error', { exact: true }).count()).toBe(0);
      s.expectNoConsoleErrors();
      await s.close();
    } finally {
      await db.updateTable('resources').set({ category: 'premium_resources' }).where('id', 'in', ids).execute();
    }
  });
});
