import { type DerivedFile, MediaRejectedError, writeDerived } from './derived';
import { ImageRejectedError, type ProcessedImage, processThumbnail } from './images';

/**
 * A photo preset's before/after pair: each image through the thumbnail pipeline (same checks,
 * widths and placeholder), and the two must have the same shape, or the slider would compare
 * different framings.
 */

/** How far the two aspect ratios may differ (a crop of a pixel or two after export). */
export const PAIR_ASPECT_TOLERANCE = 0.01;

export interface PairImage {
  width: number;
  height: number;
  variants: (DerivedFile & { width: number; height: number; format: 'webp' | 'avif' })[];
  placeholder: ProcessedImage['placeholder'];
}

export interface ImagePairPreview {
  kind: 'image-pair';
  before: PairImage;
  after: PairImage;
}

export async function deriveImagePairPreview(before: string, after: string, outDir: string): Promise<ImagePairPreview> {
  const [b, a] = [await processSide(before, 'before'), await processSide(after, 'after')];
  const ratio = (i: ProcessedImage) => i.source.width / i.source.height;
  if (Math.abs(ratio(b) / ratio(a) - 1) > PAIR_ASPECT_TOLERANCE) {
    throw new MediaRejectedError(
      'mismatched_images',
      `The before image is ${b.source.width} × ${b.source.height} and the after image ${a.source.width} × ${a.source.height}; a before/after preview needs two images of the same shape.`,
    );
  }
  return { kind: 'image-pair', before: await save(b, outDir), after: await save(a, outDir) };
}

async function processSide(file: string, side: 'before' | 'after'): Promise<ProcessedImage> {
  try {
    return await processThumbnail(file);
  } catch (error) {
    if (error instanceof ImageRejectedError) throw new MediaRejectedError('image_refused', `The ${side} image was refused: ${error.message}`);
    throw error;
  }
}

async function save(image: ProcessedImage, outDir: string): Promise<PairImage> {
  const variants = await Promise.all(
    image.variants.map(async (v) => ({ ...(await writeDerived(outDir, v.data, v.format, v.contentType)), width: v.width, height: v.height, format: v.format })),
  );
  return { width: image.source.width, height: image.source.height, variants, placeholder: image.placeholder };
}
