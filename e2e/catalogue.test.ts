import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API } from '../src/contract/api-paths';
import { CATALOGUE_COLUMNS } from '../src/contract/catalogue';
import type { AdminResourceList } from '../src/contract/resources';
import { csvRecord, parseCsv, unguard } from '../src/server/modules/catalogue/csv';
import { expectAccessible, openPage, screenshot, signIn, useBrowserServer } from './harness';

/**
 * The catalogue's export and import (issue 30) in a real browser: the export downloads as a CSV;
 * a CSV chosen for import is checked first (the dry run's report as a table, nothing written),
 * then Apply writes the good rows and the report says what happened.
 */
describe('export and import in a real browser', () => {
  const env = useBrowserServer();

  it(
    'downloads the export, shows the dry run as a table without writing, then applies it',
    async () => {
      const s = await openPage(env.browser, env.server.url);
      const { page } = s;
      await signIn(page);
      await page.getByRole('link', { name: /Export and Import/ }).click();
      await page.getByRole('heading', { level: 1, name: 'Export and Import' }).waitFor();

      // The export: a dated CSV attachment in the documented columns, every resource in it.
      const downloading = page.waitForEvent('download');
      await page.getByRole('link', { name: 'Export CSV' }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(/^resources-\d{4}-\d{2}-\d{2}\.csv$/);
      const [header, ...records] = parseCsv(readFileSync((await download.path())!, 'utf8'));
      expect(header).toEqual([...CATALOGUE_COLUMNS]);
      const list = (await (await page.request.get(`${API.adminResources}?limit=1`)).json()) as AdminResourceList;
      expect(records).toHaveLength(list.total);

      // A file made from it: one renamed, one unchanged, one new, one with a bad link.
      const rows = records.map((r) => Object.fromEntries(header.map((h, i) => [h, unguard(r[i])])));
      const [renamed, unchanged, source] = rows;
      const links = { thumbnail_file: '', thumbnail_url: '/thumbnails/1.svg', download_file: '', download_url: 'https://downloads.example.com/imported.zip' };
      const file = [
        { ...renamed, title: 'Renamed by the import' },
        unchanged,
        { ...source, ...links, id: '', title: 'Made by the import', status: 'published', publish_at: '' },
        { ...source, ...links, id: '', title: 'Bad link row', download_url: 'javascript:alert(1)' },
      ];
      const csv = csvRecord(header) + file.map((r) => csvRecord(header.map((h) => r[h]))).join('');
      // A file the import cannot read: the server's reason, and nothing to apply.
      await page.getByLabel('CSV file to import').setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from('id,colour\r\n,red\r\n') });
      const alert = page.getByRole('alert').filter({ hasText: 'The file could not be checked' });
      await alert.getByText(/Unknown column "colour"/).waitFor();
      expect(await page.getByRole('button', { name: 'Apply' }).count()).toBe(0);

      await page.getByLabel('CSV file to import').setInputFiles({ name: 'import.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });

      const report = page.getByRole('region', { name: 'Dry run of import.csv' });
      await report.waitFor();
      const table = report.getByRole('table');
      const cellsOf = async () => (await table.getByRole('row').all()).slice(1).map((r) => r.getByRole('cell'));
      // Errors first, then the file's order.
      expect(await Promise.all((await cellsOf()).map((c) => c.allInnerTexts()))).toEqual([
        ['5', 'Error', 'Bad link row', 'download_url: Download URL must be an http(s) URL'],
        ['2', `Update #${renamed.id}`, 'Renamed by the import', '—'],
        ['3', `Unchanged #${unchanged.id}`, unchanged.title, '—'],
        ['4', 'Create', 'Made by the import', '—'],
      ]);
      await report.getByText('4 rows: 1 to create, 1 to update, 1 unchanged, 1 with errors.').waitFor();
      const before = (await (await page.request.get(`${API.adminResources}?id=${renamed.id}`)).json()) as AdminResourceList;
      expect(before.items[0].title).toBe(renamed.title);
      await expectAccessible(page);
      await screenshot(page, 'catalogue-import-dry-run');

      await report.getByRole('button', { name: 'Apply' }).click();
      const applied = page.getByRole('region', { name: 'Imported import.csv' });
      await applied.getByText('4 rows: 1 created, 1 updated, 1 unchanged, 1 not imported.').waitFor();
      const texts = await Promise.all((await applied.getByRole('row').all()).slice(1).map((r) => r.getByRole('cell').nth(1).innerText()));
      expect(texts[0]).toBe('Not imported');
      expect(texts[1]).toBe(`Updated #${renamed.id}`);
      expect(texts[3]).toMatch(/^Created #\d+$/);
      await screenshot(page, 'catalogue-import-applied');
      const after = (await (await page.request.get(`${API.adminResources}?id=${renamed.id}`)).json()) as AdminResourceList;
      expect(after.items[0].title).toBe('Renamed by the import');
      const made = (await (await page.request.get(`${API.adminResources}?q=${encodeURIComponent('Made by the import')}`)).json()) as AdminResourceList;
      expect(made.items.map((r) => r.title)).toEqual(['Made by the import']);
      await page.getByRole('button', { name: 'Import another file' }).focus();
      await s.close();
    },
    120_000,
  );
});
