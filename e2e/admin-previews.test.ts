import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../src/contract/api-paths';
import { type CategoryValue, getCategory } from '../src/contract/categories';
import { UPLOADS_PATH } from '../src/contract/files';
import type { AdminResourceList, Resource } from '../src/contract/resources';
import { expectAccessible, openPage, type Session, signIn, useBrowserServer, waitLive } from './harness';

/**
 * Preview media through the real admin form: the file goes up by tus, the save names it as
 * `preview_source`, the server's job worker makes the preview, the admin list shows its state
 * (and Retry for a failed one), and a visitor's card shows it.
 */

const env = useBrowserServer();
/** Processing a one-second sound or a tiny LUT takes a second or two; a busy machine, longer. */
const READY_MS = 90_000;
const SLOW_TEST_MS = 180_000;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'rv-admin-previews-e2e-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function generatedFile(name: string, bytes: Buffer | string): string {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

/** A 16-bit mono WAV: a second of a decaying 440 Hz tone (about 44 KB). */
function wav(seconds = 1, rate = 22_050): Buffer {
  const samples = Math.round(seconds * rate);
  const out = Buffer.alloc(44 + samples * 2);
  out.write('RIFF', 0, 'latin1');
  out.writeUInt32LE(36 + samples * 2, 4);
  out.write('WAVEfmt ', 8, 'latin1');
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20); // PCM
  out.writeUInt16LE(1, 22); // mono
  out.writeUInt32LE(rate, 24);
  out.writeUInt32LE(rate * 2, 28);
  out.writeUInt16LE(2, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36, 'latin1');
  out.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) {
    const t = i / rate;
    out.writeInt16LE(Math.round(Math.sin(2 * Math.PI * 440 * t) * Math.exp(-3 * t) * 20_000), 44 + i * 2);
  }
  return out;
}

/** A 3D `.cube` of size 2 that warms the picture. */
const warmCube = () =>
  [
    'TITLE "Warm test"',
    'LUT_3D_SIZE 2',
    ...[0, 1].flatMap((b) => [0, 1].flatMap((g) => [0, 1].map((r) => `${Math.min(1, r * 0.9 + 0.1)} ${g} ${b * 0.8}`))),
    '',
  ].join('\n');

async function openForm(category: CategoryValue, title: string): Promise<Session> {
  const s = await openPage(env.browser, env.server.url);
  await signIn(s.page);
  await s.page.goto(`/admin/resources/${category}/new`);
  await s.page.getByLabel('Title').fill(title);
  await s.page.getByLabel('Description').fill('Made by the admin previews browser test.');
  return s;
}

/** Thumbnail and download as links: only the preview is uploaded. */
async function useLinks(page: Page) {
  await page.getByRole('group', { name: 'Thumbnail' }).getByRole('radio', { name: 'Link' }).check();
  await page.getByLabel('Thumbnail URL').fill('/thumbnails/1.svg');
  await page.getByRole('group', { name: 'Download' }).getByRole('radio', { name: 'Link' }).check();
  await page.getByLabel('Download URL').fill('https://example.com/pack.zip');
}

const preview = (page: Page) => page.getByRole('group', { name: 'Preview' });

async function uploadPreview(page: Page, label: string, file: string) {
  await page.getByLabel(label, { exact: true }).setInputFiles(file);
  const name = path.basename(file);
  await expect.poll(() => page.getByRole('progressbar', { name: `Upload of ${name}` }).getAttribute('aria-valuenow')).toBe('100');
  await preview(page).getByText('100% · Uploaded').waitFor();
}

async function save(page: Page, method: 'POST' | 'PATCH' = 'POST'): Promise<Resource> {
  const saved = page.waitForResponse((r) => new URL(r.url()).pathname.startsWith(API.adminResources) && r.request().method() === method);
  await page.getByRole('button', { name: method === 'POST' ? 'Publish' : 'Save Changes', exact: true }).click();
  const res = await saved;
  expect(res.status(), await res.text()).toBe(method === 'POST' ? 201 : 200);
  return (await res.json()) as Resource;
}

