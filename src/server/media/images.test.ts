import { createHash } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import {
  AVIF_MAX_SHARE_OF_WEBP,
  ImageRejectedError,
  THUMBNAIL_MAX_INPUT_BYTES,
  THUMBNAIL_WIDTHS,
  processThumbnail,
  type ImageRejection,
  type ProcessedImage,
} from './images';

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rv-images-test-'));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** Writes `data` under a name of our choosing: the pipeline must not care about the name. */
async function file(name: string, data: Buffer | string): Promise<string> {
  const p = path.join(dir, name);
  await fs.writeFile(p, data);
  return p;
}

async function rejection(input: string | Readable): Promise<ImageRejectedError> {
  const err = await processThumbnail(input).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ImageRejectedError);
  return err as ImageRejectedError;
}

async function expectRejected(input: string | Readable, reason: ImageRejection, message: RegExp) {
  const err = await rejection(input);
  expect(err.reason).toBe(reason);
  expect(err.message).toMatch(message);
}

const solid = (width: number, height: number, background: string) => sharp({ create: { width, height, channels: 3, background } });

/** Smooth shapes with some grain, like a photo: where AVIF beats WebP. */
function photoLike(width: number, height: number) {
  const svg = `<svg width="${width}" height="${height}"><defs><linearGradient id="g"><stop offset="0" stop-color="#e33"/><stop offset="1" stop-color="#33e"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)" opacity="0.7"/><circle cx="${width / 2}" cy="${height / 2}" r="${height / 3}" fill="#fc3" opacity="0.8"/></svg>`;
  return sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 20 } } })
    .blur(3)
    .composite([{ input: Buffer.from(svg) }]);
}

async function pixel(data: Buffer, x: number, y: number) {
  const { data: px, info } = await sharp(data).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [px[at], px[at + 1], px[at + 2]];
}

const webps = (result: ProcessedImage) => result.variants.filter((v) => v.format === 'webp');

