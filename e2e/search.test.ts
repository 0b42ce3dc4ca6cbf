import os from 'node:os';
import path from 'node:path';
import { readFileSync, rmSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { API } from '../src/contract/api-paths';
import type { CategoryValue } from '../src/contract/categories';
import type { PublicResource, Resource } from '../src/contract/resources';
import { type FilesTestApp, tusUpload } from '../src/server/testing/files-helpers';
import { testMediaTools } from '../src/server/testing/media-tools';
import { H264, makeClip } from '../src/server/testing/test-media';
import { zipOf } from '../src/server/testing/zip-writer';
import { expectAccessible, openPage, screenshot, unique, useAdminSessions, useBrowserServer, waitLive } from './harness';

/**
 * Filters and one search for the whole site (issue 33) in a real browser, over resources the test
 * makes with known facts: packs whose ZIPs name their apps and whose video previews have known
 * durations, all holding one made-up word (so no demo resource matches it).
 *
 * | pack  | category        | inside                | preview   |
 * | Alpha | motion_graphics | Project.aep           | 2 s video |
 * | Beta  | motion_graphics | Title.mogrt           | 20 s      |
 * | Gamma | motion_graphics | Project.aep, Look.cube| 20 s      |
 * | Delta | sound_effects   | (a link)              | none      |
 */
const SLOW = 240_000;

describe('filters and the site search', () => {
  const env = useBrowserServer();
  const { cookieHeader } = useAdminSessions(env);
  /** The made-up word every resource of the test holds. */
  const word = unique('qz').replace(' ', '');
  const made: Record<'alpha' | 'beta' | 'gamma' | 'delta', Resource> = {} as never;
  const title = (name: string) => `${word} ${name} Pack`;

  async function create(body: Record<string, unknown>): Promise<Resource> {
    const res = await fetch(env.server.url + API.adminResources, {
      method: 'POST',
      headers: { cookie: cookieHeader(), 'content-type': 'application/json' },
      body: JSON.stringify({ thumbnail_url: '/thumbnails/1.svg', ...body }),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as Resource;
  }

  async function pack(name: string, category: CategoryValue, files: string[], seconds: number): Promise<Resource> {
    const uploader = { base: env.server.url, headers: { cookie: cookieHeader(), origin: env.server.url } } as unknown as FilesTestApp;
    const zip = await zipOf(files.map((f) => ({ name: `Pack/${f}`, data: `${f} `.repeat(50) })));
    const download = await tusUpload(uploader, zip, { name: `${name}.zip` });
    const clipFile = path.join(os.tmpdir(), `rv-search-${process.pid}-${name}.mp4`);
    await makeClip(testMediaTools(), clipFile, `testsrc2=s=160x90:r=10:d=${seconds}[out0]`, seconds, H264);
    const clip = await tusUpload(uploader, readFileSync(clipFile), { name: 'preview.mp4' });
    rmSync(clipFile);
    return create({
      title: title(name),
      description: `A ${name.toLowerCase()} pack made by the search test.`,
      category,
      download_upload_id: download.id,
      preview_source: { kind: 'video', upload_id: clip.id },
    });
  }

  beforeAll(async () => {
    made.alpha = await pack('Alpha', 'motion_graphics', ['Project.aep'], 2);
    made.beta = await pack('Beta', 'motion_graphics', ['Title.mogrt'], 20);
    made.gamma = await pack('Gamma', 'motion_graphics', ['Project.aep', 'Look.cube'], 20);
    made.delta = await create({
      title: title('Delta'),
      description: 'Whooshes made by the search test.',
      category: 'sound_effects',
      download_url: 'https://files.example.com/delta.zip',
    });
    // The listing and the preview are jobs: the pages are opened once every pack has its apps and facts.
    const ready = async () => {
      const packs = await Promise.all([made.alpha, made.beta, made.gamma].map(async (r) => (await (await fetch(env.server.url + API.resource(r.id))).json()) as PublicResource));
      return packs.every((r) => r.contents && r.facts && r.apps.length > 0);
    };
    const deadline = Date.now() + 180_000;
    while (!(await ready())) {
      if (Date.now() > deadline) throw new Error('the packs were not listed and previewed within 3 minutes');
      await new Promise((r) => setTimeout(r, 250));
    }
  }, SLOW);

  const grid = (page: Page) => page.getByRole('list', { name: 'Resources', exact: true });
  const cardTitles = async (page: Page) => (await grid(page).locator(':scope > li h2').allTextContents()).sort();
  const expectCards = (page: Page, names: string[]) => expect.poll(() => cardTitles(page), { timeout: 15_000 }).toEqual(names.map(title).sort());
  const param = (page: Page, key: string) => new URL(page.url()).searchParams.get(key);
  const optionTexts = (page: Page, label: string) => page.getByRole('combobox', { name: label, exact: true }).locator('option').allTextContents();

  it(
    'filters a category by app and by duration: the URL says so, the list narrows, each value shows its count, Back restores',
    async () => {
      const s = await openPage(env.browser, env.server.url);
      const { page } = s;
      await page.goto(`/categories/motion-graphics?q=${word}`);
      await waitLive(page);
      await expectCards(page, ['Alpha', 'Beta', 'Gamma']);

      // The counts of the three packs: two work in After Effects, one in Premiere Pro; one is under 15 s.
      await expect.poll(() => optionTexts(page, 'App')).toEqual(expect.arrayContaining(['After Effects (2)', 'Premiere Pro (1)']));
      await expect.poll(() => optionTexts(page, 'Duration')).toEqual(['Any duration', 'Under 15 seconds (1)', '15 seconds – 1 minute (2)']);

      await page.getByRole('combobox', { name: 'App', exact: true }).selectOption('after-effects');
      await page.waitForURL((u) => u.searchParams.get('app') === 'after-effects');
      await expectCards(page, ['Alpha', 'Gamma']);
      await page.getByRole('button', { name: 'Remove filter App: After Effects' }).waitFor();
      // Under the app filter, the duration counts are those of its two packs.
      await expect.poll(() => optionTexts(page, 'Duration')).toEqual(['Any duration', 'Under 15 seconds (1)', '15 seconds – 1 minute (1)']);

      await page.getByRole('combobox', { name: 'Duration', exact: true }).selectOption('under-15s');
      await page.waitForURL((u) => u.searchParams.get('duration_max') === '15');
      expect(param(page, 'duration_min')).toBeNull();
      expect(param(page, 'app')).toBe('after-effects');
      await expectCards(page, ['Alpha']);
      await expectAccessible(page);

      // The link reproduces the view, rendered so by the server.
      const html = await (await fetch(page.url())).text();
      const root = html.slice(html.indexOf('<div id="root">'));
      expect(root).toContain(title('Alpha'));
      expect(root).not.toContain(title('Gamma'));

      await page.goBack();
      await page.waitForURL((u) => u.searchParams.get('duration_max') === null && u.searchParams.get('app') === 'after-effects');
      await expectCards(page, ['Alpha', 'Gamma']);
      await page.goBack();
      await page.waitForURL((u) => u.searchParams.get('app') === null);
      await expectCards(page, ['Alpha', 'Beta', 'Gamma']);

      // A filter that matches nothing: the empty state clears it.
      await page.goto(`/categories/motion-graphics?q=${word}&orientation=portrait`);
      await page.getByRole('heading', { name: 'No resources found' }).waitFor();
      await page.getByRole('main').getByRole('button', { name: 'Clear filters' }).last().click();
      await page.waitForURL((u) => u.searchParams.get('orientation') === null);
      await grid(page).waitFor();
      s.expectNoConsoleErrors();
      await s.close();
    },
    SLOW,
  );

  it(
    'searches from the header of a resource page: "/" focuses it, Enter opens /search with results across categories and counts per category',
    async () => {
      const s = await openPage(env.browser, env.server.url);
      const { page } = s;
      await page.goto(made.alpha.url);
      await waitLive(page);
      const box = page.getByRole('searchbox', { name: 'Search all resources' });
      // With a modifier, "/" is someone else's shortcut.
      await page.keyboard.press('Control+/');
      expect(await box.evaluate((el) => el === document.activeElement)).toBe(false);
      await page.keyboard.press('/');
      await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.press('Escape');
      await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(false);
      await page.keyboard.press('/');
      await page.keyboard.type(word);
      await page.keyboard.press('Enter');
      await page.waitForURL((u) => u.pathname === '/search' && u.searchParams.get('q') === word);
      await expectCards(page, ['Alpha', 'Beta', 'Gamma', 'Delta']);
      await expect.poll(() => page.title()).toBe(`Search: ${word} - Resource Vault`);
      // Each card says its category.
      const delta = grid(page).locator(':scope > li').filter({ hasText: title('Delta') });
      await delta.getByRole('link', { name: 'Sound Effects' }).waitFor();

      const categories = page.getByRole('group', { name: 'Filter by category' });
      const categoryButtons = async () => (await categories.getByRole('button').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
      await expect.poll(categoryButtons).toEqual(['All categories 4', 'Sound Effects 1', 'Motion Graphics 3']);
      await categories.getByRole('button', { name: /^Sound Effects/ }).click();
      await page.waitForURL((u) => u.searchParams.get('category') === 'sound_effects');
      await expectCards(page, ['Delta']);
      await expectAccessible(page);
      await page.goBack();
      await expectCards(page, ['Alpha', 'Beta', 'Gamma', 'Delta']);
      await screenshot(page, 'search-desktop');
      s.expectNoConsoleErrors();
      await s.close();
    },
    SLOW,
  );

  it(
    'on a phone the header search is an icon that opens the box',
    async () => {
      const s = await openPage(env.browser, env.server.url, { viewport: 'mobile' });
      const { page } = s;
      await page.goto(made.delta.url);
      await waitLive(page);
      const box = page.getByRole('searchbox', { name: 'Search all resources' });
      expect(await box.isVisible()).toBe(false);
      await page.getByRole('banner').getByRole('button', { name: 'Search', exact: true }).click();
      await box.waitFor();
      await box.fill(word);
      await box.press('Enter');
      await page.waitForURL((u) => u.pathname === '/search' && u.searchParams.get('q') === word);
      await expectCards(page, ['Alpha', 'Beta', 'Gamma', 'Delta']);
      await screenshot(page, 'search-mobile');
      s.expectNoConsoleErrors();
      await s.close();
    },
    SLOW,
  );

  it(
    'the home box filters the category cards and offers "Search all resources for …", also when no card matches',
    async () => {
      const s = await openPage(env.browser, env.server.url);
      const { page } = s;
      await page.goto('/');
      await waitLive(page);
      const home = page.getByRole('searchbox', { name: 'Search categories' });
      // Typing a "/" in a text box types it: the header's box does not take the focus.
      await home.click();
      await page.keyboard.type('LUT/');
      expect(await home.inputValue()).toBe('LUT/');
      expect(await home.evaluate((el) => el === document.activeElement)).toBe(true);
      await home.fill('fonts');
      await page.getByRole('link', { name: 'Search all resources for “fonts”' }).waitFor();
      await home.fill(word);
      await page.getByText(`No categories match “${word}”`).waitFor();
      await page.getByRole('link', { name: `Search all resources for “${word}”` }).click();
      await page.waitForURL((u) => u.pathname === '/search' && u.searchParams.get('q') === word);
      await expectCards(page, ['Alpha', 'Beta', 'Gamma', 'Delta']);
      s.expectNoConsoleErrors();
      await s.close();
    },
    SLOW,
  );
});
