import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../contract/api-paths';
import { CATEGORY_VALUES, type CategoryValue } from '../../contract/categories';
import type { PublicResource } from '../../contract/resources';
import { testMediaTools } from '../testing/media-tools';
import { enqueueJob, getJob } from '../jobs/queue';
import { LocalFileStore } from '../storage/local';
import { createTestApp, sharedDemoMedia, TEST_DATABASES } from '../testing/test-utils';
import { DEMO_PREVIEWS_JOB, seedDemoPreviews } from './demo-previews';
import { DEMO_FONT_PACKAGES } from './media/fonts';
import { seedDemoIfEmpty } from './seed';

/**
 * A fresh install's previews: the seed's job finds the demo media (made once per run: their making
 * is demo-media.test.ts's), queues their previews, and the worker derives them, so every category's
 * first page shows at least 12 (here with one medium of each kind, shared by the category's resources,
 * to keep it quick: each kind's derivation is tested on its own in src/server/media). How several
 * media of a kind are shared out is checked without deriving them (the test without ffmpeg).
 */

const MIN_PER_CATEGORY = 12;
const root = mkdtempSync(path.join(os.tmpdir(), 'rv-demo-previews-'));
/**
 * One demo-media folder for both databases: the run's demo media (made once per run, shared with
 * demo-media.test.ts, which checks them), found by the seed's job as a restart finds them.
 */
const dataDir = path.join(root, 'data');
beforeAll(async () => {
  const shared = await sharedDemoMedia(testMediaTools());
  mkdirSync(dataDir);
  symlinkSync(path.join(shared.dataDir, 'demo-media'), path.join(dataDir, 'demo-media'));
}, 600_000);
/**
 * The same for the no-ffmpeg media (which do not depend on the database either): the run's set
 * made without ffmpeg (shared with demo-media.test.ts, which checks them).
 */
