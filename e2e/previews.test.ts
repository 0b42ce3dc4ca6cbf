import { symlinkSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { API } from '../src/contract/api-paths';
import { type CategoryValue, getCategory } from '../src/contract/categories';
import type { ReadyPreview } from '../src/contract/previews';
import type { PublicResource, ResourceList } from '../src/contract/resources';
import { DEMO_PREVIEWS_JOB } from '../src/server/demo/demo-previews';
import { enqueueJob } from '../src/server/jobs/queue';
import { testMediaTools } from '../src/server/testing/media-tools';
import { sharedDemoMedia } from '../src/server/testing/test-utils';
import { expectAccessible, openPage, type Session, type TestServer, useBrowserServer, waitLive } from './harness';

/** The demo previews are made by the server's jobs (videos with ffmpeg, last): wait for them. */
const PREVIEWS_READY_MS = 540_000;
/** Font previews wanted on the typography page: the first row on screen and more below the fold. */
const MIN_FONT_CARDS = 9;
const SLOW_TEST_MS = 120_000;

type Kind = ReadyPreview['kind'];
type WithPreview<K extends Kind> = PublicResource & { preview: Extract<ReadyPreview, { kind: K }> };

/** Every preview file of a resource that must wait for the visitor (video, audio, LUT table, font). */
function previewBytes(p: ReadyPreview): string[] {
  switch (p.kind) {
    case 'video':
      return [p.video.url, p.storyboard.url];
    case 'audio':
      return [p.audio.url];
    case 'lut':
      return [p.table.url, ...p.samples.map((x) => x.url)];
    case 'font':
      return [p.file.url];
    case 'image-pair':
      return [];
  }
}

describe('previews of each kind', () => {
  const env = useBrowserServer();
  // The tests below read these: set from env once the shared server and browser have started.
  let server: TestServer;
  let browser: Browser;
  const found = new Map<Kind, PublicResource[]>();

  async function apiGet<T>(path: string): Promise<T> {
    const res = await fetch(server.url + path);
    expect(res.status, path).toBe(200);
    return (await res.json()) as T;
  }

  /** The first page of a category, as the category page shows it without a search. */
  const firstPage = (category: CategoryValue) => apiGet<ResourceList>(`${API.resources}?${new URLSearchParams({ category })}`);

  async function withPreviews(category: CategoryValue, kind: Kind): Promise<PublicResource[]> {
    return (await firstPage(category)).items.filter((r) => r.preview?.kind === kind);
  }

  function pick<K extends Kind>(kind: K, i = 0): WithPreview<K> {
    const r = found.get(kind)?.[i];
    if (!r) throw new Error(`no seeded ${kind} preview on its category's first page`);
    return r as WithPreview<K>;
  }

  const CATEGORY_OF: Record<Kind, CategoryValue> = {
    video: 'video_editing',
    audio: 'sound_effects',
    lut: 'color_grading',
    'image-pair': 'photo_editing',
    font: 'typography',
  };

  beforeAll(async () => {
    ({ server, browser } = env);
    // The demo media, as a restart finds them in DATA_DIR: the run's (under npm test, the ones the unit
    // tests made), not a set of this server's own (~25 s of CPU with ffmpeg).
    const media = await sharedDemoMedia(testMediaTools());
    symlinkSync(path.join(media.dataDir, 'demo-media'), path.join(server.config.dataDir, 'demo-media'));
    // The job a first start queues for the demo catalogue's previews (demo/demo-previews.ts; the
    // run's template holds the demo rows only), here with two media of each kind shared round-robin
    // as in demo-previews.test.ts: all the demo videos would be twelve ffmpeg jobs this file does not need.
    await enqueueJob(server.database, DEMO_PREVIEWS_JOB, { perKind: 2 });
    const enough = (kind: Kind) => (kind === 'font' ? MIN_FONT_CARDS : 2);
    let seen = '';
    let shown = '';
    for (const until = Date.now() + PREVIEWS_READY_MS; Date.now() < until; ) {
      for (const [kind, category] of Object.entries(CATEGORY_OF) as [Kind, CategoryValue][]) found.set(kind, await withPreviews(category, kind));
      seen = [...found.entries()].map(([kind, list]) => `${kind}: ${list.length >= enough(kind) ? 'ok' : list.length}`).join(', ');
      if ([...found.entries()].every(([kind, list]) => list.length >= enough(kind))) break;
      if (seen !== shown) console.info(`waiting for seeded previews: ${(shown = seen)}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
    expect(seen, 'ready previews on the first pages').toBe('video: ok, audio: ok, lut: ok, image-pair: ok, font: ok');
  }, PREVIEWS_READY_MS + 60_000);

  /** Opens the category page of `kind` with every request it makes recorded. */
  async function openCategory(s: Session, kind: Kind): Promise<string[]> {
    const requested: string[] = [];
    s.page.on('request', (r) => requested.push(new URL(r.url()).pathname));
    await s.page.goto(`/categories/${getCategory(CATEGORY_OF[kind])!.slug}`);
    await waitLive(s.page);
    return requested;
  }

  const cardOf = (page: Page, r: PublicResource): Locator =>
    page
      .getByRole('list', { name: 'Resources', exact: true })
      .locator(':scope > li')
      .filter({ has: page.getByRole('heading', { name: r.title, exact: true }) })
      .first();

  async function openDialog(page: Page, r: PublicResource): Promise<Locator> {
    await cardOf(page, r).getByRole('button', { name: `Preview ${r.title}`, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: r.title });
    await dialog.waitFor();
    return dialog;
  }

  it(
    'fetches no video, sound, LUT or font before the visitor asks, on every kind of category page',
    async () => {
      for (const kind of Object.keys(CATEGORY_OF) as Kind[]) {
        const s = await openPage(browser, server.url);
        try {
          const requested = await openCategory(s, kind);
          await s.page.waitForLoadState('networkidle');
          const page = await firstPage(CATEGORY_OF[kind]);
          // A font's card shows its title as outlines (an image), so no font is fetched either.
          const withheld = page.items.flatMap((r) => (r.preview ? previewBytes(r.preview) : []));
          // A preset's before/after images are images like thumbnails (loaded with the dialog): nothing to hold back.
          if (kind !== 'image-pair') expect(withheld.length, `${kind}: preview files on the page`).toBeGreaterThan(0);
          expect(
            requested.filter((p) => withheld.includes(p)),
            `${kind}: preview bytes fetched without interaction`,
          ).toEqual([]);
          s.expectNoConsoleErrors();
        } finally {
          await s.close();
        }
      }
    },
    SLOW_TEST_MS * 2,
  );

  it(
    'video: hovering plays the muted preview, the pointer scrubs the storyboard, the dialog plays it with controls',
    async () => {
      // Reduced motion keeps the preview still (the test below).
      const s = await openPage(browser, server.url, { reducedMotion: 'no-preference' });
      try {
        const r = pick('video');
        const requested = await openCategory(s, 'video');
        const media = cardOf(s.page, r).getByTestId('video-hover-preview');
        await media.waitFor();
        await media.scrollIntoViewIfNeeded();
        expect(requested).not.toContain(r.preview.video.url);
        expect(requested).not.toContain(r.preview.storyboard.url);

        const box = (await media.boundingBox())!;
        await s.page.mouse.move(box.x + box.width * 0.1, box.y + box.height / 2);
        await expect.poll(() => media.getAttribute('data-playing')).toBe('true');
        expect(await media.locator('video').evaluate((v: HTMLVideoElement) => v.muted)).toBe(true);
        expect(requested).toContain(r.preview.video.url);

        // Scrubbing shows storyboard tiles by the pointer's x: different places, different tiles.
        const frames = new Set<string>();
        for (const x of [0.05, 0.5, 0.95]) {
          await s.page.mouse.move(box.x + box.width * x, box.y + box.height / 2, { steps: 3 });
          const tile = media.getByTestId('storyboard-frame');
          await tile.waitFor();
          frames.add(await tile.evaluate((el: HTMLElement) => el.style.backgroundPosition));
        }
        expect(frames.size).toBe(3);
        expect(requested).toContain(r.preview.storyboard.url);

        // Leaving stops it.
        await s.page.mouse.move(0, 0);
        await expect.poll(() => media.getAttribute('data-playing')).toBe('false');

        // From the keyboard: the card's play button.
        const play = cardOf(s.page, r).getByRole('button', { name: `Play preview of ${r.title}` });
        await play.focus();
        await s.page.keyboard.press('Enter');
        await expect.poll(() => media.getAttribute('data-playing')).toBe('true');
        await cardOf(s.page, r).getByRole('button', { name: `Pause preview of ${r.title}` }).press('Enter');
        await expect.poll(() => media.getAttribute('data-playing')).toBe('false');

        const dialog = await openDialog(s.page, r);
        const player = dialog.getByTestId('video-player');
        await expect.poll(() => player.evaluate((v: HTMLVideoElement) => !v.paused && v.currentTime > 0)).toBe(true);
        expect(await player.evaluate((v: HTMLVideoElement) => v.controls && v.muted)).toBe(true);
        await expectAccessible(s.page);
        s.expectNoConsoleErrors();
      } finally {
        await s.close();
      }
    },
    SLOW_TEST_MS,
  );

  it('video: nothing plays by itself under prefers-reduced-motion; on touch a tap plays it', async () => {
    const r = pick('video');
    const reduced = await openPage(browser, server.url, { reducedMotion: 'reduce' });
    try {
      await openCategory(reduced, 'video');
      const media = cardOf(reduced.page, r).getByTestId('video-hover-preview');
      await media.waitFor();
      // The picture's box, which the preview listens on, through its locator: Playwright waits until it stands
      // still and is what the pointer reaches (a box read once could be stale, or under the sticky search bar).
      await cardOf(reduced.page, r).locator('[data-preview-host]').hover();
      await media.getByTestId('storyboard-frame').waitFor();
      // The hover never gave the video a source: nothing was loaded or played.
      expect(await media.locator('video').evaluate((v: HTMLVideoElement) => v.currentSrc)).toBe('');
      const dialog = await openDialog(reduced.page, r);
      expect(await dialog.getByTestId('video-player').evaluate((v: HTMLVideoElement) => v.autoplay || !v.paused)).toBe(false);
    } finally {
      await reduced.close();
    }

    const phone = await openPage(browser, server.url, { viewport: 'mobile' });
    try {
      await openCategory(phone, 'video');
      const media = cardOf(phone.page, r).getByTestId('video-hover-preview');
      await media.waitFor();
      const host = cardOf(phone.page, r).locator('[data-preview-host]');
      const box = (await host.boundingBox())!;
      const spot = { position: { x: box.width * 0.3, y: box.height * 0.3 } };
      await host.tap(spot);
      await expect.poll(() => media.getAttribute('data-playing')).toBe('true');
      await host.tap(spot);
      await expect.poll(() => media.getAttribute('data-playing')).toBe('false');
      phone.expectNoConsoleErrors();
    } finally {
      await phone.close();
    }
  });

  it(
    'audio: the waveform is drawn from the peaks, a sound plays only when asked, one at a time, and seeks from the keyboard',
    async () => {
      const s = await openPage(browser, server.url);
      try {
        const [a, b] = [pick('audio', 0), pick('audio', 1)];
        const requested = await openCategory(s, 'audio');
        const playerA = cardOf(s.page, a).getByTestId('waveform-player');
        const playerB = cardOf(s.page, b).getByTestId('waveform-player');
        await playerA.waitFor();
        // Two layers (played and not yet), each one path of bars.
        expect(await playerA.getByRole('slider').locator('svg path').count()).toBe(2);
        expect(requested).not.toContain(a.preview.audio.url);

        await cardOf(s.page, a).getByRole('button', { name: `Play ${a.title}`, exact: true }).click();
        await expect.poll(() => playerA.getAttribute('data-playing')).toBe('true');
        expect(requested).toContain(a.preview.audio.url);

        await cardOf(s.page, b).getByRole('button', { name: `Play ${b.title}`, exact: true }).click();
        await expect.poll(() => playerB.getAttribute('data-playing')).toBe('true');
        await expect.poll(() => playerA.getAttribute('data-playing')).toBe('false');
        expect(await s.page.locator('[data-testid="waveform-player"][data-playing="true"]').count()).toBe(1);

        // The seek bar: a labelled slider; End, Home and the arrows move it, space plays and pauses.
        const seek = cardOf(s.page, b).getByRole('slider', { name: `Seek ${b.title}` });
        await seek.focus();
        await s.page.keyboard.press('Space');
        await expect.poll(() => playerB.getAttribute('data-playing')).toBe('false');
        await s.page.keyboard.press('Home');
        expect(Number(await seek.getAttribute('aria-valuenow'))).toBe(0);
        await s.page.keyboard.press('ArrowRight');
        await s.page.keyboard.press('ArrowRight');
        const moved = Number(await seek.getAttribute('aria-valuenow'));
        expect(moved).toBeGreaterThan(0);
        await s.page.keyboard.press('ArrowLeft');
        expect(Number(await seek.getAttribute('aria-valuenow'))).toBeLessThan(moved);
        await s.page.keyboard.press('End');
        expect(Number(await seek.getAttribute('aria-valuenow'))).toBe(Number(await seek.getAttribute('aria-valuemax')));

        // Click-to-seek: halfway along the waveform.
        const wave = (await seek.boundingBox())!;
        await s.page.mouse.click(wave.x + wave.width / 2, wave.y + wave.height / 2);
        await expect.poll(() => playerB.getAttribute('data-playing')).toBe('true');
        const max = Number(await seek.getAttribute('aria-valuemax'));
        expect(Number(await seek.getAttribute('aria-valuenow'))).toBeGreaterThanOrEqual(max * 0.4);

        // The dialog's player is another sound on the page: starting it stops the card's.
        const dialog = await openDialog(s.page, a);
        await dialog.getByRole('button', { name: `Play ${a.title}`, exact: true }).click();
        await expect.poll(() => dialog.getByTestId('waveform-player').getAttribute('data-playing')).toBe('true');
        // (The page behind a modal dialog is hidden from roles: count by test id.)
        await expect.poll(() => s.page.locator('[data-testid="waveform-player"][data-playing="true"]').count()).toBe(1);
        await expectAccessible(s.page);
        s.expectNoConsoleErrors();
      } finally {
        await s.close();
      }
    },
    SLOW_TEST_MS,
  );

  /** The graded picture's pixels against the photo's, sampled on a grid: how many differ clearly. */
  async function gradedDiffers(dialog: Locator): Promise<number> {
    return dialog.evaluate((root) => {
      const canvas = root.querySelector<HTMLCanvasElement>('[data-testid="lut-graded"] canvas');
      const photo = root.querySelector<HTMLImageElement>('[data-testid="compare-before"] img');
      if (!canvas || !photo) return -1;
      const read = (src: CanvasImageSource) => {
        const c = document.createElement('canvas');
        c.width = 16;
        c.height = 16;
        const ctx = c.getContext('2d')!;
        ctx.drawImage(src, 0, 0, 16, 16);
        return ctx.getImageData(0, 0, 16, 16).data;
      };
      const [a, b] = [read(canvas), read(photo)];
      let differ = 0;
      for (let i = 0; i < a.length; i += 4) if (Math.abs(a[i] - b[i]) + Math.abs(a[i + 1] - b[i + 1]) + Math.abs(a[i + 2] - b[i + 2]) > 12) differ++;
      return differ;
    });
  }

  it(
    'LUT: grades sample photos live (WebGL2, and on the CPU without it), the slider moves, the photo can change',
    async () => {
      for (const webgl of [true, false]) {
        const s = await openPage(browser, server.url);
        try {
          if (!webgl) {
            await s.page.addInitScript(() => {
              const original = HTMLCanvasElement.prototype.getContext;
              HTMLCanvasElement.prototype.getContext = function (this: HTMLCanvasElement, type: string, ...rest: unknown[]) {
                return type === 'webgl2' ? null : (original as (...a: unknown[]) => unknown).call(this, type, ...rest);
              } as typeof original;
            });
          }
          const r = pick('lut');
          const requested = await openCategory(s, 'lut');
          expect(requested).not.toContain(r.preview.table.url);
          const dialog = await openDialog(s.page, r);
          const preview = dialog.getByTestId('lut-preview');
          await expect.poll(() => preview.getAttribute('data-renderer')).toBe(webgl ? 'webgl2' : 'canvas');
          expect(requested).toContain(r.preview.table.url);
          expect(await gradedDiffers(dialog)).toBeGreaterThan(16);

          const slider = dialog.getByRole('slider', { name: `Before and after ${r.title}` });
          const clip = () => dialog.getByTestId('compare-before').evaluate((el: HTMLElement) => el.style.clipPath);
          const before = await clip();
          await slider.focus();
          for (let i = 0; i < 5; i++) await s.page.keyboard.press('ArrowLeft');
          expect(await slider.inputValue()).toBe('45');
          expect(await clip()).not.toBe(before);

          if (r.preview.samples.length > 1) {
            const second = dialog.getByRole('group', { name: 'Sample photo' }).getByRole('button').nth(1);
            await second.click();
            await expect.poll(() => second.getAttribute('aria-pressed')).toBe('true');
            await expect.poll(() => dialog.getByTestId('compare-before').locator('img').getAttribute('src')).toBe(r.preview.samples[1].url);
            await expect.poll(() => preview.getAttribute('data-renderer')).toBe(webgl ? 'webgl2' : 'canvas');
          }
          await expectAccessible(s.page);
          s.expectNoConsoleErrors();
        } finally {
          await s.close();
        }
      }
    },
    SLOW_TEST_MS,
  );

  it('image pair: the preset’s before and after images under a keyboard slider', async () => {
    const s = await openPage(browser, server.url, { viewport: 'mobile' });
    try {
      const r = pick('image-pair');
      await openCategory(s, 'image-pair');
      const dialog = await openDialog(s.page, r);
      await expect.poll(() => dialog.getByRole('img', { name: `Before ${r.title}` }).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      await expect.poll(() => dialog.getByRole('img', { name: `After ${r.title}` }).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      const slider = dialog.getByRole('slider', { name: `Before and after ${r.title}` });
      await slider.focus();
      await s.page.keyboard.press('End');
      expect(await slider.inputValue()).toBe('100');
      await s.page.keyboard.press('Home');
      expect(await slider.inputValue()).toBe('0');
      expect(await dialog.getByTestId('compare-before').evaluate((el: HTMLElement) => el.style.clipPath)).toBe('inset(0px 100% 0px 0px)');
      await expectAccessible(s.page);
      s.expectNoConsoleErrors();
    } finally {
      await s.close();
    }
  });

  it('font: the card shows the title in the font’s outlines; the tester loads the font and takes the visitor’s text and size', async () => {
    const s = await openPage(browser, server.url);
    try {
      const r = pick('font');
      const requested = await openCategory(s, 'font');
      const card = cardOf(s.page, r);
      await card.scrollIntoViewIfNeeded();
      const specimen = card.getByTestId('font-specimen');
      await expect.poll(() => specimen.getAttribute('data-font-state')).toBe('loaded');
      expect(await specimen.getAttribute('data-specimen')).toBe('outline');
      expect(await specimen.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(50);
      expect(requested).toContain(r.preview.specimen.url);
      expect(requested).not.toContain(r.preview.file.url);

      const dialog = await openDialog(s.page, r);
      const tester = dialog.getByTestId('type-tester');
      await expect.poll(() => tester.getAttribute('data-font-state')).toBe('loaded');
      await expect(tester.innerText()).resolves.toContain(r.preview.fullName ?? r.preview.family);
      const sample = dialog.getByTestId('type-sample');
      await dialog.getByRole('textbox', { name: 'Your text' }).fill('Sphinx of black quartz');
      await expect.poll(() => sample.innerText()).toBe('Sphinx of black quartz');
      const size = dialog.getByRole('slider', { name: /^Size/ });
      const fontSize = () => sample.evaluate((el) => getComputedStyle(el).fontSize);
      const start = await fontSize();
      await size.focus();
      await s.page.keyboard.press('End');
      await expect.poll(fontSize).not.toBe(start);
      expect(await fontSize()).toBe(`${await size.inputValue()}px`);
      // The sample really is set in the loaded font (not the fallback).
      expect(await sample.evaluate((el) => document.fonts.check(`16px ${getComputedStyle(el).fontFamily.split(',')[0]}`))).toBe(true);
      expect(requested).toContain(r.preview.file.url);
      await expectAccessible(s.page);
      s.expectNoConsoleErrors();
    } finally {
      await s.close();
    }
  });

  it('font: a title with a character the font lacks is set in the font itself, loaded once the card is shown', async () => {
    const r = pick('font');
    const title = `${r.title} 東京`;
    await server.database.db.updateTable('resources').set({ title }).where('id', '=', r.id).execute();
    const s = await openPage(browser, server.url);
    try {
      const requested = await openCategory(s, 'font');
      const card = s.page.getByRole('list', { name: 'Resources', exact: true }).locator(':scope > li').filter({ has: s.page.getByRole('heading', { name: title, exact: true }) });
      await card.scrollIntoViewIfNeeded();
      const specimen = card.getByTestId('font-specimen');
      await expect.poll(() => specimen.getAttribute('data-specimen')).toBe('font');
      await expect.poll(() => specimen.getAttribute('data-font-state')).toBe('loaded');
      expect(await specimen.innerText()).toBe(title);
      expect(requested).toContain(r.preview.file.url);
      // The outline's 404 is the browser's own console line; nothing else went wrong.
      s.expectNoConsoleErrors([/Failed to load resource: the server responded with a status of 404/]);
    } finally {
      await s.close();
      await server.database.db.updateTable('resources').set({ title: r.title }).where('id', '=', r.id).execute();
    }
  });
});
