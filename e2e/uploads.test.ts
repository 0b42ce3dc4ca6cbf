import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Download, Page, Request, Route } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../src/contract/api-paths';
import { UPLOADS_PATH } from '../src/contract/files';
import type { DownloadResponse, Resource } from '../src/contract/resources';
import { expectAccessible, openPage, screenshot, type Session, signIn, useBrowserServer, waitLive } from './harness';

/**
 * Hosted files through the real admin form (tus-js-client in Chromium → @tus/server), then
 * downloaded as a visitor: the bytes that arrive are the bytes that were chosen.
 */

const env = useBrowserServer();
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'rv-uploads-e2e-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * A file on disk (not a buffer): the browser's File then has the disk's lastModified, which stays
 * the same across a reload, so tus-js-client's fingerprint finds the unfinished upload again.
 */
function generatedFile(name: string, bytes: Buffer): string {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

async function generatedImage(name: string): Promise<{ file: string; bytes: Buffer }> {
  // Not a flat colour: the re-encoded WebP must have something to show.
  const [width, height] = [1280, 720];
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i += 3) {
    const x = (i / 3) % width;
    raw[i] = x % 256;
    raw[i + 1] = 90;
    raw[i + 2] = 200;
  }
  const bytes = await sharp(raw, { raw: { width, height, channels: 3 } }).png().toBuffer();
  return { file: generatedFile(name, bytes), bytes };
}

const isUpload = (url: URL) => url.pathname.startsWith(`${UPLOADS_PATH}/`);

async function openForm(title: string): Promise<Session> {
  const s = await openPage(env.browser, env.server.url);
  await signIn(s.page);
  await s.page.goto('/admin/resources/typography/new');
  await fillText(s.page, title);
  return s;
}

async function fillText(page: Page, title: string) {
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Description').fill('A pack uploaded by the browser test.');
}

const progress = (page: Page, name: string) => page.getByRole('progressbar', { name: `Upload of ${name}` });