/** The admin list's row of a resource (the list checks back by itself while a preview is being made). */
const row = (page: Page, title: string) => page.getByRole('row').filter({ hasText: title });

async function adminResource(page: Page, r: Resource): Promise<Resource> {
  const res = await page.request.get(`${API.adminResources}?${new URLSearchParams({ category: r.category, id: String(r.id) })}`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as AdminResourceList).items[0]!;
}

describe('preview media in the admin resource form', () => {
  it(
    'a sound uploaded as the preview becomes ready in the admin list, and a visitor’s card shows its waveform player',
    async () => {
      const title = `Whoosh preview ${Date.now()}`;
      const s = await openForm('sound_effects', title);
      const { page } = s;
      await useLinks(page);
      const input = page.getByLabel('Preview sound', { exact: true });
      expect(await input.getAttribute('accept')).toMatch(/^audio\/\*/);
      // A sound category takes one kind: no kind to choose, and no download to preview itself (it is a link).
      expect(await preview(page).getByRole('radiogroup').count()).toBe(0);
      await uploadPreview(page, 'Preview sound', generatedFile('whoosh.wav', wav()));
      await expectAccessible(page);

      const created = await save(page);
      expect(created.preview).toMatchObject({ kind: 'audio' });
      await page.waitForURL('**/admin/resources/sound_effects');
      await row(page, title).getByText('Preview ready · sound').waitFor({ timeout: READY_MS });
      await expectAccessible(page);

      const visitor = await openPage(env.browser, env.server.url);
      await visitor.page.goto(`/categories/${getCategory('sound_effects').slug}?q=${encodeURIComponent(title)}`);
      await waitLive(visitor.page);
      const card = visitor.page.getByRole('listitem').filter({ has: visitor.page.getByRole('heading', { name: title, exact: true }) });
      await card.getByTestId('waveform-player').waitFor();
      await card.getByRole('button', { name: `Play ${title}`, exact: true }).waitFor();
      await card.getByRole('slider', { name: `Seek ${title}` }).waitFor();
      visitor.expectNoConsoleErrors();
      await visitor.close();
      s.expectNoConsoleErrors();
      await s.close();
    },
    SLOW_TEST_MS,
  );

  it(
    'a hosted sound download can be its own preview (“Use the download file”)',
    async () => {
      const title = `Self preview ${Date.now()}`;
      const s = await openForm('sound_effects', title);
      const { page } = s;
      await page.getByRole('group', { name: 'Thumbnail' }).getByRole('radio', { name: 'Link' }).check();
      await page.getByLabel('Thumbnail URL').fill('/thumbnails/1.svg');
      await page.getByLabel('Download file').setInputFiles(generatedFile('impact.wav', wav(1.5)));
      await page.getByRole('group', { name: 'Download' }).getByText('100% · Uploaded').waitFor();
      await preview(page).getByRole('radio', { name: 'Use the download file' }).check();
      // The preview's own file input is gone: the download serves.
      expect(await page.getByLabel('Preview sound', { exact: true }).count()).toBe(0);

      const sent = page.waitForRequest((r) => new URL(r.url()).pathname === API.adminResources && r.method() === 'POST');
      const created = await save(page);
      expect((await sent).postDataJSON().preview_source).toEqual({ kind: 'audio', from_download: true });
      expect(created.preview).toMatchObject({ kind: 'audio' });
      await page.waitForURL('**/admin/resources/sound_effects');
      await row(page, title).getByText('Preview ready · sound').waitFor({ timeout: READY_MS });
      s.expectNoConsoleErrors();
      await s.close();
    },
    SLOW_TEST_MS,
  );

  it('a file of the wrong type is refused before anything is sent; a server refusal shows on the Preview section', async () => {
    const s = await openForm('sound_effects', `Wrong preview ${Date.now()}`);
    const { page } = s;
    await useLinks(page);
    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes(UPLOADS_PATH)) sent.push(r.method());
    });
    await page.getByLabel('Preview sound', { exact: true }).setInputFiles(generatedFile('notes.txt', 'not a sound'));
    await preview(page).getByText('“notes.txt” is not a sound.', { exact: false }).waitFor();
    expect(await page.getByLabel('Preview sound', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(sent).toEqual([]);

    // The server's refusal of preview_source (here staged) shows in the section and takes the focus.
    await uploadPreview(page, 'Preview sound', generatedFile('click.wav', wav(0.5)));
    const message = 'The upload was attached or removed meanwhile';
    await page.route(API.adminResources, (route) =>
      route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'VALIDATION_ERROR', message, fields: { preview_source: message } } }),
      }),
    );
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await preview(page).getByRole('alert').filter({ hasText: message }).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('fieldset')?.querySelector('legend')?.textContent)).toBe('Preview');
    await expectAccessible(page);
    s.expectNoConsoleErrors([/400/]);
    await s.close();
  }, SLOW_TEST_MS);

  it(
    'a LUT: a malformed .cube fails with its reason and Retry; the edit form shows it and a good .cube replaces it',
    async () => {
      const title = `Teal LUT ${Date.now()}`;
      const s = await openForm('color_grading', title);
      const { page } = s;
      await useLinks(page);
      expect(await page.getByLabel('LUT file', { exact: true }).getAttribute('accept')).toBe('.cube');
      await uploadPreview(page, 'LUT file', generatedFile('broken.cube', 'LUT_3D_SIZE 2\n0 0 0\nnot a number\n'));
      const created = await save(page);
      expect(created.preview).toMatchObject({ kind: 'lut' });
      await page.waitForURL('**/admin/resources/color_grading');

      // Failed, with the server's reason, and a labelled Retry.
      await row(page, title).getByText('Preview failed · LUT').waitFor({ timeout: READY_MS });
      const failed = await adminResource(page, created);
      expect(failed.preview?.status).toBe('failed');
      const reason = failed.preview && 'reason' in failed.preview ? failed.preview.reason : undefined;
      expect(reason).toBeTruthy();
      await row(page, title).getByText(reason!).waitFor();
      await expectAccessible(page);
      const retried = page.waitForResponse((r) => new URL(r.url()).pathname === API.adminResourcePreviewRetry(created.id));
      await row(page, title).getByRole('button', { name: `Retry preview of ${title}` }).click();
      const retry = await retried;
      expect(retry.status()).toBe(200);
      expect(((await retry.json()) as Resource).preview?.status).toMatch(/^(queued|processing|failed)$/);
      // Tried again: the same file fails the same way.
      await row(page, title).getByText('Preview failed · LUT').waitFor({ timeout: READY_MS });

      // The edit form shows the current preview's state and takes a new .cube.
      await page.goto(`/admin/resources/color_grading/${created.id}/edit`);
      await preview(page).getByText('Preview failed · LUT').waitFor();
      await preview(page).getByText(reason!).waitFor();
      // Retry here too: it queues the preview again and does not submit the form.
      const patches: string[] = [];
      page.on('request', (r) => {
        if (r.method() === 'PATCH' && new URL(r.url()).pathname === API.adminResource(created.id)) patches.push(r.url());
      });
      const retriedInForm = page.waitForResponse((r) => new URL(r.url()).pathname === API.adminResourcePreviewRetry(created.id));
      await preview(page).getByRole('button', { name: `Retry preview of ${title}` }).click();
      expect((await retriedInForm).status()).toBe(200);
      await preview(page).getByText(/^Preview (queued|processing|failed) · LUT$/).waitFor();
      expect(patches).toEqual([]);
      expect(new URL(page.url()).pathname).toBe(`/admin/resources/color_grading/${created.id}/edit`);
      await uploadPreview(page, 'LUT file', generatedFile('warm.cube', warmCube()));
      await expectAccessible(page);
      const updated = await save(page, 'PATCH');
      expect(updated.preview).toMatchObject({ kind: 'lut' });
      expect(updated.preview?.status).not.toBe('failed');
      await page.waitForURL('**/admin/resources/color_grading');
      await row(page, title).getByText('Preview ready · LUT').waitFor({ timeout: READY_MS });
      s.expectNoConsoleErrors();
      await s.close();
    },
    SLOW_TEST_MS,
  );

  it(
    'a video preview’s poster or the uploaded thumbnail: the card shows the uploaded image until the admin chooses the poster',
    async () => {
      const title = `Chosen thumbnail ${Date.now()}`;
      const s = await openForm('video_editing', title);
      const { page } = s;
      const thumbnail = generatedFile('cover.png', await sharp({ create: { width: 320, height: 180, channels: 3, background: '#2040c0' } }).png().toBuffer());
      await page.getByLabel('Thumbnail image').setInputFiles(thumbnail);
      await page.getByRole('group', { name: 'Thumbnail' }).getByText('100% · Uploaded').waitFor();
      await page.getByRole('group', { name: 'Download' }).getByRole('radio', { name: 'Link' }).check();
      await page.getByLabel('Download URL').fill('https://example.com/pack.zip');
      const clip = path.join(dir, 'clip.mp4');
      execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=duration=2:size=320x180:rate=10', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', clip]);
      await uploadPreview(page, 'Preview video', clip);
      const created = await save(page);
      await page.waitForURL('**/admin/resources/video_editing');
      await row(page, title).getByText('Preview ready · video').waitFor({ timeout: READY_MS });
      const ready = await adminResource(page, created);
      expect(ready.thumbnail_choice).toBe('image');
      if (ready.preview?.kind !== 'video' || ready.preview.status !== 'ready' || !ready.thumbnail) throw new Error(`not a ready video with a hosted thumbnail: ${JSON.stringify(ready)}`);
      const posterUrls = ready.preview.poster.variants.map((v) => v.url);
      const thumbnailSrc = ready.thumbnail.src;

      /** The src of the image on the visitor's card, from a fresh page. */
      const cardImage = async () => {
        const visitor = await openPage(env.browser, env.server.url);
        await visitor.page.goto(`/categories/${getCategory('video_editing').slug}?q=${encodeURIComponent(title)}`);
        await waitLive(visitor.page);
        const card = visitor.page.getByRole('listitem').filter({ has: visitor.page.getByRole('heading', { name: title, exact: true }) });
        const src = await card.locator('img').first().getAttribute('src');
        visitor.expectNoConsoleErrors();
        await visitor.close();
        return src;
      };
      expect(await cardImage()).toBe(thumbnailSrc);

      await page.goto(`/admin/resources/video_editing/${created.id}/edit`);
      const choice = page.getByRole('radiogroup', { name: 'Thumbnail shown' });
      expect(await choice.getByRole('radio', { name: 'Uploaded image' }).isChecked()).toBe(true);
      // Keyboard: the arrow key moves the choice along the group.
      await choice.getByRole('radio', { name: 'Uploaded image' }).focus();
      await page.keyboard.press('ArrowRight');
      expect(await choice.getByRole('radio', { name: 'Preview poster' }).isChecked()).toBe(true);
      await expectAccessible(page);
      const edited = await save(page, 'PATCH');
      expect(edited.thumbnail_choice).toBe('poster');
      await expect.poll(cardImage, { timeout: 30_000 }).toSatisfy((src: string | null) => src !== null && posterUrls.includes(src));
      s.expectNoConsoleErrors();
      await s.close();
    },
    SLOW_TEST_MS,
  );
});
