import sharp, { type Sharp } from 'sharp';
import { createRng, type Rng } from '../prng';

/**
 * Photos rendered with sharp from generated scenes (skies, hills, water, a skyline, a sun… drawn
 * as SVG, with film grain): the sample photos every LUT preview grades (modules/media/lut-samples.ts),
 * and pairs each "graded" the way a photo preset would, the demo's before/after previews.
 */

export const PHOTO_WIDTH = 1200;
export const PHOTO_HEIGHT = 800;
export const PHOTO_QUALITY = 85;

interface Palette {
  skyTop: string;
  skyBottom: string;
  sun: string;
  far: string;
  near: string;
  water?: string;
}

const PALETTES: Palette[] = [
  { skyTop: '#2b5f9e', skyBottom: '#f3c98b', sun: '#fff1c1', far: '#5a6f8c', near: '#2f4a36', water: '#3d6f94' },
  { skyTop: '#0d1b3d', skyBottom: '#e0744a', sun: '#ffd27a', far: '#4b3a5c', near: '#1e1a2b', water: '#5a3b4f' },
  { skyTop: '#87c1e8', skyBottom: '#e8f2f7', sun: '#ffffff', far: '#8aa4b5', near: '#4f7a3a' },
  { skyTop: '#f29e6d', skyBottom: '#fde2b0', sun: '#fff8e0', far: '#c98b5e', near: '#8c5a3c' },
  { skyTop: '#1b2a49', skyBottom: '#4f6d8f', sun: '#e8eef5', far: '#2f3e57', near: '#141c2b', water: '#22324a' },
  { skyTop: '#5fa8d3', skyBottom: '#cae9ff', sun: '#fffbe6', far: '#6c8f7d', near: '#355e3b', water: '#4a90a4' },
];

function mountains(rng: Rng, base: number, height: number, color: string, opacity: number): string {
  const points: string[] = [`0,${PHOTO_HEIGHT}`];
  let y = base - rng.next() * height;
  for (let x = 0; x <= PHOTO_WIDTH; x += 40) {
    y = Math.min(base, Math.max(base - height, y + (rng.next() - 0.5) * height * 0.35));
    points.push(`${x},${y.toFixed(1)}`);
  }
  points.push(`${PHOTO_WIDTH},${PHOTO_HEIGHT}`);
  return `<polygon points="${points.join(' ')}" fill="${color}" opacity="${opacity}"/>`;
}

function skyline(rng: Rng, base: number, color: string): string {
  let out = '';
  for (let x = 0; x < PHOTO_WIDTH; ) {
    const w = 30 + rng.int(0, 60);
    const h = 60 + rng.int(0, 260);
    out += `<rect x="${x}" y="${base - h}" width="${w}" height="${h + PHOTO_HEIGHT - base}" fill="${color}"/>`;
    for (let wy = base - h + 12; wy < base - 10; wy += 22) {
      for (let wx = x + 6; wx < x + w - 8; wx += 14) if (rng.chance(0.35)) out += `<rect x="${wx}" y="${wy}" width="6" height="9" fill="#ffd98a" opacity="0.85"/>`;
    }
    x += w + rng.int(0, 6);
  }
  return out;
}

