import { describe, expect, it } from 'vitest';
import { API } from '../src/contract/api-paths';
import type { Resource } from '../src/contract/resources';
import { expectAccessible, screenshot, unique, useAdminSessions, useBrowserServer } from './harness';

/**
 * The Activity page (docs/decisions/420-the-audit-log.md) in a real browser: changes made through
 * the API appear newest first; filtering by action narrows the list to that action (and the CSV
 * link follows the filter); a resource's edit page shows its own history.
 */
const SLOW = 150_000;

describe('the Activity page in a real browser', () => {
  const env = useBrowserServer();
  const { openAsAdmin, cookieHeader } = useAdminSessions(env);

  async function adminApi<T>(path: string, method: string, body: unknown): Promise<T> {
    const res = await fetch(env.server.url + path, { method, body: JSON.stringify(body), headers: { cookie: cookieHeader(), 'content-type': 'application/json' } });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    return (await res.json()) as T;
  }

  it(
    'lists the changes, filters them by action, and shows a resource its history',
    async () => {
      const title = unique('Activity Pack');
      const created = await adminApi<Resource>(API.adminResources, 'POST', {
        title,
        description: 'Made by the activity browser test.',
        category: 'typography',
        thumbnail_url: '/thumbnails/1.svg',
        download_url: 'https://downloads.example.com/activity.zip',
      });
      await adminApi<Resource>(API.adminResource(created.id), 'PATCH', { title: `${title} renamed` });
      const message = unique('Activity announcement');
      await adminApi(API.adminAnnouncements, 'POST', { message });

      const s = await openAsAdmin();
      const { page } = s;
      await page.goto('/admin/dashboard');
      await page.getByRole('link', { name: /Activity/ }).click();
      await page.getByRole('heading', { level: 1, name: 'Activity' }).waitFor();
      const entries = page.getByRole('list', { name: 'Activity entries' }).getByRole('listitem');
      await entries.filter({ hasText: 'Created an announcement' }).first().waitFor();
      await entries.filter({ hasText: 'Edited a resource' }).first().waitFor();
      expect(await entries.filter({ hasText: 'Created a resource' }).count()).toBeGreaterThan(0);
      await expectAccessible(page);

      // Filtering by action: only that action's entries are left.
      await page.getByLabel('Action').selectOption({ label: 'Edited a resource' });
      await expect.poll(() => entries.filter({ hasText: 'Created an announcement' }).count()).toBe(0);
      // Loaded (not the skeleton between two queries) and all of that action.
      await expect
        .poll(async () => {
          const actions = await entries.evaluateAll((els) => els.map((e) => e.getAttribute('data-action')));
          return actions.length > 0 && actions.every((a) => a === 'resource.update');
        })
        .toBe(true);
      expect(await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe(`${API.adminAuditCsv}?action=resource.update`);

      // The changed field, before and after.
      const edit = entries.filter({ hasText: `Resource ${created.id}` }).first();
      await edit.getByText(/^Details/).click();
      await edit.getByText(`${title} renamed`).waitFor();
      await screenshot(page, 'activity-filtered');

      // A filter that matches nothing says so.
      await page.getByLabel('Action').selectOption({ label: 'Removed an admin' });
      await page.getByText('No activity matches these filters').waitFor();
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await entries.filter({ hasText: 'Created an announcement' }).first().waitFor();

      // The resource's own history on its edit page.
      await page.goto(`/admin/resources/typography/${created.id}/edit`);
      const history = page.getByRole('region', { name: 'History' });
      await history.getByText('Edited a resource').waitFor();
      await history.getByText('Created a resource').waitFor();
      expect(await history.getByText('Created an announcement').count()).toBe(0);
      await history.scrollIntoViewIfNeeded();
      await screenshot(page, 'resource-history');

      s.expectNoConsoleErrors();
      await s.close();
    },
    SLOW,
  );
});
