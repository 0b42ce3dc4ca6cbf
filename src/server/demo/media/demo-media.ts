import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { abortedError, type MediaTools } from '../../media/ffmpeg';
import { demoFonts } from './fonts';
import { demoLuts } from './luts';
import { renderPhotoPairs, renderSamplePhotos } from '../../media/photos';
import { demoSounds } from './sounds';
import { makeDemoVideos } from './videos';

/**
 * The fresh install's preview media, made on the machine with no network: sounds, LUTs, photo
 * pairs, videos and fonts, written once under DATA_DIR/demo-media/<version>/ with a manifest and
 * reused by every later start (and by a second instance, which finds the directory complete).
 */

/** Bump when a generator changes its output, so installs make the new media. */
export const DEMO_MEDIA_VERSION = 1;

export interface DemoMediaManifest {
  version: number;
  /** Paths relative to the manifest's directory. */
  sounds: { name: string; file: string }[];
  luts: { name: string; file: string }[];
  photoPairs: { name: string; before: string; after: string }[];
  samplePhotos: string[];
  videos: { name: string; file: string }[];
  fonts: { family: string; package: string; license: string; file: string }[];
  /** One line each for what could not be made (ffmpeg missing, a font package not installed). */
  skipped: string[];
}

export interface DemoMedia {
  dir: string;
  manifest: DemoMediaManifest;
  /** False when an earlier run's media were reused. */
  generated: boolean;
}

const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-');

export async function ensureDemoMedia(dataDir: string, tools: MediaTools, signal?: AbortSignal): Promise<DemoMedia> {
  const root = path.join(dataDir, 'demo-media');
  const dir = path.join(root, `v${DEMO_MEDIA_VERSION}`);
  const existing = await readManifest(dir);
  if (existing) return { dir, manifest: existing, generated: false };

  await fs.mkdir(root, { recursive: true });
  const work = path.join(root, `.v${DEMO_MEDIA_VERSION}-${randomBytes(4).toString('hex')}`);
  await fs.mkdir(work);
  try {
    const manifest = await generate(work, tools, signal);
    await fs.writeFile(path.join(work, 'manifest.json'), JSON.stringify(manifest, null, 2));
    try {
      await fs.rename(work, dir);
    } catch (error) {
      // Another instance finished first: use its media.
      const theirs = await readManifest(dir);
      if (!theirs) throw error;
      await fs.rm(work, { recursive: true, force: true });
      return { dir, manifest: theirs, generated: false };
    }
    return { dir, manifest, generated: true };
  } catch (error) {
    await fs.rm(work, { recursive: true, force: true });
    throw error;
  }
}

async function readManifest(dir: string): Promise<DemoMediaManifest | undefined> {
  try {
    const manifest = JSON.parse(await fs.readFile(path.join(dir, 'manifest.json'), 'utf8')) as DemoMediaManifest;
    return manifest.version === DEMO_MEDIA_VERSION ? manifest : undefined;
  } catch {
    return undefined;
  }
}

async function generate(dir: string, tools: MediaTools, signal?: AbortSignal): Promise<DemoMediaManifest> {
  const sub = async (name: string) => {
    await fs.mkdir(path.join(dir, name));
    return name;
  };
  const [soundsDir, lutsDir, photosDir, videosDir, fontsDir] = await Promise.all(['sounds', 'luts', 'photos', 'videos', 'fonts'].map(sub));
  const write = async (rel: string, data: Buffer) => {
    await fs.writeFile(path.join(dir, rel), data);
    return rel;
  };

  // Videos run in ffmpeg processes while this process renders the rest.
  const videosMade = makeDemoVideos(tools, path.join(dir, videosDir), signal);
  videosMade.catch(() => {}); // awaited below; this only keeps an early failure elsewhere from leaving it unhandled
  // A stop (the server shutting down) ends the work in this process too, at the next step, once the
  // ffmpeg processes it killed have exited.
  const stopIfAsked = async () => {
    if (!signal?.aborted) return;
    await videosMade;
    throw abortedError(signal);
  };
  const sounds = await Promise.all(demoSounds().map(async (s) => ({ name: s.name, file: await write(path.join(soundsDir, s.file), s.data) })));
  await stopIfAsked();
  const luts = await Promise.all(demoLuts().map(async (l) => ({ name: l.name, file: await write(path.join(lutsDir, l.file), l.data) })));
  await stopIfAsked();
  const pairs = await renderPhotoPairs();
  await stopIfAsked();
  const photoPairs = await Promise.all(
    pairs.map(async (p) => ({
      name: p.name,
      before: await write(path.join(photosDir, `${slug(p.name)}-before.jpg`), p.before),
      after: await write(path.join(photosDir, `${slug(p.name)}-after.jpg`), p.after),
    })),
  );
  const samplePhotos = await Promise.all((await renderSamplePhotos()).map((data, i) => write(path.join(photosDir, `sample-${i + 1}.jpg`), data)));
  await stopIfAsked();
  const { fonts: fontFiles, missing } = await demoFonts();
  const fonts = await Promise.all(
    fontFiles.map(async (f) => ({ family: f.family, package: f.package, license: f.license, file: await write(path.join(fontsDir, `${slug(f.family)}.woff2`), f.data) })),
  );
  const made = await videosMade;
  const skipped = [
    ...(made.skipped ? [`Demo videos skipped: ${made.skipped}.`] : []),
    ...missing.map((p) => `Demo font skipped: the package ${p} is not installed.`),
  ];
  return {
    version: DEMO_MEDIA_VERSION,
    sounds,
    luts,
    photoPairs,
    samplePhotos,
    videos: made.videos.map((v) => ({ name: v.name, file: path.relative(dir, v.file) })),
    fonts,
    skipped,
  };
}
