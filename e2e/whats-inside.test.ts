import os from 'node:os';
import path from 'node:path';
import { readFileSync, rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API } from '../src/contract/api-paths';
import type { PublicResource, Resource } from '../src/contract/resources';
import { type FilesTestApp, tusUpload } from '../src/server/testing/files-helpers';
import { testMediaTools } from '../src/server/testing/media-tools';
import { H264, makeClip } from '../src/server/testing/test-media';
import { zipOf } from '../src/server/testing/zip-writer';
import { expectAccessible, openPage, unique, useAdminSessions, useBrowserServer, waitLive } from './harness';

/**
 * "What's inside" on a pack's page (issue 33) in a real browser: the apps deduced from the ZIP's
 * files as badges, the facts of its video preview, and the file tree with sizes, collapsed past
 * 50 files until "Show all N files" (by keyboard) shows the rest.
 */
const SLOW = 180_000;

describe('what is inside a pack, on its page', () => {
  const env = useBrowserServer();
  const { cookieHeader, openAsAdmin } = useAdminSessions(env);
  let packUrl = '';
  let packId = 0;

  it(
    'shows the apps, the facts and the file tree; "Show all" by keyboard lists every file',
    async () => {
      const uploader = { base: env.server.url, headers: { cookie: cookieHeader(), origin: env.server.url } } as unknown as FilesTestApp;
      const titles = Array.from({ length: 60 }, (_, i) => ({ name: `Pack/Titles/Title ${String(i + 1).padStart(2, '0')}.mogrt`, data: 'm'.repeat(1000 + i) }));
      const zip = await zipOf([...titles, { name: 'Pack/Project.aep', data: 'a'.repeat(3400) }, { name: 'Pack/Look.cube', data: 'LUT_3D_SIZE 2\n' }, { name: 'Pack/Read me.txt', data: 'Thanks.' }]);
      const download = await tusUpload(uploader, zip, { name: 'Titles pack.zip' });
      const clipFile = await makeClip(testMediaTools(), path.join(os.tmpdir(), `rv-inside-${process.pid}.mp4`), 'testsrc2=s=320x180:r=25:d=2[out0];sine=f=330:d=2[out1]', 2, [...H264, '-c:a', 'aac']);
      const clip = await tusUpload(uploader, readFileSync(clipFile), { name: 'preview.mp4' });
      rmSync(clipFile);

      const title = unique('Inside Titles Pack');
      const res = await fetch(env.server.url + API.adminResources, {
        method: 'POST',
        headers: { cookie: cookieHeader(), 'content-type': 'application/json' },
        body: JSON.stringify({
          title,
          description: 'Sixty titles for Premiere Pro, an After Effects project and a look.',
          category: 'motion_graphics',
          thumbnail_url: '/thumbnails/1.svg',
          download_upload_id: download.id,
          preview_source: { kind: 'video', upload_id: clip.id },
        }),
      });
      expect(res.status, await res.clone().text()).toBe(201);
      const resource = (await res.json()) as Resource;
      packUrl = resource.url;
      packId = resource.id;
      // The listing and the preview are jobs: the page is opened once both are ready.
      await expect
        .poll(
          async () => {
            const r = (await (await fetch(env.server.url + API.resource(resource.id))).json()) as PublicResource;
            return Boolean(r.contents && r.facts);
          },
          { timeout: 120_000, interval: 250 },
        )
        .toBe(true);

      const s = await openPage(env.browser, env.server.url);
      const { page } = s;
      await page.goto(resource.url);
      await waitLive(page);
      const section = page.getByRole('region', { name: 'What’s inside' });
      await section.waitFor();

      const badges = section.getByRole('list', { name: 'Works in' }).getByRole('listitem');
      expect(await badges.allTextContents()).toEqual(['Premiere Pro', 'After Effects', 'Any LUT-capable editor']);

      const facts = section.getByRole('table', { name: 'Facts' });
      await expect.poll(() => facts.getByRole('row', { name: /Resolution/ }).textContent()).toContain('320 × 180');
      expect(await facts.getByRole('row', { name: /Duration/ }).textContent()).toContain('0:02');
      expect(await facts.getByRole('row', { name: /Frame rate/ }).textContent()).toContain('25 fps');
      expect(await facts.getByRole('row', { name: /Orientation/ }).textContent()).toContain('Landscape');
      expect(await facts.getByRole('row', { name: /Sound/ }).textContent()).toContain('Yes');

      await section.getByText('63 files, ').waitFor();
      const tree = section.getByRole('list', { name: 'Files' });
      await tree.getByText('Title 01.mogrt').waitFor();
      // Collapsed: the first 50 files (in the archive's order), each with its size.
      expect(await tree.getByText(/^Title \d\d\.mogrt$/).count()).toBe(50);
      expect(await tree.getByText('Read me.txt').count()).toBe(0);
      expect(await tree.getByRole('listitem').filter({ hasText: 'Title 01.mogrt' }).last().textContent()).toContain('1 KB');

      const showAll = section.getByRole('button', { name: 'Show all 63 files' });
      await showAll.focus();
      await page.keyboard.press('Enter');
      await tree.getByText('Read me.txt').waitFor();
      expect(await tree.getByText(/^Title \d\d\.mogrt$/).count()).toBe(60);
      await tree.getByText('Project.aep').waitFor();
      // The same button, now to fold the list again, keeps the focus.
      const fewer = section.getByRole('button', { name: 'Show fewer files' });
      await fewer.waitFor();
      expect(await fewer.evaluate((el) => el === document.activeElement && el.getAttribute('aria-expanded'))).toBe('true');
      await page.keyboard.press('Space');
      await tree.getByText('Read me.txt').waitFor({ state: 'detached' });

      await expectAccessible(page);
      s.expectNoConsoleErrors();
      await s.close();
    },
    SLOW,
  );

  it(
    'an admin corrects the apps on the form, with a minimum version, and the page shows the correction',
    async () => {
      expect(packId, 'the first test made the pack').toBeGreaterThan(0);
      const s = await openAsAdmin();
      const { page } = s;
      await page.goto(`/admin/resources/motion_graphics/${packId}/edit`);
      const card = page.getByRole('group', { name: 'Works in' });
      await card.getByText('Deduced from the download’s files: Premiere Pro, After Effects, Any LUT-capable editor.').waitFor();
      await card.getByRole('button', { name: 'Correct the list' }).click();
      await card.getByRole('checkbox', { name: 'After Effects' }).uncheck();
      await card.getByRole('checkbox', { name: 'Any LUT-capable editor' }).uncheck();
      await card.getByRole('textbox', { name: 'Minimum version of Premiere Pro' }).fill('2020');
      await card.getByRole('checkbox', { name: 'DaVinci Resolve' }).check();
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await expect
        .poll(async () => ((await (await fetch(env.server.url + API.resource(packId))).json()) as PublicResource).apps.map((a) => `${a.label}${a.min_version ? ` ${a.min_version}` : ''}`))
        .toEqual(['Premiere Pro 2020', 'DaVinci Resolve']);

      await page.goto(packUrl);
      await waitLive(page);
      const badges = page.getByRole('region', { name: 'What’s inside' }).getByRole('list', { name: 'Works in' }).getByRole('listitem');
      await expect.poll(() => badges.allTextContents()).toEqual(['Premiere Pro 2020+', 'DaVinci Resolve']);
      s.expectNoConsoleErrors();
      await s.close();
    },
    SLOW,
  );
});
