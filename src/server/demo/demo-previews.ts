import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { CATEGORY_VALUES, type CategoryValue } from '../../contract/categories';
import { PAGE_SIZE } from '../../contract/constants';
import { CATEGORY_PREVIEW_KINDS, PREVIEW_KINDS, type PreviewKind } from '../../contract/previews';
import type { Module } from '../context';
import { defineJob, type JobDefinition } from '../jobs/queue';
import type { JobLogger } from '../jobs/runner';
import { ffmpegInstalled, mediaTools, type MediaTools } from '../media/ffmpeg';
import { assignPreviewJob, enqueuePreviewJob, type PreviewSources } from '../modules/media/resource-previews';
import type { FileStore } from '../storage/file-store';
import type { Database } from '../db/connection';
import { DEMO_VOCABULARY } from './demo-catalog';
import { type DemoMediaManifest, ensureDemoMedia } from './media/demo-media';

/**
 * The demo catalogue's previews, as a job queued by the seed (setup.ts) so the first start is not
 * held up: it makes the demo media (src/server/demo/media, about half a minute, reused by later
 * starts), stores them as preview sources and queues one preview job per medium, which the job
 * worker then derives like any upload. Each category's first page by popularity and by date gets
 * previews, the media shared round-robin (one job may serve several resources), except that a
 * typography resource is drawn in the face its title names (decision 373). Sounds and videos
 * need ffmpeg: without it they are skipped with a line saying so. See
 * docs/decisions/222-demo-previews-as-a-job.md.
 */

export const DEMO_PREVIEWS_JOB = {
  kind: 'seed.demo-previews',
  payload: z.object({
    /** Resources of each category given a preview, by popularity and again by date (default: a page of each). */
    perCategory: z.number().int().min(1).max(1000).optional(),
    /** Media of each kind used (default: all the demo media has). */
    perKind: z.number().int().min(1).max(100).optional(),
  }),
} as const;

const TIME_LIMIT_MS = 10 * 60_000;
/** Where the demo media are stored as preview sources. */
const SOURCE_PREFIX = 'demo-media';
/** Cheap kinds are queued first, so most cards show their preview within seconds. */
const QUEUE_ORDER: PreviewKind[] = ['lut', 'font', 'image-pair', 'audio', 'video'];

export interface DemoPreviewsOptions {
  database: Database;
  files: FileStore;
  tools: MediaTools;
  dataDir: string;
  log: JobLogger;
}

export interface DemoPreviewsResult {
  jobs: number;
  resources: number;
  byCategory: Record<string, number>;
  skipped: string[];
}

export function demoPreviewsJob(options: DemoPreviewsOptions): JobDefinition {
  return defineJob({ ...DEMO_PREVIEWS_JOB, timeLimitMs: TIME_LIMIT_MS, maxAttempts: 3, run: (payload, { signal }) => seedDemoPreviews(options, payload, signal) });
}