function sceneSvg(index: number): string {
  const rng = createRng(1000 + index);
  const p = PALETTES[index % PALETTES.length];
  const horizon = PHOTO_HEIGHT * (0.55 + rng.next() * 0.12);
  const sunX = PHOTO_WIDTH * (0.2 + rng.next() * 0.6);
  const sunY = horizon * (0.35 + rng.next() * 0.4);
  let body = `<rect width="100%" height="100%" fill="url(#sky)"/><circle cx="${sunX}" cy="${sunY}" r="${50 + rng.int(0, 40)}" fill="${p.sun}" opacity="0.9"/>`;
  body += `<circle cx="${sunX}" cy="${sunY}" r="180" fill="url(#glow)"/>`;
  if (index % 4 === 3) {
    body += mountains(rng, horizon, 60, p.far, 0.7) + skyline(rng, horizon + 40, p.near);
  } else {
    body += mountains(rng, horizon - 20, 220, p.far, 0.75) + mountains(rng, horizon + 30, 160, p.near, 1);
  }
  if (p.water && index % 2 === 0) {
    body += `<rect y="${horizon + 60}" width="100%" height="${PHOTO_HEIGHT}" fill="${p.water}" opacity="0.9"/>`;
    body += `<ellipse cx="${sunX}" cy="${horizon + 120}" rx="40" ry="140" fill="${p.sun}" opacity="0.25"/>`;
  }
  for (let i = 0; i < 6; i++) {
    const x = rng.int(0, PHOTO_WIDTH);
    body += `<ellipse cx="${x}" cy="${rng.int(40, Math.round(horizon * 0.5))}" rx="${rng.int(60, 160)}" ry="${rng.int(12, 30)}" fill="#ffffff" opacity="${(0.15 + rng.next() * 0.3).toFixed(2)}"/>`;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${PHOTO_WIDTH}" height="${PHOTO_HEIGHT}">
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${p.skyTop}"/><stop offset="0.75" stop-color="${p.skyBottom}"/></linearGradient>
    <radialGradient id="glow"><stop offset="0" stop-color="${p.sun}" stop-opacity="0.6"/><stop offset="1" stop-color="${p.sun}" stop-opacity="0"/></radialGradient>
  </defs>${body}</svg>`;
}

/** How each pair's "after" is graded: the look of a photo preset. */
export const PRESET_LOOKS: { name: string; apply: (image: Sharp) => Sharp }[] = [
  { name: 'Moody', apply: (i) => i.modulate({ brightness: 0.85, saturation: 0.75 }).linear(1.15, -18).recomb([[0.95, 0.05, 0], [0, 1, 0.05], [0, 0.08, 1.02]]) },
  { name: 'Airy', apply: (i) => i.modulate({ brightness: 1.12, saturation: 0.85 }).linear(0.85, 38) },
  { name: 'Golden Hour', apply: (i) => i.recomb([[1.1, 0.08, 0], [0.02, 1.0, 0], [0, 0, 0.82]]).modulate({ saturation: 1.1 }) },
  { name: 'Black and White', apply: (i) => i.greyscale().linear(1.25, -30) },
  { name: 'Matte', apply: (i) => i.linear(0.82, 30).modulate({ saturation: 0.8 }) },
  { name: 'Vivid', apply: (i) => i.modulate({ saturation: 1.45 }).linear(1.1, -10) },
  { name: 'Cool Film', apply: (i) => i.recomb([[0.9, 0.05, 0.05], [0, 1.0, 0.05], [0, 0.1, 1.1]]).linear(0.9, 18) },
  { name: 'Sepia', apply: (i) => i.recomb([[0.393, 0.769, 0.189], [0.349, 0.686, 0.168], [0.272, 0.534, 0.131]]) },
  { name: 'Faded', apply: (i) => i.linear(0.75, 45).modulate({ saturation: 0.6 }) },
  { name: 'Punchy', apply: (i) => i.linear(1.3, -35).modulate({ saturation: 1.2 }) },
  { name: 'Teal Shadows', apply: (i) => i.recomb([[0.92, 0.08, 0], [0, 1.02, 0.06], [0, 0.12, 1.05]]).linear(1.1, -8) },
  { name: 'Soft Pastel', apply: (i) => i.modulate({ brightness: 1.08, saturation: 0.7, hue: 8 }).linear(0.88, 28) },
];

/** Film grain, made once and laid over every scene. */
let grain: Promise<Buffer> | undefined;
const GRAIN_SIGMA = 24;

/** A scene as RGB pixels with film grain. */
async function scenePixels(index: number): Promise<{ data: Buffer; info: { width: number; height: number; channels: 3 } }> {
  const info = { width: PHOTO_WIDTH, height: PHOTO_HEIGHT, channels: 3 as const };
  grain ??= sharp({ create: { ...info, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: GRAIN_SIGMA } } }).raw().toBuffer();
  const { data } = await sharp(Buffer.from(sceneSvg(index)))
    .composite([{ input: await grain, raw: info, blend: 'soft-light' }])
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, info };
}

export interface PhotoPair {
  name: string;
  before: Buffer;
  after: Buffer;
}

export async function renderPhotoPairs(): Promise<PhotoPair[]> {
  return Promise.all(
    PRESET_LOOKS.map(async (look, i) => {
      const { data, info } = await scenePixels(i);
      const raw = () => sharp(data, { raw: info });
      const [before, after] = await Promise.all([
        raw().jpeg({ quality: PHOTO_QUALITY }).toBuffer(),
        look.apply(raw()).jpeg({ quality: PHOTO_QUALITY }).toBuffer(),
      ]);
      return { name: look.name, before, after };
    }),
  );
}

/** The photos a LUT preview lets the visitor grade (ungraded scenes of different light). */
export async function renderSamplePhotos(count = 3): Promise<Buffer[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const { data, info } = await scenePixels(100 + i);
      return sharp(data, { raw: info }).jpeg({ quality: PHOTO_QUALITY }).toBuffer();
    }),
  );
}