describe('processThumbnail', () => {
  it('applies EXIF orientation and strips every piece of metadata, GPS included', async () => {
    // Stored 300 × 200, left half red; orientation 6 means "rotate 90° clockwise to show".
    const red = await solid(150, 200, '#ff0000').png().toBuffer();
    const jpeg = await solid(300, 200, '#0000ff')
      .composite([{ input: red, left: 0, top: 0 }])
      .withExif({
        IFD0: { Make: 'TestCam' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 24/1', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 7/1' },
      })
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const input = await sharp(jpeg).metadata();
    expect(input.orientation).toBe(6);
    expect(input.exif?.includes(Buffer.from([0x25, 0x88]))).toBe(true); // the GPS IFD pointer tag

    const result = await processThumbnail(await file('photo.jpg', jpeg));
    expect(result.source).toEqual({ format: 'jpg', width: 200, height: 300, bytes: jpeg.length });
    for (const variant of result.variants) {
      const meta = await sharp(variant.data).metadata();
      expect([meta.width, meta.height]).toEqual([200, 300]);
      expect(meta.orientation).toBeUndefined();
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      expect(variant.data.includes('TestCam')).toBe(false);
    }
    // Upright: the red half is now on top.
    const [top, bottom] = [await pixel(webps(result)[0].data, 100, 20), await pixel(webps(result)[0].data, 100, 280)];
    expect(top[0]).toBeGreaterThan(200);
    expect(top[2]).toBeLessThan(60);
    expect(bottom[2]).toBeGreaterThan(200);
    expect(bottom[0]).toBeLessThan(60);
  });

  it('makes WebP at each width up to the largest, never upscaled, named by content hash', async () => {
    const big = await processThumbnail(await file('wide.png', await photoLike(1700, 850).png().toBuffer()));
    expect(webps(big).map((v) => [v.width, v.height])).toEqual(THUMBNAIL_WIDTHS.map((w) => [w, w / 2]));

    const small = await processThumbnail(await file('small.png', await photoLike(500, 300).png().toBuffer()));
    expect(webps(small).map((v) => [v.width, v.height])).toEqual([
      [400, 240],
      [500, 300],
    ]);

    const tall = await processThumbnail(await file('tall.png', await photoLike(500, 2000).png().toBuffer()));
    expect(webps(tall).map((v) => [v.width, v.height])).toEqual([[400, 1600]]);

    for (const v of [...big.variants, ...small.variants]) {
      const sha = createHash('sha256').update(v.data).digest('hex');
      expect(v.fileName).toBe(`${sha.slice(0, 32)}.${v.format}`);
      expect(v.hash).toBe(sha.slice(0, 32));
      expect((await sharp(v.data).metadata()).format).toBe(v.format === 'webp' ? 'webp' : 'heif');
      expect(v.contentType).toBe(`image/${v.format}`);
    }
  });

  it('keeps AVIF only where it is clearly smaller than the WebP', async () => {
    const photo = await processThumbnail(await file('photo.png', await photoLike(800, 450).png().toBuffer()));
    const avifs = photo.variants.filter((v) => v.format === 'avif');
    expect(avifs.length).toBeGreaterThan(0);
    for (const avif of avifs) {
      const webp = photo.variants.find((v) => v.format === 'webp' && v.width === avif.width)!;
      expect(avif.data.length).toBeLessThanOrEqual(webp.data.length * AVIF_MAX_SHARE_OF_WEBP);
    }
    // A flat image: AVIF's container costs more than WebP's whole file.
    const flat = await processThumbnail(await file('flat.png', await solid(64, 64, '#336699').png().toBuffer()));
    expect(flat.variants.map((v) => [v.format, v.width])).toEqual([['webp', 64]]);
  });

  it('gives a dominant colour and a tiny placeholder image', async () => {
    const result = await processThumbnail(await file('flat.jpg', await solid(640, 360, '#3366cc').jpeg().toBuffer()));
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(result.placeholder.color.slice(i, i + 2), 16));
    expect(Math.abs(r - 0x33)).toBeLessThan(16);
    expect(Math.abs(g - 0x66)).toBeLessThan(16);
    expect(Math.abs(b - 0xcc)).toBeLessThan(16);

    const photo = await processThumbnail(await file('photo2.png', await photoLike(800, 450).png().toBuffer()));
    const uri = photo.placeholder.dataUri;
    expect(uri).toMatch(/^data:image\/webp;base64,/);
    expect(uri.length).toBeLessThan(400);
    const tiny = await sharp(Buffer.from(uri.split(',')[1], 'base64')).metadata();
    expect([tiny.width, tiny.height]).toEqual([16, 9]);
  });

  it('accepts JPEG, PNG, WebP, AVIF and GIF, by their bytes whatever their name', async () => {
    const image = solid(120, 80, '#22aa44');
    const formats = [
      ['jpg', await image.clone().jpeg().toBuffer()],
      ['png', await image.clone().png().toBuffer()],
      ['webp', await image.clone().webp().toBuffer()],
      ['avif', await image.clone().avif().toBuffer()],
      ['gif', await image.clone().gif().toBuffer()],
    ] as const;
    for (const [format, data] of formats) {
      const result = await processThumbnail(await file(`image-${format}.bin`, data));
      expect(result.source).toMatchObject({ format, width: 120, height: 80 });
      expect(webps(result)).toHaveLength(1);
    }
  });

  it('takes the first frame of an animated GIF', async () => {
    // Two 40 × 30 frames stacked: red, then blue.
    const frames = Buffer.concat([Buffer.alloc(40 * 30 * 3), Buffer.alloc(40 * 30 * 3)]);
    for (let i = 0; i < 40 * 30; i++) {
      frames[i * 3] = 255;
      frames[40 * 30 * 3 + i * 3 + 2] = 255;
    }
    const gif = await sharp(frames, { raw: { width: 40, height: 60, channels: 3, pageHeight: 30 } }).gif().toBuffer();
    expect((await sharp(gif).metadata()).pages).toBe(2);

    const result = await processThumbnail(await file('animated.gif', gif));
    expect(result.source).toMatchObject({ format: 'gif', width: 40, height: 30 });
    const [r, , b] = await pixel(webps(result)[0].data, 20, 15);
    expect(r).toBeGreaterThan(200);
    expect(b).toBeLessThan(60);
  });

  it('works from a stream as from a file', async () => {
    const png = await photoLike(600, 400).png().toBuffer();
    const fromStream = await processThumbnail(Readable.from([png.subarray(0, 1000), png.subarray(1000)]));
    const fromFile = await processThumbnail(await file('same.png', png));
    expect(fromStream.variants.map((v) => v.fileName)).toEqual(fromFile.variants.map((v) => v.fileName));
  });
});

