import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { deriveImagePairPreview } from './image-pair';

const dir = mkdtempSync(path.join(os.tmpdir(), 'rv-pair-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function photo(name: string, width: number, height: number, colour: string): Promise<string> {
  const file = path.join(dir, name);
  await sharp({ create: { width, height, channels: 3, background: colour, noise: { type: 'gaussian', mean: 128, sigma: 30 } } })
    .jpeg()
    .toFile(file);
  return file;
}

describe('before/after image pair', () => {
  it('processes both images like thumbnails', async () => {
    const before = await photo('before.jpg', 1000, 600, '#336699');
    const after = await photo('after.jpg', 1000, 600, '#996633');
    const pair = await deriveImagePairPreview(before, after, dir);
    expect(pair.kind).toBe('image-pair');
    for (const side of [pair.before, pair.after]) {
      expect(side).toMatchObject({ width: 1000, height: 600 });
      expect(side.variants.map((v) => `${v.format}:${v.width}`)).toContain('webp:400');
      expect(side.variants.every((v) => v.width <= 1000)).toBe(true);
      expect(side.placeholder.color).toMatch(/^#[0-9a-f]{6}$/);
    }
    expect(pair.before.variants[0].fileName).not.toBe(pair.after.variants[0].fileName);
  });

  it('refuses two images of different shapes, and passes on a refused image’s reason', async () => {
    const wide = await photo('wide.jpg', 900, 600, '#224466');
    const tall = await photo('tall.jpg', 600, 900, '#664422');
    await expect(deriveImagePairPreview(wide, tall, dir)).rejects.toMatchObject({
      reason: 'mismatched_images',
      message: 'The before image is 900 × 600 and the after image 600 × 900; a before/after preview needs two images of the same shape.',
    });
    const svg = path.join(dir, 'after.svg');
    writeFileSync(svg, '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    await expect(deriveImagePairPreview(wide, svg, dir)).rejects.toMatchObject({ reason: 'image_refused', message: expect.stringMatching(/^The after image was refused: SVG/) });
  });
});
