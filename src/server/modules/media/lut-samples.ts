import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { renderSamplePhotos } from '../../media/photos';
import type { FileStore } from '../../storage/file-store';
import { mediaKey } from '../../storage/keys';

/**
 * The photos a LUT preview grades in the browser: ungraded scenes of different light, rendered
 * from code (src/server/media/photos.ts, the same scenes the demo's photos use), encoded once
 * per process, stored under their content's name and named by every LUT preview's result. They
 * are stored again by every job: owned only by LUT resources (owners.ts), they are swept while
 * there is none, and a fresh write keeps them through the sweep's grace period until the job's
 * preview is published.
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

type EncodedSample = StoredSample & { data: Buffer };

let encoded: Promise<EncodedSample[]> | undefined;

export async function lutSamples(files: FileStore): Promise<StoredSample[]> {
  if (!encoded) {
    encoded = encode();
    encoded.catch(() => (encoded = undefined)); // a failure is tried again by the next job
  }
  return Promise.all(
    (await encoded).map(async ({ data, ...sample }) => {
      await files.put(sample.key, Readable.from([data]), { maxBytes: data.byteLength, contentType: 'image/webp' });
      return sample;
    }),
  );
}

async function encode(): Promise<EncodedSample[]> {
  const photos = await renderSamplePhotos(ALTS.length);
  return Promise.all(
    photos.map(async (photo, i) => {
      const { data, info } = await sharp(photo).resize({ width: LUT_SAMPLE_WIDTH }).webp({ quality: LUT_SAMPLE_QUALITY }).toBuffer({ resolveWithObject: true });
      const fileName = `${createHash('sha256').update(data).digest('hex').slice(0, 32)}.webp`;
      return { key: mediaKey(fileName), fileName, width: info.width, height: info.height, alt: ALTS[i]!, data };
    }),
  );
}
