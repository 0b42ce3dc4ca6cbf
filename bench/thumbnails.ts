/**
 * `npx tsx bench/thumbnails.ts`: time and memory of the thumbnail pipeline on generated photos
 * (2, 12 and 48 megapixels) and a 50,000 × 50,000 PNG bomb, beside the floor for the same input:
 * sharp decoding it once and writing one 1600 px WebP. Each case runs in its own process, so the
 * peak RSS it prints is that case's alone.
 */
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { ImageRejectedError, processThumbnail } from '../src/server/media/images';

const CASES = [
  { name: '2 MP JPEG', width: 1920, height: 1080 },
  { name: '12 MP JPEG', width: 4000, height: 3000 },
  { name: '48 MP JPEG', width: 8000, height: 6000 },
] as const;

async function photo(file: string, width: number, height: number) {
  const svg = `<svg width="${width}" height="${height}"><defs><linearGradient id="g"><stop offset="0" stop-color="#e33"/><stop offset="1" stop-color="#33e"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)" opacity="0.7"/><circle cx="${width / 2}" cy="${height / 2}" r="${height / 3}" fill="#fc3" opacity="0.8"/></svg>`;
  await sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 20 } } })
    .composite([{ input: Buffer.from(svg) }])
    .jpeg({ quality: 90 })
    .toFile(file);
}

async function bomb(file: string, side: number) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 1;
  const rows = Buffer.alloc((1 + Math.ceil(side / 8)) * 500);
  const deflate = zlib.createDeflate({ level: 9 });
  const idat: Buffer[] = [];
  deflate.on('data', (c: Buffer) => idat.push(c));
  for (let y = 0; y < side; y += 500) if (!deflate.write(rows)) await once(deflate, 'drain');
  deflate.end();
  await once(deflate, 'end');
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([head, body, crc]);
  };
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  await fs.writeFile(file, Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', Buffer.concat(idat)), chunk('IEND', Buffer.alloc(0))]));
}

/** Child: run one case, print `{ ms, peakRssMb, baseRssMb, outcome }`. */
async function child(mode: 'pipeline' | 'floor', file: string) {
  await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } }).webp().toBuffer(); // load libvips first
  const base = process.memoryUsage().rss;
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const start = performance.now();
  let outcome: string;
  try {
    if (mode === 'pipeline') {
      const result = await processThumbnail(file);
      outcome = `${result.variants.length} variants, ${result.variants.reduce((n, v) => n + v.data.length, 0)} bytes`;
    } else {
      const out = await sharp(file, { failOn: 'error', autoOrient: true, limitInputPixels: false })
        .resize({ width: 1600, height: 1600, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 80 })
        .toBuffer();
      outcome = `1 webp, ${out.length} bytes`;
    }
  } catch (err) {
    outcome = err instanceof ImageRejectedError ? `refused: ${err.reason}` : `error: ${(err as Error).message}`;
  }
  const ms = performance.now() - start;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  process.stdout.write(JSON.stringify({ ms, peakRssMb: (peak - base) / 1e6, outcome }));
}

async function main() {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rv-bench-thumbnails-'));
  try {
    const inputs: { name: string; file: string; floor: boolean }[] = [];
    for (const c of CASES) {
      const file = path.join(dir, `${c.width}x${c.height}.jpg`);
      await photo(file, c.width, c.height);
      inputs.push({ name: c.name, file, floor: true });
    }
    const bombFile = path.join(dir, 'bomb.png');
    await bomb(bombFile, 50_000);
    // The floor on the bomb would decode 2.5 gigapixels: it is the cost the pixel limit avoids.
    inputs.push({ name: '50k × 50k PNG bomb', file: bombFile, floor: false });

    const run = (mode: string, file: string) =>
      JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', import.meta.filename, mode, file], { encoding: 'utf8' })) as {
        ms: number;
        peakRssMb: number;
        outcome: string;
      };
    console.log('| input | bytes | pipeline ms | pipeline peak RSS +MB | outcome | floor ms (decode + one 1600 px WebP) | floor peak RSS +MB |');
    console.log('| --- | ---: | ---: | ---: | --- | ---: | ---: |');
    for (const input of inputs) {
      const bytes = (await fs.stat(input.file)).size;
      const ours = run('pipeline', input.file);
      const floor = input.floor ? run('floor', input.file) : null;
      console.log(
        `| ${input.name} | ${bytes} | ${ours.ms.toFixed(0)} | ${ours.peakRssMb.toFixed(0)} | ${ours.outcome} | ${floor ? floor.ms.toFixed(0) : '—'} | ${floor ? floor.peakRssMb.toFixed(0) : '—'} |`,
      );
    }
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

const [mode, file] = process.argv.slice(2);
if (mode === 'pipeline' || mode === 'floor') await child(mode, file);
else await main();