async function save(page: Page): Promise<Resource> {
  const created = page.waitForResponse((r) => new URL(r.url()).pathname === API.adminResources && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  const res = await created;
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Resource;
}

/** As a visitor: record a download, follow the link it hands out, return the bytes. */
async function download(id: number): Promise<{ bytes: Buffer; res: Response }> {
  const recorded = await fetch(`${env.server.url}${API.download(id)}`, { method: 'POST' });
  expect(recorded.status).toBe(200);
  const { download_url } = (await recorded.json()) as DownloadResponse;
  const res = await fetch(new URL(download_url, env.server.url));
  expect(res.status).toBe(200);
  return { bytes: Buffer.from(await res.arrayBuffer()), res };
}

describe('hosted files through the admin form', () => {
  it('uploads a file and an image, shows progress to 100 %, saves, and a visitor downloads the same bytes', async () => {
    const title = `Uploaded pack ${Date.now()}`;
    const s = await openForm(title);
    const { page } = s;
    const bytes = randomBytes(3 * 1024 * 1024 + 123);
    const name = 'Glitch pack – v2.zip';
    const image = await generatedImage('cover.png');

    await page.getByLabel('Thumbnail image').setInputFiles(image.file);
    await page.getByLabel('Download file').setInputFiles(generatedFile(name, bytes));
    const bar = progress(page, name);
    await bar.waitFor();
    await expect.poll(() => bar.getAttribute('aria-valuenow')).toBe('100');
    await expect.poll(() => progress(page, 'cover.png').getAttribute('aria-valuenow')).toBe('100');
    await page.getByRole('group', { name: 'Download' }).getByText('100% · Uploaded').waitFor();
    // The chosen image shows at once in the preview.
    expect(await page.getByRole('img', { name: 'Thumbnail preview' }).getAttribute('src')).toMatch(/^blob:/);
    await expectAccessible(page);

    const resource = await save(page);
    expect(resource.file).toMatchObject({ name, size: bytes.length, sha256: sha256(bytes) });
    expect(resource.thumbnail?.srcset).toBeTruthy();
    await page.waitForURL('**/admin/resources/typography');
    // The admin list names the hosted file and its size.
    const row = page.getByRole('row').filter({ hasText: title });
    await row.getByText(name).waitFor();
    await row.getByText('3.1 MB').waitFor();

    const got = await download(resource.id);
    expect(got.bytes.length).toBe(bytes.length);
    expect(sha256(got.bytes)).toBe(sha256(bytes));
    expect(got.res.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(got.res.headers.get('x-content-type-options')).toBe('nosniff');

    // A visitor's card shows the hosted thumbnail in several widths, with its placeholder until it loads.
    // The image bytes are held back until the placeholder has been seen (the page's own wait for them).
    const visitor = await openPage(env.browser, env.server.url);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let heldImages = 0;
    await visitor.page.route(
      (url) => url.pathname.startsWith('/media/'),
      async (route) => {
        heldImages++;
        await released;
        await route.continue();
      },
    );
    // 'load' waits for images, which are held: the markup is enough.
    await visitor.page.goto(`/categories/typography?q=${encodeURIComponent(title)}`, { waitUntil: 'domcontentloaded' });
    const img = visitor.page.getByRole('img', { name: title });
    await img.waitFor();
    expect(await img.getAttribute('srcset')).toMatch(/ \d+w/);
    expect(await img.getAttribute('sizes')).toBeTruthy();
    await expect.poll(() => heldImages).toBeGreaterThan(0);
    expect(await img.getAttribute('data-placeholder')).toBe('');
    const placeholder = await img.evaluate((el) => ({ color: getComputedStyle(el).backgroundColor, image: getComputedStyle(el).backgroundImage }));
    expect(placeholder.color).toMatch(/^rgb/);
    expect(placeholder.image).toMatch(/^url\("data:image\//);
    const boxBefore = await img.boundingBox();
    release();
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
    await expect.poll(() => img.getAttribute('data-placeholder')).toBeNull();
    // The box did not move or resize when the picture arrived (no layout shift).
    expect(await img.boundingBox()).toEqual(boxBefore);
    visitor.expectNoConsoleErrors();
    await visitor.close();

    // Editing shows the hosted file by name and size.
    await page.goto(`/admin/resources/typography/${resource.id}/edit`);
    const slot = page.getByRole('group', { name: 'Download' });
    await slot.getByText(name).waitFor();
    await slot.getByText(/3\.1 MB · Hosted on this site/).waitFor();
    await slot.getByRole('button', { name: 'Replace' }).waitFor();
    s.expectNoConsoleErrors();
    await s.close();
  }, 120_000);

  it('shows the speed and the time left while an upload is in progress', async () => {
    const s = await openForm(`Slow pack ${Date.now()}`);
    const { page } = s;
    // A slow uplink (DevTools network emulation, about 400 KB/s up): the upload takes seconds.
    const cdp = await s.context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 400 * 1000 });
    const bytes = randomBytes(3 * 1024 * 1024);
    const name = 'slow.bin';
    await page.getByLabel('Download file').setInputFiles(generatedFile(name, bytes));
    const slot = page.getByRole('group', { name: 'Download' });
    // e.g. "41% · 1.3 MB of 3.1 MB · 402 KB/s · 5 s left"
    await slot
      .getByText(/^\d+% · [\d.]+ [KMG]?B of [\d.]+ [KMG]?B · [\d.]+ [KMG]?B\/s · (\d+ s|\d+ min \d+ s|\d+ h \d+ min) left$/)
      .waitFor({ timeout: 20_000 });
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await slot.getByText('100% · Uploaded').waitFor({ timeout: 30_000 });
    s.expectNoConsoleErrors();
    await s.close();
  }, 60_000);

  it('pauses and resumes, retries a dropped connection by itself, and offers Retry after a refusal', async () => {
    const s = await openForm(`Paused pack ${Date.now()}`);
    const { page } = s;
    const bytes = randomBytes(2 * 1024 * 1024 + 5);
    const name = 'paused.bin';
    const patches: Request[] = [];
    // The first PATCH hangs (so Pause has something to stop); the next is cut off (a network drop);
    // the one after that is refused with the API's error shape; then the network is fine.
    let step = 0;
    const held: Route[] = [];
    await page.route(isUpload, async (route) => {
      if (route.request().method() !== 'PATCH') return route.continue();
      patches.push(route.request());
      step++;
      if (step === 1) return void held.push(route);
      if (step === 2) return route.abort('connectionreset');
      if (step === 3) {
        return route.fulfill({
          status: 403,
          contentType: 'application/json',
          body: JSON.stringify({ error: { code: 'BAD_ORIGIN', message: 'Cross-origin requests are not allowed' } }),
        });
      }
      return route.continue();
    });

    await page.getByLabel('Download file').setInputFiles(generatedFile(name, bytes));
    await expect.poll(() => patches.length).toBe(1);
    const slot = page.getByRole('group', { name: 'Download' });
    // While it uploads the form cannot be saved, and says why.
    const create = page.getByRole('button', { name: 'Publish', exact: true });
    expect(await create.isDisabled()).toBe(true);
    await page.getByText('The form can be saved once the upload is complete.').waitFor();

    await slot.getByRole('button', { name: 'Pause' }).click();
    await slot.getByText(/^Paused at \d+%/).waitFor();
    await slot.getByRole('button', { name: 'Resume' }).click();
    // Resume: PATCH 2 is dropped and retried at once by tus-js-client (no click), PATCH 3 is refused.
    const alert = slot.getByRole('alert');
    await alert.filter({ hasText: 'Cross-origin requests are not allowed' }).waitFor();
    expect(patches.length).toBe(3);
    await slot.getByRole('button', { name: 'Retry' }).click();
    // Every byte sent is not yet every byte taken: the server's answer finishes the upload.
    await slot.getByText('100% · Uploaded').waitFor();
    expect(patches.length).toBe(4);
    await expect.poll(() => create.isDisabled()).toBe(false);
    for (const r of held) await r.abort().catch(() => undefined);

    await page.getByRole('group', { name: 'Thumbnail' }).getByRole('radio', { name: 'Link' }).check();
    await page.getByLabel('Thumbnail URL').fill('/thumbnails/1.svg');
    const resource = await save(page);
    expect(resource.file?.sha256).toBe(sha256(bytes));
    expect(sha256((await download(resource.id)).bytes)).toBe(sha256(bytes));
    // Only the refusal we staged is an error the page logged.
    s.expectNoConsoleErrors([/403/, /ERR_CONNECTION_RESET/, /net::ERR_FAILED/]);
    await s.close();
  }, 120_000);

  it('after a reload mid-upload, the form keeps its fields and choosing the same file again resumes where the server stopped', async () => {
    const title = `Resumed pack ${Date.now()}`;
    const s = await openForm(title);
    const { page } = s;
    await page.getByPlaceholder('Add a tag, press Enter').fill('Kinetic');
    await page.getByPlaceholder('Add a tag, press Enter').press('Enter');
    await page.getByRole('button', { name: 'Remove tag Kinetic' }).waitFor();
    const bytes = randomBytes(2 * 1024 * 1024 + 77);
    const half = 1024 * 1024;
    const name = 'resumed.bin';
    const file = generatedFile(name, bytes);

    // The first PATCH reaches the server cut short (the first half); the next one is held in the
    // browser (not a byte reaches the server) until the reload cancels it. After the reload the
    // network is fine.
    let patches = 0;
    let reloaded = false;
    await page.route(isUpload, async (route) => {
      const req = route.request();
      if (reloaded || req.method() !== 'PATCH') return route.continue();
      patches++;
      if (patches === 1) {
        const body = req.postDataBuffer()!.subarray(0, half);
        return route.continue({ postData: body, headers: { ...(await req.allHeaders()), 'content-length': String(body.length) } });
      }
    });
    await page.getByLabel('Download file').setInputFiles(file);
    await expect.poll(() => patches).toBe(2);

    reloaded = true;
    await page.reload();
    const slot = page.getByRole('group', { name: 'Download' });
    await slot.getByText(`The upload of “${name}” stopped before it finished.`, { exact: false }).waitFor();
    // The unsaved fields are back, and the form says so.
    await page.getByRole('status').filter({ hasText: 'Your unsaved changes are back' }).waitFor();
    expect(await page.getByLabel('Title').inputValue()).toBe(title);
    expect(await page.getByLabel('Description').inputValue()).toBe('A pack uploaded by the browser test.');
    await page.getByRole('button', { name: 'Remove tag Kinetic' }).waitFor();
    const resumed = page.waitForRequest((r) => r.method() === 'PATCH' && isUpload(new URL(r.url())));
    const created: Request[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === UPLOADS_PATH) created.push(r);
    });
    await page.getByLabel('Download file').setInputFiles(file);
    // It goes on from the server's offset: no new upload, the first PATCH starts at the half.
    expect((await resumed).headers()['upload-offset']).toBe(String(half));
    await expect.poll(() => progress(page, name).getAttribute('aria-valuenow')).toBe('100');
    expect(created).toHaveLength(0);

    await page.getByRole('group', { name: 'Thumbnail' }).getByRole('radio', { name: 'Link' }).check();
    await page.getByLabel('Thumbnail URL').fill('/thumbnails/1.svg');
    const resource = await save(page);
    expect(resource.file).toMatchObject({ name, size: bytes.length, sha256: sha256(bytes) });
    expect(resource.tags).toEqual(['Kinetic']);
    expect(sha256((await download(resource.id)).bytes)).toBe(sha256(bytes));
    // Saved: the next new resource starts empty.
    await page.goto('/admin/resources/typography/new');
    await page.getByLabel('Title').waitFor();
    expect(await page.getByLabel('Title').inputValue()).toBe('');
    expect(await page.getByRole('status').filter({ hasText: 'Your unsaved changes are back' }).count()).toBe(0);
    await s.close();
  }, 120_000);

  it('Discard changes returns an edited resource to what is saved', async () => {
    const s = await openForm(`Discarded pack ${Date.now()}`);
    const { page } = s;
    await page.getByRole('group', { name: 'Thumbnail' }).getByRole('radio', { name: 'Link' }).check();
    await page.getByLabel('Thumbnail URL').fill('/thumbnails/1.svg');
    await page.getByRole('group', { name: 'Download' }).getByRole('radio', { name: 'Link' }).check();
    await page.getByLabel('Download URL').fill('https://example.com/pack.zip');
    const resource = await save(page);
    await page.goto(`/admin/resources/typography/${resource.id}/edit`);
    await page.getByLabel('Title').fill('A title never saved');
    await page.reload();
    await page.getByRole('status').filter({ hasText: 'Your unsaved changes are back' }).waitFor();
    expect(await page.getByLabel('Title').inputValue()).toBe('A title never saved');
    await screenshot(page, 'admin-resource-form-draft');
    await page.getByRole('button', { name: 'Discard changes' }).click();
    await expect.poll(() => page.getByLabel('Title').inputValue()).toBe(resource.title);
    expect(await page.getByRole('status').filter({ hasText: 'Your unsaved changes are back' }).count()).toBe(0);
    // Discarded for good: a reload shows what is saved.
    await page.reload();
    await page.getByRole('heading', { name: 'Edit Resource' }).waitFor();
    expect(await page.getByLabel('Title').inputValue()).toBe(resource.title);
    s.expectNoConsoleErrors();
    await s.close();
  }, 120_000);

  it('a visitor downloads a hosted file from the resource page\'s dialog, and no tab is left behind', async () => {
    const s = await openForm(`Credited pack ${Date.now()}`);
    const bytes = randomBytes(200 * 1024);
    const name = 'credited-pack.zip';
    await s.page.getByRole('group', { name: 'Thumbnail' }).getByRole('radio', { name: 'Link' }).check();
    await s.page.getByLabel('Thumbnail URL').fill('/thumbnails/1.svg');
    await s.page.getByLabel('Download file').setInputFiles(generatedFile(name, bytes));
    await s.page.getByRole('group', { name: 'Download' }).getByText('100% · Uploaded').waitFor();
    await s.page.getByLabel('Licence').selectOption('attribution');
    await s.page.getByLabel('Credit line').fill('Pack by the browser test');
    const resource = await save(s.page);
    await s.close();

    const visitor = await openPage(env.browser, env.server.url);
    // Every download, whichever page of the context it starts in.
    const downloads: Download[] = [];
    const watch = (p: Page) => p.on('download', (d) => downloads.push(d));
    watch(visitor.page);
    visitor.context.on('page', watch);
    await visitor.page.goto(resource.url);
    await visitor.page.getByRole('heading', { level: 1, name: resource.title }).waitFor();
    await waitLive(visitor.page);
    await visitor.page.getByRole('main').getByRole('button', { name: /^Download/ }).click();
    const dialog = visitor.page.getByRole('alertdialog', { name: 'Attribution required' });
    await dialog.getByRole('button', { name: 'Download' }).click();
    await expect.poll(() => downloads.length).toBe(1);
    const [download] = downloads;
    expect(download!.suggestedFilename()).toBe(name);
    expect(sha256(readFileSync((await download!.path())!))).toBe(sha256(bytes));
    // The file came without a tab left open on "Preparing your download…".
    expect(visitor.context.pages()).toEqual([visitor.page]);
    expect(visitor.page.url()).toBe(new URL(resource.url, env.server.url).href);
    visitor.expectNoConsoleErrors();
    await visitor.close();
  }, 120_000);

  it('a file dropped onto the zone uploads, and the slot is reachable by keyboard', async () => {
    const s = await openForm(`Dropped pack ${Date.now()}`);
    const { page } = s;
    const zone = page.getByTestId('resource-download-zone');
    const dropped = await page.evaluateHandle(() => {
      const data = new DataTransfer();
      data.items.add(new File(['dropped bytes '.repeat(1000)], 'dropped.txt', { type: 'text/plain' }));
      return data;
    });
    await zone.dispatchEvent('dragenter', { dataTransfer: dropped });
    await zone.dispatchEvent('dragover', { dataTransfer: dropped });
    await zone.dispatchEvent('drop', { dataTransfer: dropped });
    await page.getByRole('group', { name: 'Download' }).getByText('100% · Uploaded').waitFor();
    expect(await progress(page, 'dropped.txt').getAttribute('aria-valuenow')).toBe('100');

    // Tab from the description reaches the thumbnail's choice, then its file input.
    await page.getByLabel('Description').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe('upload');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Thumbnail image');
    // Arrow keys move between Upload and Link like any radio group.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('ArrowRight');
    await page.getByLabel('Thumbnail URL').waitFor();
    s.expectNoConsoleErrors();
    await s.close();
  });

  it('a file that is not an image is refused in the thumbnail slot before anything is sent', async () => {
    const s = await openForm(`Wrong thumbnail ${Date.now()}`);
    const { page } = s;
    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes(UPLOADS_PATH)) sent.push(r.method());
    });
    await page.getByLabel('Thumbnail image').setInputFiles(generatedFile('notes.txt', Buffer.from('not an image')));
    const slot = page.getByRole('group', { name: 'Thumbnail' });
    await slot.getByText('“notes.txt” is not an image.', { exact: false }).waitFor();
    expect(await page.getByLabel('Thumbnail image').getAttribute('aria-invalid')).toBe('true');
    expect(sent).toEqual([]);
    s.expectNoConsoleErrors();
    await s.close();
  });
});