const noFfmpegDir = path.join(root, 'no-ffmpeg-data');
const missing = testMediaTools({ ffmpeg: path.join(root, 'no-ffmpeg'), ffprobe: path.join(root, 'no-ffprobe') });
beforeAll(async () => {
  const shared = await sharedDemoMedia(missing, 'no-ffmpeg');
  mkdirSync(noFfmpegDir);
  symlinkSync(path.join(shared.dataDir, 'demo-media'), path.join(noFfmpegDir, 'demo-media'));
}, 300_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.each(TEST_DATABASES)('demo previews on %s', (kind) => {
  // Deriving the demo's previews (every font, one medium of each other kind) is ffmpeg's and the
  // worker's work, the same on either database, and about 30 s of CPU: it runs on the default one.
  // How the seed queues and shares out its jobs runs on both (the tests below, without ffmpeg), and
  // the job queue itself on both in jobs/jobs.test.ts.
  if (kind === 'sqlite')
    it(`a seeded catalogue shows at least ${MIN_PER_CATEGORY} ready previews on every category's first page`, async () => {
    const t = await createTestApp(kind, { dataDir });
    try {
      expect(await seedDemoIfEmpty(t.database)).toBe(true);
      const seed = await enqueueJob(t.database, DEMO_PREVIEWS_JOB, { perKind: 1 });
      const pending = async () =>
        Number((await t.database.db.selectFrom('media_jobs').select((eb) => eb.fn.countAll().as('n')).where('state', 'in', ['queued', 'processing']).executeTakeFirstOrThrow()).n);
      const end = Date.now() + 240_000;
      while ((await getJob(t.database, seed.id))?.state !== 'ready' || (await pending()) > 0) {
        expect(Date.now() < end, 'the demo previews finish').toBe(true);
        await delay(200);
      }
      // One medium of each kind, but every font: a typography resource is drawn only in its own face.
      expect((await getJob(t.database, seed.id))?.result).toMatchObject({ jobs: 4 + DEMO_FONT_PACKAGES.length, skipped: [] });
      const failed = await t.database.db.selectFrom('media_jobs').select(['kind', 'error']).where('state', '=', 'failed').execute();
      expect(failed).toEqual([]);

      const kinds = new Map<CategoryValue, Set<string>>();
      for (const category of CATEGORY_VALUES) {
        const page = (await t.app.inject({ method: 'GET', url: `${API.resources}?category=${category}` })).json<{ items: PublicResource[] }>();
        const shown = page.items.filter((r) => r.preview !== null);
        expect(shown.length, category).toBeGreaterThanOrEqual(MIN_PER_CATEGORY);
        kinds.set(category, new Set(shown.map((r) => r.preview!.kind)));
      }
      expect([...kinds.get('sound_effects')!]).toEqual(['audio']);
      expect([...kinds.get('color_grading')!]).toEqual(['lut']);
      expect([...kinds.get('photo_editing')!]).toEqual(['image-pair']);
      expect([...kinds.get('typography')!]).toEqual(['font']);
      for (const c of ['video_editing', 'motion_graphics', 'anime_edits'] as const) expect([...kinds.get(c)!]).toEqual(['video']);
      expect(kinds.get('premium_resources')!.size).toBe(5);
    } finally {
      await t.close();
    }
  }, 300_000);

  it('without ffmpeg, sounds and videos are skipped with a line saying so; the other kinds are queued, their media shared out in turn', async () => {
    const t = await createTestApp(kind, { mediaJobsConcurrency: 0 });
    try {
      await seedDemoIfEmpty(t.database);
      const lines: string[] = [];
      const log = { info() {}, warn: (_: object, line: string) => lines.push(line), error() {} };
      const files = new LocalFileStore(path.join(root, `${kind}-files`));
      const result = await seedDemoPreviews({ database: t.database, files, tools: missing, dataDir: noFfmpegDir, log }, { perKind: 2 });
      expect(lines).toEqual(result.skipped);
      expect(result.skipped).toEqual([
        expect.stringMatching(/^Demo videos skipped: .*ffmpeg/) as string,
        'Demo sound and video previews skipped: ffmpeg is not installed (Debian: apt-get install ffmpeg).',
      ]);
      expect(result.jobs).toBe(4 + DEMO_FONT_PACKAGES.length);
      expect(Object.keys(result.byCategory).sort()).toEqual(['color_grading', 'photo_editing', 'premium_resources', 'typography']);
      // A category's resources take the kind's two media in turn: each serves half of them (typography's
      // are drawn each in its own face, below).
      for (const category of ['color_grading', 'photo_editing'] as const) {
        const jobs = await t.database.db.selectFrom('resources').select('preview_job_id').where('category', '=', category).where('preview_job_id', 'is not', null).execute();
        expect(jobs.length, category).toBe(result.byCategory[category]);
        const perJob = new Map<number | null, number>();
        for (const { preview_job_id: job } of jobs) perJob.set(job, (perJob.get(job) ?? 0) + 1);
        expect([...perJob.values()].sort((a, b) => a - b), category).toEqual([Math.floor(jobs.length / 2), Math.ceil(jobs.length / 2)]);
      }
    } finally {
      await t.close();
    }
  }, 120_000);

  it('a demo font is drawn in a face that looks like its name and description: mono in a monospaced one, script in a script', async () => {
    const t = await createTestApp(kind, { mediaJobsConcurrency: 0 });
    try {
      await seedDemoIfEmpty(t.database);
      const log = { info() {}, warn() {}, error() {} };
      const files = new LocalFileStore(path.join(root, `${kind}-faces`));
      await seedDemoPreviews({ database: t.database, files, tools: missing, dataDir: noFfmpegDir, log }, { perKind: 2 });
      const rows = await t.database.db
        .selectFrom('resources')
        .innerJoin('media_jobs', 'media_jobs.id', 'resources.preview_job_id')
        .select(['resources.title', 'resources.description', 'media_jobs.payload'])
        .where('resources.category', '=', 'typography')
        .execute();
      const face = (payload: unknown) => {
        const { source } = (typeof payload === 'string' ? JSON.parse(payload) : payload) as { source: string };
        const family = DEMO_FONT_PACKAGES.find((f) => source.endsWith(`/${f.family.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.woff2`))?.family;
        expect(family, source).toBeDefined();
        return family!;
      };
      // What the faces are (Google Fonts' own classification), not what the catalogue says of them.
      const MONOSPACED = new Set(['VT323', 'Press Start 2P']);
      const SCRIPT = new Set(['Pacifico', 'Lobster']);
      let mono = 0;
      let script = 0;
      for (const r of rows) {
        const text = `${r.title} ${r.description}`;
        const drawn = face(r.payload);
        if (/\bmono(spaced)?\b/i.test(text)) {
          mono++;
          expect(MONOSPACED.has(drawn), `${r.title} (${r.description}) is drawn in ${drawn}`).toBe(true);
        }
        if (/\bscript\b/i.test(text)) {
          script++;
          expect(SCRIPT.has(drawn), `${r.title} (${r.description}) is drawn in ${drawn}`).toBe(true);
        }
      }
      // The seeded demo shows such resources (else the checks above prove nothing).
      expect(mono).toBeGreaterThan(0);
      expect(script).toBeGreaterThan(0);
      expect(rows.length).toBeGreaterThanOrEqual(MIN_PER_CATEGORY);
    } finally {
      await t.close();
    }
  }, 120_000);
});