describe('processThumbnail refuses', () => {
  it('a decompression bomb by its pixel count, before decoding it, in bounded memory', async () => {
    const bomb = await file('bomb.png', await pngBomb(50_000));
    expect((await fs.stat(bomb)).size).toBeLessThan(1024 * 1024);
    const claimed = await sharp(bomb, { limitInputPixels: false }).metadata();
    expect([claimed.width, claimed.height]).toEqual([50_000, 50_000]);

    const before = process.memoryUsage().rss;
    await expectRejected(bomb, 'too_many_pixels', /50000 × 50000 pixels; a thumbnail can have at most 50 million/);
    // Decoding it would take 2.5 GB for the pixels alone.
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
  });

  it('a truncated JPEG or PNG', async () => {
    const jpeg = await photoLike(400, 300).jpeg().toBuffer();
    await expectRejected(await file('cut.jpg', jpeg.subarray(0, Math.floor(jpeg.length * 0.6))), 'unreadable', /damaged or incomplete/);
    const png = await photoLike(400, 300).png().toBuffer();
    await expectRejected(await file('cut.png', png.subarray(0, Math.floor(png.length * 0.6))), 'unreadable', /damaged or incomplete/);
  });

  it('SVG (with script or without), HTML and XML, whatever the name', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.cookie)</script></svg>';
    await expectRejected(await file('evil.png', svg), 'markup', /SVG, HTML and other markup files are not accepted/);
    await expectRejected(await file('plain.svg', '\uFEFF  <?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>'), 'markup', /markup/);
    await expectRejected(await file('page.jpg', '<!doctype html><html><body>hi</body></html>'), 'markup', /markup/);
  });

  it('zero bytes', async () => {
    await expectRejected(await file('empty.png', ''), 'empty', /The file is empty/);
  });

  it('a text file named .png and other non-images', async () => {
    await expectRejected(await file('notes.png', 'just some text, not an image\n'), 'not_an_image', /This file is not an image/);
    await expectRejected(await file('random.jpg', Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 31) % 256))), 'not_an_image', /not an image/);
  });

  it('image types we do not take, naming them', async () => {
    await expectRejected(await file('scan.png', await solid(10, 10, '#fff').tiff().toBuffer()), 'unsupported_type', /^TIF files are not accepted as a thumbnail/);
    await expectRejected(await file('doc.png', '%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n'), 'unsupported_type', /^PDF files are not accepted/);
  });

  it('a polyglot that is also a ZIP archive, a PDF or a web page', async () => {
    const jpeg = await photoLike(200, 100).jpeg().toBuffer();
    await expectRejected(await file('jpeg-zip.jpg', Buffer.concat([jpeg, storedZip('payload.js', 'alert(1)')])), 'polyglot', /also contains a ZIP archive/);

    const withScript = await photoLike(200, 100)
      .withExif({ IFD0: { ImageDescription: '<script src=//evil.example/x.js></script>' } })
      .jpeg()
      .toBuffer();
    await expectRejected(await file('jpeg-html.jpg', withScript), 'polyglot', /also contains web page code/);

    const pdfInside = Buffer.concat([jpeg.subarray(0, 2), comSegment('%PDF-1.4 hidden'), jpeg.subarray(2)]);
    await expectRejected(await file('jpeg-pdf.jpg', pdfInside), 'polyglot', /also contains a PDF document/);

    // A tag's name ends at a space, a slash or `>`, at a chunk's end as anywhere.
    for (const markup of ['<svg onload=alert(1)>', '<SVG/onload=alert(1)>', '<html>', '<iframe\nsrc=x>', '<?php echo 1;']) {
      await expectRejected(await file('tag.jpg', Buffer.concat([jpeg.subarray(0, 2), comSegment(markup), jpeg.subarray(2)])), 'polyglot', /also contains web page code/);
    }
  });

  it("takes bytes that only begin like a tag, as a photo's compressed data may hold them by chance", async () => {
    // `<svg` is four bytes: by chance in ~2 % of 10 MB photos (a test image of noise met it once; decision 101).
    const jpeg = await photoLike(200, 100).jpeg().toBuffer();
    for (const bytes of ['<svgj', '<scripts', '<htmlk', '<embedded', '<objects']) {
      const result = await processThumbnail(await file('chance.jpg', Buffer.concat([jpeg.subarray(0, 2), comSegment(bytes), jpeg.subarray(2)])));
      expect(result.source.format, bytes).toBe('jpg');
    }
  });

  it('nothing of a GIF/JavaScript polyglot survives: it is re-encoded from its pixels', async () => {
    // `GIF89a/*…*/=alert(1);` is valid JavaScript: the logical screen width bytes open a comment.
    const gif = await solid(40, 20, '#884422').gif().toBuffer();
    gif.write('/*', 6, 'latin1');
    const polyglot = Buffer.concat([gif, Buffer.from('*/=alert(1);')]);
    expect(polyglot.subarray(0, gif.length).includes('*/')).toBe(false);

    const result = await processThumbnail(await file('gif-js.gif', polyglot));
    expect(result.source.format).toBe('gif');
    for (const v of result.variants) {
      expect(v.data.includes('alert')).toBe(false);
      expect(v.data.subarray(0, 4).toString('latin1')).not.toBe('GIF8');
    }
  });

  it('a file over the size limit, from a path or a stream, leaving no temporary file', async () => {
    const sparse = path.join(dir, 'huge.jpg');
    const jpeg = await photoLike(100, 100).jpeg().toBuffer();
    await fs.writeFile(sparse, jpeg);
    await fs.truncate(sparse, THUMBNAIL_MAX_INPUT_BYTES + 1);
    await expectRejected(sparse, 'too_large', /larger than 30 MB/);

    // A temporary folder of this test's own: other test files, running at the same time in other
    // processes, spool their thumbnails in the system's.
    const tmp = await fs.mkdtemp(path.join(dir, 'tmp-'));
    vi.stubEnv('TMPDIR', tmp);
    onTestFinished(() => void vi.unstubAllEnvs());
    const spooled = async () => (await fs.readdir(os.tmpdir())).filter((n) => n.startsWith('rv-thumbnail-')).length;
    const chunk = Buffer.alloc(1024 * 1024);
    let sent = 0;
    const endless = new Readable({
      read() {
        sent += chunk.length;
        this.push(sent > 2 * THUMBNAIL_MAX_INPUT_BYTES ? null : chunk);
      },
    });
    await expectRejected(endless, 'too_large', /larger than 30 MB/);
    expect(sent).toBeLessThan(THUMBNAIL_MAX_INPUT_BYTES + 4 * chunk.length);
    expect(os.tmpdir()).toBe(tmp);
    expect(await spooled()).toBe(0);
  });
});

