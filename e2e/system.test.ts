import { describe, expect, it } from 'vitest';
import { expectAccessible, useAdminSessions, useBrowserServer } from './harness';

/** The System page (issue 32): a super admin opens it from the dashboard and reads each part's health. */
describe('the System page in a real browser', () => {
  const env = useBrowserServer();
  const { openAsAdmin } = useAdminSessions(env);

  it('shows the application, database, storage, ffmpeg, jobs, link checks and this instance', async () => {
    const s = await openAsAdmin();
    try {
      const { page } = s;
      await page.goto('/admin/dashboard');
      await page.getByRole('link', { name: /^System/ }).click();
      await page.getByRole('heading', { level: 1, name: 'System' }).waitFor();
      // The figures arrive after the page: wait on the last part, which lists this instance.
      await page.getByText('answered this page').waitFor();
      const parts = await page.getByRole('heading', { level: 2 }).allTextContents();
      expect(parts).toEqual(['Application', 'Database', 'File storage', 'ffmpeg', 'Jobs', 'Link checks', 'Backups', 'Instances running (1)']);
      await expect.poll(() => page.getByText(/^ffmpeg version \S+$/).count()).toBe(1);
      await expect.poll(() => page.getByText('SQLite').count()).toBe(1);
      await expectAccessible(page);
    } finally {
      await s.close();
    }
  });
});
