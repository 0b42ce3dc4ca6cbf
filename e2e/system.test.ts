import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyArchive } from '../src/server/modules/backups/restore';
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
      expect(parts).toEqual(['Application', 'Database', 'File storage', 'ffmpeg', 'Jobs', 'Link checks', 'Backups', 'Instances running (1)', 'Backups in the file store']);
      await expect.poll(() => page.getByText(/^ffmpeg version \S+$/).count()).toBe(1);
      await expect.poll(() => page.getByText('SQLite').count()).toBe(1);
      await expectAccessible(page);
    } finally {
      await s.close();
    }
  });

  it('Back up now: the new backup is listed, and its download link answers the archive', async () => {
    const s = await openAsAdmin();
    const dir = await mkdtemp(path.join(os.tmpdir(), 'rv-e2e-backup-'));
    try {
      const { page } = s;
      await page.goto('/admin/system');
      const downloads = page.getByRole('link', { name: /^Download the backup of / });
      // The list has loaded: empty, or the backups an earlier attempt made.
      await page.getByText('No backups yet.').or(downloads.first()).waitFor();
      const before = await downloads.count();
      await page.getByRole('button', { name: 'Back up now' }).click();
      await page.getByText('Backup started').first().waitFor();
      // Listed once the job has written it; the button is back once it is done.
      await expect.poll(() => downloads.count(), { timeout: 30_000 }).toBe(before + 1);
      await page.getByRole('button', { name: 'Back up now' }).and(page.locator(':enabled')).waitFor();
      const href = (await downloads.first().getAttribute('href'))!;
      const res = await fetch(new URL(href, env.server.url));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="resource-vault-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z\.tar"/);
      const file = path.join(dir, 'backup.tar');
      await writeFile(file, Buffer.from(await res.arrayBuffer()));
      const { header, manifest } = await verifyArchive(file);
      expect(header.dialect).toBe('sqlite');
      expect(manifest.rows.resources).toBeGreaterThan(0);
      await expectAccessible(page);
    } finally {
      await s.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
