import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { API } from '../src/contract/api-paths';
import type { Resource, ResourceList } from '../src/contract/resources';
import { expectAccessible, openPage, screenshot, toast, useAdminSessions, useBrowserServer } from './harness';

/**
 * Bulk actions on the admin list (issue 30): select drafts and publish them, and they are public;
 * shift-click selects a range; "Select all N matching" selects the list's matches on every page.
 */
const word = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const SLOW = 150_000;

describe('bulk actions in a real browser', () => {
  const env = useBrowserServer();
  const { openAsAdmin } = useAdminSessions(env);

  /** Drafts made through the admin API, oldest first (so the list, newest first, shows them reversed). */
  async function makeDrafts(page: Page, category: string, titles: string[]): Promise<Resource[]> {
    const made: Resource[] = [];
    for (const title of titles) {
      const res = await page.request.post(`${env.server.url}${API.adminResources}`, {
        data: { title, description: 'Made by the bulk browser test.', category, thumbnail_url: '/thumbnails/1.svg', download_url: 'https://downloads.example.com/bulk.zip', status: 'draft' },
      });
      expect(res.status()).toBe(201);
      made.push((await res.json()) as Resource);
    }
    return made;
  }

  const publicSearch = async (slug: string, q: string) => {
    const res = await fetch(`${env.server.url}${API.resources}?category=${slug}&q=${encodeURIComponent(q)}&limit=100`);
    expect(res.status).toBe(200);
    return (await res.json()) as ResourceList;
  };

  it(
    'selects some drafts, publishes them: a toast says how many, they are public and the others stay drafts',
    async () => {
      const s = await openAsAdmin();
      const { page } = s;
      await page.goto('/admin/dashboard');
      const key = word('bulkpub');
      const drafts = await makeDrafts(page, 'color_grading', [1, 2, 3, 4].map((i) => `${key} Look ${i}`));
      await page.goto(`/admin/resources/color_grading?status=draft&q=${key}`);
      const row = (r: Resource) => page.getByRole('row').filter({ hasText: r.title });
      const box = (r: Resource) => page.getByRole('checkbox', { name: `Select ${r.title}` });
      for (const d of drafts) await row(d).waitFor();

      // Two of them: one by the mouse, one by the keyboard (Space on the focused box).
      await box(drafts[0]).click();
      await box(drafts[2]).focus();
      await page.keyboard.press('Space');
      const bar = page.getByRole('region', { name: 'Bulk actions' });
      await bar.getByText('2 selected').waitFor();
      expect(await box(drafts[0]).isChecked()).toBe(true);
      expect(await box(drafts[1]).isChecked()).toBe(false);
      expect(await page.getByRole('checkbox', { name: 'Select all on this page' }).evaluate((e: HTMLInputElement) => e.indeterminate)).toBe(true);
      await expectAccessible(page);
      await screenshot(page, 'bulk-selection');

      await bar.getByRole('button', { name: 'Publish', exact: true }).click();
      await toast(page, '2 published').waitFor();
      // Done: they leave the drafts list and the selection; the bar goes.
      await expect.poll(() => row(drafts[0]).count()).toBe(0);
      await expect.poll(() => row(drafts[2]).count()).toBe(0);
      await bar.waitFor({ state: 'detached' });
      await row(drafts[1]).waitFor();
      // The focused button went with the bar: focus is on the page's box, not lost to the body.
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Select all on this page');

      const found = await publicSearch('color-grading', key);
      expect(found.items.map((r) => r.title).sort()).toEqual([drafts[0].title, drafts[2].title].sort());
      // And on the public category page a visitor opens.
      const visitor = await openPage(env.browser, env.server.url);
      await visitor.page.goto(`/categories/color-grading?q=${key}`);
      await visitor.page.getByRole('heading', { name: drafts[0].title, exact: true }).waitFor();
      await visitor.page.getByRole('heading', { name: drafts[2].title, exact: true }).waitFor();
      expect(await visitor.page.getByRole('heading', { name: drafts[1].title, exact: true }).count()).toBe(0);
      await visitor.close();
      s.expectNoConsoleErrors();
      await s.close();
    },
    SLOW,
  );

  it(
    'shift-click selects a range; the page box then "Select all N matching" selects every match, on every page, for the action',
    async () => {
      const s = await openAsAdmin();
      const { page } = s;
      await page.goto('/admin/dashboard');
      const key = word('bulkall');
      // More than a page (25) of matches.
      const drafts = await makeDrafts(page, 'typography', Array.from({ length: 30 }, (_, i) => `${key} Face ${String(i).padStart(2, '0')}`));
      await page.goto(`/admin/resources/typography?q=${key}`);
      const shown = [...drafts].reverse(); // newest first
      const box = (r: Resource) => page.getByRole('checkbox', { name: `Select ${r.title}` });
      await box(shown[0]).waitFor();
      await page.getByText('Showing 1–25 of 30').waitFor();

      // A click on the 2nd row, a shift-click on the 6th: rows 2 to 6.
      await box(shown[1]).click();
      await box(shown[5]).click({ modifiers: ['Shift'] });
      const bar = page.getByRole('region', { name: 'Bulk actions' });
      await bar.getByText('5 selected').waitFor();
      const states = await Promise.all(shown.slice(0, 8).map((r) => box(r).isChecked()));
      expect(states).toEqual([false, true, true, true, true, true, false, false]);
      // Shift-click back up from the 6th to the 4th unselects 4 to 6.
      await box(shown[3]).click({ modifiers: ['Shift'] });
      await bar.getByText('2 selected').waitFor();
      expect(await Promise.all(shown.slice(0, 7).map((r) => box(r).isChecked()))).toEqual([false, true, true, false, false, false, false]);

      // The page, then every match.
      await page.getByRole('checkbox', { name: 'Select all on this page' }).click();
      await bar.getByText('25 selected').waitFor();
      await page.getByText('All 25 on this page are selected.').waitFor();
      await page.getByRole('button', { name: 'Select all 30 matching' }).click();
      await page.getByText('All 30 matching are selected.').waitFor();
      await bar.getByText('30 selected').waitFor();
      await screenshot(page, 'bulk-select-all-matching');

      await bar.getByRole('button', { name: 'Publish', exact: true }).click();
      await toast(page, '30 published').waitFor();
      await bar.waitFor({ state: 'detached' });
      expect((await publicSearch('typography', key)).total).toBe(30);
      s.expectNoConsoleErrors();
      await s.close();
    },
    SLOW,
  );
  it(
    'tags, move and delete ask first (the tag picker, a category, the delete confirmation), then say what was done',
    async () => {
      const s = await openAsAdmin();
      const { page } = s;
      await page.goto('/admin/dashboard');
      const key = word('bulkask');
      const drafts = await makeDrafts(page, 'motion_graphics', [1, 2].map((i) => `${key} Motion ${i}`));
      await page.goto(`/admin/resources/motion_graphics?q=${key}`);
      const box = (r: Resource) => page.getByRole('checkbox', { name: `Select ${r.title}` });
      await box(drafts[0]).click();
      await box(drafts[1]).click();
      const bar = page.getByRole('region', { name: 'Bulk actions' });

      await bar.getByRole('button', { name: 'Add tags…' }).click();
      const tags = page.getByRole('dialog', { name: 'Add tags to 2 resources' });
      // Nothing chosen: the dialog says so and sends nothing.
      await tags.getByRole('button', { name: 'Add tags', exact: true }).click();
      await tags.getByText('Choose at least one tag').waitFor();
      await tags.getByRole('textbox').fill('Bulk Tagged');
      await tags.getByRole('textbox').press('Enter');
      await tags.getByRole('button', { name: 'Add tags', exact: true }).click();
      await toast(page, '2 tagged').waitFor();
      await tags.waitFor({ state: 'detached' });
      // Failed ones stay selected, done ones leave: all done, so select them again.
      await bar.waitFor({ state: 'detached' });
      for (const d of drafts) {
        const res = await page.request.get(`${env.server.url}${API.adminResources}?category=motion_graphics&id=${d.id}`);
        expect(((await res.json()) as { items: Resource[] }).items[0]!.tags).toEqual(['Bulk Tagged']);
      }

      await box(drafts[0]).click();
      await box(drafts[1]).click();
      await bar.getByRole('button', { name: 'Move…' }).click();
      const move = page.getByRole('dialog', { name: 'Move 2 resources' });
      await move.getByLabel('Move to').selectOption({ label: 'Sound Effects' });
      await move.getByRole('button', { name: 'Move', exact: true }).click();
      await toast(page, '2 moved to Sound Effects').waitFor();
      await page.getByText(`No resources match “${key}”.`).waitFor();

      await page.goto(`/admin/resources/sound_effects?q=${key}`);
      await box(drafts[0]).click();
      await box(drafts[1]).click();
      await bar.getByRole('button', { name: 'Delete' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Are you sure you want to delete these 2 resources?' });
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await toast(page, '2 deleted').waitFor();
      await page.getByText(`No resources match “${key}”.`).waitFor();
      s.expectNoConsoleErrors();
      await s.close();
    },
    SLOW,
  );
});
