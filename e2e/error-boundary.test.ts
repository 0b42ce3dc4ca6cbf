import { describe, expect, it } from 'vitest';
import { API } from '../src/contract/api-paths';
import type { AnnouncementList } from '../src/contract/announcements';
import type { ResourceList } from '../src/contract/resources';
import { useBrowserServer, openPage, screenshot } from './harness';

/**
 * A render error shows a page that says so, with a retry and a way home, instead of a blank or
 * broken screen, and the error is logged once. The error is real: a row whose date no longer
 * parses (a hand-edited or badly imported SQLite file keeps any text in a date column), which
 * the server returns as stored and the page cannot show.
 */
describe('route error boundary', () => {
  const env = useBrowserServer();

  const INVALID_DATE = /Invalid time value/;
  const SERVER_RENDER_SKIPPED = /^pageerror: Minified React error #419;/;
  const db = () => env.server.database.db;

  it('a public page that cannot render shows the error page inside the site, logs once, and Try Again recovers', async () => {
    const list = (await (await fetch(`${env.server.url}${API.resources}?category=typography`)).json()) as ResourceList;
    const victim = list.items[0];
    await db().updateTable('resources').set({ created_at: 'yesterday-ish' }).where('id', '=', victim.id).execute();

    const s = await openPage(env.browser, env.server.url);
    const { page } = s;
    await page.goto('/categories/typography');
    const alert = page.getByRole('main').getByRole('alert');
    await alert.getByRole('heading', { level: 1, name: 'Something went wrong' }).waitFor();
    // Inside the site: its header is still there.
    expect(await page.getByRole('banner').getByRole('link', { name: /Resource Vault/ }).isVisible()).toBe(true);
    expect(await alert.getByRole('link', { name: 'Back to Home' }).getAttribute('href')).toBe('/');
    await expect.poll(() => page.title()).toBe('Something went wrong - Resource Vault');
    await screenshot(page, 'error-boundary-page');
    expect(s.errors.filter((e) => INVALID_DATE.test(e)), s.errors.join('\n')).toHaveLength(1);
    // The server rendered the page around the cards it could not render; React reports that it
    // rendered them in the browser instead (a recoverable error, minified #419), where they failed.
    s.expectNoConsoleErrors([INVALID_DATE, SERVER_RENDER_SKIPPED]);

    // The data is repaired; Try Again shows the page.
    await db().updateTable('resources').set({ created_at: victim.created_at }).where('id', '=', victim.id).execute();
    await alert.getByRole('button', { name: 'Try Again' }).click();
    await page.getByRole('list', { name: 'Resources', exact: true }).getByRole('heading', { name: victim.title }).first().waitFor();
    expect(await page.getByText('Something went wrong').count()).toBe(0);
    s.expectNoConsoleErrors([INVALID_DATE, SERVER_RENDER_SKIPPED]);
    await s.close();
  });

  it('a part of the layout that cannot render shows the error page on its own, with a way home', async () => {
    const active = (await (await fetch(`${env.server.url}${API.activeAnnouncements}`)).json()) as AnnouncementList;
    const announcement = active.items[0];
    expect(announcement).toBeDefined();
    await db().updateTable('announcements').set({ created_at: 'not a date' }).where('id', '=', announcement.id).execute();
    try {
      const s = await openPage(env.browser, env.server.url, { viewport: 'mobile' });
      const { page } = s;
      // The notification bell in the header renders each announcement's age.
      await page.goto('/community');
      const alert = page.getByRole('alert');
      await alert.getByRole('heading', { level: 1, name: 'Something went wrong' }).waitFor();
      expect(await page.getByRole('banner').count()).toBe(0);
      await screenshot(page, 'error-boundary-app-mobile');
      expect(s.errors.filter((e) => INVALID_DATE.test(e)), s.errors.join('\n')).toHaveLength(1);
      s.expectNoConsoleErrors([INVALID_DATE]);

      await alert.getByRole('link', { name: 'Back to Home' }).click();
      await page.waitForURL((u) => u.pathname === '/');
      await page.getByRole('heading', { name: 'Browse Categories' }).waitFor();
      await s.close();
    } finally {
      await db().updateTable('announcements').set({ created_at: announcement.created_at }).where('id', '=', announcement.id).execute();
    }
  });
});