/** A valid PNG claiming side × side pixels (1-bit greyscale, all black): a few hundred KB. */
async function pngBomb(side: number): Promise<Buffer> {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const rowsPerWrite = 500;
  const rows = Buffer.alloc((1 + Math.ceil(side / 8)) * rowsPerWrite);
  const deflate = zlib.createDeflate({ level: 9 });
  const idat: Buffer[] = [];
  deflate.on('data', (c: Buffer) => idat.push(c));
  for (let y = 0; y < side; y += rowsPerWrite) {
    if (!deflate.write(rows)) await once(deflate, 'drain');
  }
  deflate.end();
  await once(deflate, 'end');
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, pngChunk('IHDR', ihdr), pngChunk('IDAT', Buffer.concat(idat)), pngChunk('IEND', Buffer.alloc(0))]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A JPEG comment segment. */
function comSegment(text: string): Buffer {
  const body = Buffer.from(text, 'latin1');
  const header = Buffer.from([0xff, 0xfe, 0, 0]);
  header.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([header, body]);
}

/** A ZIP archive holding one stored (uncompressed) file, as `zip -0` writes it. */
function storedZip(name: string, content: string): Buffer {
  const data = Buffer.from(content);
  const fileName = Buffer.from(name);
  const crc = zlib.crc32(data);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(10, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(10, 4);
  central.writeUInt16LE(10, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(fileName.length, 28);
  const centralOffset = local.length + fileName.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + fileName.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  return Buffer.concat([local, fileName, data, central, fileName, end]);
}
