import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../src/contract/api-paths';
import { UPLOADS_PATH } from '../src/contract/files';
import type { Resource, ResourceList } from '../src/contract/resources';
import { expectAccessible, openPage, screenshot, signIn, useBrowserServer } from './harness';

/**
 * Bulk upload on a category's admin list (issue 30): 20 small generated files become drafts, three
 * sent at a time, one refused and retried; then "Publish all 20" and they are public.
 */
const env = useBrowserServer();
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'rv-bulk-upload-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A 16-bit mono WAV of a short decaying tone. */
function wav(seconds: number, hz: number, rate = 8000): Buffer {
  const samples = Math.round(seconds * rate);
  const out = Buffer.alloc(44 + samples * 2);
  out.write('RIFF', 0, 'latin1');
  out.writeUInt32LE(36 + samples * 2, 4);
  out.write('WAVEfmt ', 8, 'latin1');
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20);
  out.writeUInt16LE(1, 22);
  out.writeUInt32LE(rate, 24);
  out.writeUInt32LE(rate * 2, 28);
  out.writeUInt16LE(2, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36, 'latin1');
  out.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) out.writeInt16LE(Math.round(Math.sin((2 * Math.PI * hz * i) / rate) * Math.exp((-3 * i) / rate) * 20_000), 44 + i * 2);
  return out;
}

/** 4 sounds and 16 packs (zip-looking and plain bytes), each a few KB; KEY, a word of this run, is in every name. */
function generatedFiles(KEY: string): { file: string; title: string; sound: boolean }[] {
  const Key = `Bu${KEY.slice(2)}`;
  return Array.from({ length: 20 }, (_, i) => {
    const n = String(i + 1).padStart(2, '0');
    const sound = i < 4;
    const name = sound ? `${KEY}_rain_drop-${n}.wav` : i % 2 ? `${KEY}-warm_foley-pack_v${n}.zip` : `${KEY}.impact.hit.${n}.bin`;
    const bytes = sound ? wav(0.3, 220 * (i + 1)) : Buffer.concat([Buffer.from(i % 2 ? 'PK\x03\x04' : 'RV', 'latin1'), Buffer.alloc(2000 + i * 100, i)]);
    const file = path.join(dir, name);
    writeFileSync(file, bytes);
    const title = `${Key} ${sound ? `Rain Drop ${n}` : i % 2 ? `Warm Foley Pack V${n}` : `Impact Hit ${n}`}`;
    return { file, title, sound };
  });
}

const rowOf = (page: Page, name: string) => page.getByRole('list', { name: 'Upload queue' }).getByRole('listitem').filter({ hasText: name });
/** The machine is shared: twenty uploads and creates may take a while under load. */
const SLOW = 120_000;
const toast = (page: Page, title: string) => page.locator('li[data-swipe-direction]').filter({ hasText: title });

describe('bulk upload in a real browser', () => {
  it('uploads 20 files three at a time into drafts (one refused, then retried), then publishes all 20', async () => {
    const s = await openPage(env.browser, env.server.url);
    const { page } = s;
    await signIn(page);
    await page.goto('/admin/resources/sound_effects');
    // A word of this run in every file name, so searches find this run's resources only.
    const KEY = `bu${Date.now().toString(36)}`;
    const files = generatedFiles(KEY);

    // Hold every chunk at first: three uploads start, the other seventeen wait.
    const held: Route[] = [];
    let holding = true;
    let onHeld: (() => void) | undefined;
    await page.route(`**${UPLOADS_PATH}/*`, async (route) => {
      if (route.request().method() !== 'PATCH' || !holding) return route.continue();
      held.push(route);
      onHeld?.();
    });
    const threeHeld = new Promise<void>((resolve) => (onHeld = () => held.length === 3 && resolve()));

    await page.locator('input[aria-label="Files to upload"]').setInputFiles(files.map((f) => f.file));
    await threeHeld;
    const queue = page.getByRole('list', { name: 'Upload queue' });
    await page.waitForFunction(() => {
      const rows = Array.from(document.querySelectorAll('[aria-label="Upload queue"] li'));
      const says = (t: string) => rows.filter((r) => r.textContent?.includes(t)).length;
      return rows.length === 20 && says('Uploading') === 3 && says('Waiting') === 17;
    }, undefined, { timeout: SLOW });
    expect(await queue.getByRole('progressbar').count()).toBe(20);
    await page.getByText('0 of 20 files done').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'bulk-upload-queue-midway');

    // Leaving while files are sent asks first; Cancel stays on the list with the queue going.
    await page.getByRole('link', { name: 'Back to Dashboard' }).click();
    const leave = page.getByRole('alertdialog', { name: 'Leave while uploading?' });
    await leave.waitFor();
    await leave.getByRole('button', { name: 'Cancel' }).click();
    await leave.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe('/admin/resources/sound_effects');

    // The first held chunk is refused for good (a 4xx tus does not retry): that file fails with the reason.
    holding = false;
    await held[0]!.fulfill({ status: 403, contentType: 'application/json', body: JSON.stringify({ error: { code: 'FORBIDDEN', message: 'Refused by the test' } }) });
    for (const route of held.slice(1)) await route.continue();
    const failedRow = queue.getByRole('listitem').filter({ hasText: 'Failed: Refused by the test' });
    await failedRow.waitFor({ timeout: SLOW });
    await page.getByText('19 drafts created, 1 failed').first().waitFor({ timeout: SLOW });
    await screenshot(page, 'bulk-upload-queue-failed');

    // Retry goes on with that upload (the keyboard: Enter on the focused button).
    await failedRow.getByRole('button', { name: /^Retry / }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('20 drafts created, 0 failed').first().waitFor({ timeout: SLOW });
    for (const f of files) await rowOf(page, path.basename(f.file)).getByRole('link', { name: f.title }).waitFor({ timeout: SLOW });
    await screenshot(page, 'bulk-upload-queue-done');

    // Each is a draft of the category: titled from its name, its download the file, a sound previewing itself.
    const admin = (await (await page.request.get(`${env.server.url}${API.adminResources}?category=sound_effects&q=${KEY}&limit=100`)).json()) as { items: Resource[] };
    expect(admin.items).toHaveLength(20);
    for (const f of files) {
      const r = admin.items.find((i) => i.title === f.title)!;
      expect(r, f.title).toBeDefined();
      expect(r).toMatchObject({ status: 'draft', thumbnail_url: `/thumbnails/${r.id}.svg`, file: { name: path.basename(f.file) } });
      if (f.sound) expect(r.preview?.kind).toBe('audio');
      else expect(r.preview).toBeNull();
    }
    expect((await (await fetch(`${env.server.url}${API.resources}?category=sound-effects&q=${KEY}&limit=100`)).json()) as ResourceList).toMatchObject({ items: [] });

    await page.getByRole('button', { name: 'Publish all 20' }).click();
    await toast(page, '20 published').waitFor({ timeout: SLOW });
    await page.waitForFunction(() => Array.from(document.querySelectorAll('[aria-label="Upload queue"] li')).every((r) => r.textContent?.includes('Published')), undefined, { timeout: SLOW });
    const visible = (await (await fetch(`${env.server.url}${API.resources}?category=sound-effects&q=${KEY}&limit=100`)).json()) as ResourceList;
    expect(visible.items.map((r) => r.title).sort()).toEqual(files.map((f) => f.title).sort());
    await screenshot(page, 'bulk-upload-published');
    await s.close();
  }, 400_000);
});
