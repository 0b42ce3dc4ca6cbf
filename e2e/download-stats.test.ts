import { readFileSync } from 'node:fs';
import type { BrowserContext } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { API } from '../src/contract/api-paths';
import { STORAGE_ADMIN } from '../src/contract/constants';
import type { DownloadStats, ResourceDownloadStats } from '../src/contract/downloads';
import { downloadsDb } from '../src/server/modules/downloads/queries';
import { dayOf } from '../src/server/time';
import { expectAccessible, openPage, screenshot, type Session, signIn, useBrowserServer } from './harness';

const SLOW = 150_000;
const DAY_MS = 86_400_000;
const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const daysAgo = (n: number) => dayOf(new Date(Date.now() - n * DAY_MS));

describe('download statistics in a real browser', () => {
  const env = useBrowserServer({ trustProxy: true, downloads: { counting: 'unique', rateLimit: 30 } });
  let cookies: Awaited<ReturnType<BrowserContext['cookies']>>;
  let profile: string;
  let resourceId: number;
  let title: string;

  const apiGet = async <T>(url: string) => {
    const res = await env.server.app.inject({ method: 'GET', url, headers: { cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; ') } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as T;
  };
  const openSignedIn = async (viewport: 'desktop' | 'mobile' = 'desktop'): Promise<Session> => {
    const s = await openPage(env.browser, env.server.url, { viewport });
    await s.context.addCookies(cookies);
    // The signed-in profile the app keeps, as after a sign-in in this browser.
    await s.context.addInitScript(([key, v]) => localStorage.getItem(key) ?? localStorage.setItem(key, v), [STORAGE_ADMIN, profile] as const);
    return s;
  };

  beforeAll(async () => {
    const s = await openPage(env.browser, env.server.url);
    await signIn(s.page);
    cookies = await s.context.cookies();
    profile = (await s.page.evaluate((k) => localStorage.getItem(k), STORAGE_ADMIN))!;
    await s.close();

    // The first resource the admin list shows for the category.
    const list = await env.server.app.inject({
      method: 'GET',
      url: `${API.adminResources}?category=video_editing&limit=25`,
      headers: { cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; ') },
    });
    const r = (list.json() as { items: { id: number; title: string }[] }).items[0];
    resourceId = r.id;
    title = r.title;
    // The demo gave it a history of its own (src/server/demo/demo-data.ts): taken off the site's days and its total, it starts from none.
    const { db } = env.server.database;
    for (const d of await downloadsDb(db).selectFrom('resource_download_days').selectAll().where('resource_id', '=', resourceId).execute()) {
      await db.updateTable('download_days').set((eb) => ({ count: eb('count', '-', d.count) })).where('day', '=', d.day).execute();
    }
    await downloadsDb(db).deleteFrom('resource_download_days').where('resource_id', '=', resourceId).execute();
    await db.updateTable('resources').set({ download_count: 0 }).where('id', '=', resourceId).execute();
    // History from earlier days, as the recorder writes it (per resource and day, and the day's total).
    const history: [number, number][] = [
      [3, 4],
      [20, 6],
      [60, 9],
      [200, 11],
    ];
    for (const [ago, n] of history) {
      await downloadsDb(env.server.database.db).insertInto('resource_download_days').values({ resource_id: resourceId, day: daysAgo(ago), count: n }).execute();
      await env.server.database.db
        .insertInto('download_days')
        .values({ day: daysAgo(ago), count: n })
        .onConflict((oc) => oc.column('day').doUpdateSet((eb) => ({ count: eb('download_days.count', '+', n) })))
        .execute();
      await env.server.database.db
        .updateTable('resources')
        .set((eb) => ({ download_count: eb('download_count', '+', n) }))
        .where('id', '=', resourceId)
        .execute();
    }
    // Today: three visitors download it, one of them twice (counted once).
    for (const ip of ['203.0.113.10', '203.0.113.11', '203.0.113.12', '203.0.113.12']) {
      const res = await fetch(env.server.url + API.download(resourceId), { method: 'POST', headers: { 'user-agent': BROWSER_UA, 'x-forwarded-for': ip } });
      expect(res.status).toBe(200);
    }
  }, SLOW);

  it(
    'switches the dashboard chart between 7, 30, 90 and 365 days, with the breakdown by category',
    async () => {
      const s = await openSignedIn();
      await s.page.goto('/admin/dashboard');
      const chart = s.page.locator('figure[data-chart="downloads-per-day"]');
      await chart.locator('svg.recharts-surface').first().waitFor();
      for (const days of [30, 7, 90, 365] as const) {
        const expected = await apiGet<DownloadStats>(`${API.adminDownloads}?days=${days}`);
        await s.page.getByRole('group', { name: 'Range' }).getByRole('button', { name: `${days} days` }).click();
        await s.page.locator(`figure[data-chart="downloads-per-day"][data-days="${days}"]`).waitFor();
        expect(await s.page.getByRole('button', { name: `${days} days` }).getAttribute('aria-pressed')).toBe('true');
        await s.page.getByRole('img', { name: new RegExp(`^${expected.total.toLocaleString('en-US')} downloads? in the last ${days} days`) }).waitFor();
        // Its data table has one row per day.
        expect(await chart.locator('table tbody tr').count()).toBe(days);
        if (days === 7) await screenshot(s.page, 'downloads-dashboard-7');
        if (days === 365) {
          // The longer range is drawn as an area.
          expect(await chart.locator('.recharts-area').count()).toBe(1);
          await chart.scrollIntoViewIfNeeded();
          await screenshot(s.page, 'downloads-dashboard-365');
        }
        const byCategory = s.page.locator('figure[data-chart="downloads-by-category"]');
        const video = expected.categories.find((c) => c.category === 'video_editing')!.count;
        expect(video).toBeGreaterThanOrEqual(3);
        await byCategory.locator('tbody tr', { hasText: 'Video Editing' }).filter({ hasText: video.toLocaleString('en-US') }).waitFor({ state: 'attached' });
      }
      // The data tables are readable by assistive technology while folded away (not inside a closed <details>).
      const table = chart.getByRole('table', { name: 'Downloads per day' });
      expect(await table.getByRole('row').count()).toBe(365 + 1);
      const toggle = chart.getByRole('button', { name: 'Show data table' });
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      // What the button controls: the table's box, visually hidden (1 px) until shown.
      const box = s.page.locator(`[id="${await toggle.getAttribute('aria-controls')}"]`);
      expect((await box.boundingBox())!.height).toBeLessThanOrEqual(1);
      await toggle.click();
      await chart.getByRole('button', { name: 'Hide data table' }).waitFor();
      expect(await chart.getByRole('button', { name: 'Hide data table' }).getAttribute('aria-expanded')).toBe('true');
      expect((await box.boundingBox())!.height).toBeGreaterThan(100);
      expect(await s.page.getByRole('table', { name: 'Downloads by category' }).getByRole('row', { name: /Video Editing/ }).count()).toBe(1);
      await expectAccessible(s.page);
      s.expectNoConsoleErrors();
      await s.close();
    },
    SLOW,
  );

  it(
    'shows a resource’s statistics from the admin list: total, rank, per-day chart and its CSV',
    async () => {
      const s = await openSignedIn();
      await s.page.goto('/admin/resources/video_editing');
      await s.page.getByRole('link', { name: `Statistics for ${title}` }).click();
      await s.page.waitForURL(`**/admin/resources/video_editing/${resourceId}/stats`);
      const expected = await apiGet<ResourceDownloadStats>(`${API.adminResourceDownloads(resourceId)}?days=30`);
      expect(expected.range_total).toBe(4 + 6 + 3);
      await s.page.getByRole('heading', { level: 1, name: title }).waitFor();
      const figures = s.page.getByRole('region', { name: 'Figures' });
      await figures.getByText(expected.total.toLocaleString('en-US'), { exact: true }).waitFor();
      await figures.getByText(`#${expected.rank} of ${expected.category_size}`, { exact: true }).waitFor();
      await figures.getByText('13', { exact: true }).waitFor();
      await s.page.getByRole('img', { name: /^13 downloads in the last 30 days/ }).waitFor();
      // This server counts unique visitors (the footnote follows DOWNLOAD_COUNTING).
      await s.page.getByText('A download counts once per visitor per day; bots, signed-in admins and prefetches are not counted.').waitFor();
      await screenshot(s.page, 'downloads-stats-30');

      await s.page.getByRole('button', { name: '365 days' }).click();
      await s.page.getByRole('img', { name: /^33 downloads in the last 365 days/ }).waitFor();
      await figures.getByText('Last 365 days', { exact: true }).waitFor();
      // All-time and the last 365 days are the same here: 30 from the seeded history and 3 today.
      expect(await figures.getByText('33', { exact: true }).count()).toBe(2);

      const downloaded = s.page.waitForEvent('download');
      await s.page.getByRole('link', { name: 'Export CSV' }).click();
      const file = await downloaded;
      expect(file.suggestedFilename()).toBe(`resource-${resourceId}-downloads-${daysAgo(364)}-to-${daysAgo(0)}.csv`);
      const lines = readFileSync((await file.path())!, 'utf8').split('\r\n');
      expect(lines[0]).toBe('day,downloads');
      expect(lines).toHaveLength(367);
      expect(lines).toContain(`${daysAgo(200)},11`);
      expect(lines).toContain(`${daysAgo(20)},6`);
      expect(lines[365]).toBe(`${daysAgo(0)},3`);
      s.expectNoConsoleErrors();
      await s.close();

      const phone = await openSignedIn('mobile');
      await phone.page.goto(`/admin/resources/video_editing/${resourceId}/stats`);
      await phone.page.getByRole('img', { name: /^13 downloads in the last 30 days/ }).waitFor();
      await screenshot(phone.page, 'downloads-stats-390', { fullPage: true });
      await phone.page.goto('/admin/dashboard');
      await phone.page.locator('figure[data-chart="downloads-by-category"] svg.recharts-surface').first().waitFor();
      await phone.page.locator('figure[data-chart="downloads-per-day"]').scrollIntoViewIfNeeded();
      await screenshot(phone.page, 'downloads-dashboard-390');
      phone.expectNoConsoleErrors();
      await phone.close();
    },
    SLOW,
  );

  it(
    'a signed-in admin reaches the statistics from the resource’s page; a visitor sees no such link',
    async () => {
      const { url } = (await (await fetch(env.server.url + API.resource(resourceId))).json()) as { url: string };
      const visitor = await openPage(env.browser, env.server.url);
      const requests: string[] = [];
      visitor.page.on('request', (r) => requests.push(new URL(r.url()).pathname));
      await visitor.page.goto(url);
      await visitor.page.getByRole('heading', { level: 1, name: title }).waitFor();
      // Hydrated (the share button works only then) and still no link, and no session check for a visitor.
      await visitor.page.getByRole('button', { name: 'Share' }).waitFor();
      await visitor.page.waitForFunction(() => !document.getElementById('rv-initial-data'));
      expect(await visitor.page.getByRole('link', { name: 'Statistics' }).count()).toBe(0);
      expect(requests).not.toContain(API.me);
      visitor.expectNoConsoleErrors();
      await visitor.close();

      const s = await openSignedIn();
      await s.page.goto(url);
      await s.page.getByRole('link', { name: 'Statistics' }).click();
      await s.page.waitForURL(`**/admin/resources/video_editing/${resourceId}/stats`);
      await s.page.getByRole('heading', { level: 1, name: title }).waitFor();
      s.expectNoConsoleErrors();
      await s.close();
    },
    SLOW,
  );
});