export async function seedDemoPreviews(
  options: DemoPreviewsOptions,
  limits: z.infer<typeof DEMO_PREVIEWS_JOB.payload> = {},
  /** The job's: a server stopping while the demo media are made stops their ffmpeg processes. */
  signal?: AbortSignal,
): Promise<DemoPreviewsResult> {
  const { database, files, tools, log } = options;
  const media = await ensureDemoMedia(options.dataDir, tools, signal);
  const skipped = [...media.manifest.skipped];
  const kinds = new Set<PreviewKind>(PREVIEW_KINDS);
  if (!ffmpegInstalled(tools)) {
    kinds.delete('video');
    kinds.delete('audio');
    skipped.push('Demo sound and video previews skipped: ffmpeg is not installed (Debian: apt-get install ffmpeg).');
  }
  for (const line of skipped) log.warn({}, line);

  const sources = await storeSources(files, media.dir, media.manifest, limits.perKind ?? 100);
  const pools = new Map<PreviewKind, number[]>();
  for (const kind of QUEUE_ORDER) {
    if (!kinds.has(kind) || sources[kind].length === 0) continue;
    const ids: number[] = [];
    for (const s of sources[kind]) ids.push((await enqueuePreviewJob(database, s, { subject: 'demo-previews' })).id);
    pools.set(kind, ids);
  }

  const fontJobs = pools.get('font') ?? [];
  const faceJobs = new Map(media.manifest.fonts.slice(0, fontJobs.length).map((f, i) => [f.family, fontJobs[i]!]));

  const perCategory = limits.perCategory ?? PAGE_SIZE;
  const byCategory: Record<string, number> = {};
  const next = new Map<PreviewKind, number>();
  const assigned = new Map<number, number[]>();
  for (const category of CATEGORY_VALUES) {
    const usable = (category === 'premium_resources' ? PREVIEW_KINDS : CATEGORY_PREVIEW_KINDS[category].slice(0, 1)).filter((k) => pools.has(k));
    if (usable.length === 0) continue;
    const shown = await shownFirst(database, category, perCategory);
    let count = 0;
    shown.forEach(({ id, title }, i) => {
      const kind = usable[i % usable.length]!;
      let job: number | undefined;
      if (category === 'typography') {
        // Drawn in its own face, or not at all (decision 373).
        job = faceJobs.get(DEMO_FACES.get(title.replace(/ Vol\. \d+$/, '')) ?? '');
      } else {
        const pool = pools.get(kind)!;
        const n = next.get(kind) ?? 0;
        next.set(kind, n + 1);
        job = pool[n % pool.length]!;
      }
      if (job === undefined) return;
      assigned.set(job, [...(assigned.get(job) ?? []), id]);
      count++;
    });
    byCategory[category] = count;
  }
  for (const [job, ids] of assigned) await assignPreviewJob(database.db, ids, job);
  const resources = [...assigned.values()].reduce((n, ids) => n + ids.length, 0);
  log.info({ jobs: [...pools.values()].flat().length, resources }, 'demo previews queued');
  return { jobs: [...pools.values()].flat().length, resources, byCategory, skipped };
}

/** The demo typography titles (without a volume) and the face each is drawn in (decision 373). */
const DEMO_FACES = new Map<string, string>(
  DEMO_VOCABULARY.typography.styles.flatMap((style) => DEMO_VOCABULARY.typography.subjects.flatMap((s) => (s.face ? [[`${style} ${s.name}`, s.face] as const] : []))),
);

/** The category's resources a visitor sees first (by popularity, and newest), that have no preview job yet. */
async function shownFirst(database: Database, category: CategoryValue, count: number): Promise<{ id: number; title: string }[]> {
  const base = database.db.selectFrom('resources').select(['id', 'title']).where('category', '=', category).where('preview_job_id', 'is', null).limit(count);
  const [popular, newest] = await Promise.all([
    base.orderBy('popularity', 'desc').orderBy('id', 'desc').execute(),
    base.orderBy('created_at', 'desc').orderBy('id', 'desc').execute(),
  ]);
  const byId = new Map([...popular, ...newest].map((r) => [Number(r.id), r.title]));
  return [...byId].map(([id, title]) => ({ id, title }));
}

/** Puts the demo media in the file store (as an admin's upload would be) and lists them as preview sources by kind. */
async function storeSources(files: FileStore, dir: string, manifest: DemoMediaManifest, perKind: number): Promise<Record<PreviewKind, PreviewSources[]>> {
  const put = async (rel: string) => {
    const key = `${SOURCE_PREFIX}/v${manifest.version}/${rel.split(path.sep).join('/')}`;
    const file = path.join(dir, rel);
    if (!(await files.stat(key))) await files.put(key, createReadStream(file), { maxBytes: (await fs.stat(file)).size });
    return key;
  };
  const single = <K extends Exclude<PreviewKind, 'image-pair'>>(kind: K, list: { file: string }[], limit = perKind) =>
    Promise.all(list.slice(0, limit).map(async (m) => ({ kind, source: await put(m.file) })));
  return {
    video: await single('video', manifest.videos),
    audio: await single('audio', manifest.sounds),
    lut: await single('lut', manifest.luts),
    // Every face: a typography resource is shown only in its own (decision 373); each is small and quick to derive.
    font: await single('font', manifest.fonts, manifest.fonts.length),
    'image-pair': await Promise.all(manifest.photoPairs.slice(0, perKind).map(async (p) => ({ kind: 'image-pair' as const, before: await put(p.before), after: await put(p.after) }))),
  };
}

/** Registers the demo-previews job, which the seed queues (setup.ts), with the app's job kinds. */
export const demoJobsModule: Module = (app, { config, database, files, jobs }) => {
  const tools = mediaTools({ ffmpeg: config.ffmpegPath, ffprobe: config.ffprobePath, niceness: config.mediaNice });
  jobs.register(demoPreviewsJob({ database, files, tools, dataDir: config.dataDir, log: app.log }));
};
