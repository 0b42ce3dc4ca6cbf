import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { demoSamplePhotos } from '../../demo/media/photos';
import type { FileStore } from '../../storage/file-store';
import { mediaKey } from '../../storage/keys';

/**
 * The photos a LUT preview grades in the browser: ungraded scenes of different light, rendered
 * from code (the same scenes the demo media use, src/server/demo/media/photos.ts), stored once
 * per process under their content's name and named by every LUT preview's result.
 */

export const LUT_SAMPLE_WIDTH = 960;
const LUT_SAMPLE_QUALITY = 82;
const ALTS = ['Sample landscape photo 1', 'Sample landscape photo 2', 'Sample landscape photo 3'];

export interface StoredSample {
  key: string;
  fileName: string;
  width: number;
  height: number;
  alt: string;
}

const made = new WeakMap<FileStore, Promise<StoredSample[]>>();

export function lutSamples(files: FileStore): Promise<StoredSample[]> {
  let samples = made.get(files);
  if (!samples) {
    samples = store(files);
    made.set(files, samples);
    samples.catch(() => made.delete(files)); // a failed store is tried again by the next job
  }
  return samples;
}

async function store(files: FileStore): Promise<StoredSample[]> {
  const photos = await demoSamplePhotos(ALTS.length);
  return Promise.all(
    photos.map(async (photo, i) => {
      const { data, info } = await sharp(photo).resize({ width: LUT_SAMPLE_WIDTH }).webp({ quality: LUT_SAMPLE_QUALITY }).toBuffer({ resolveWithObject: true });
      const fileName = `${createHash('sha256').update(data).digest('hex').slice(0, 32)}.webp`;
      const key = mediaKey(fileName);
      await files.put(key, Readable.from([data]), { maxBytes: data.byteLength, contentType: 'image/webp' });
      return { key, fileName, width: info.width, height: info.height, alt: ALTS[i]! };
    }),
  );
}
