/**
 * What a generated resource's files are (generate-resources.ts): by its category, a share of the
 * resources has a ready preview (a video's or a sound's stored result, as a preview job writes it)
 * and a hosted ZIP download listed by extension (as the files.list job writes it); the rest has
 * neither, like resources whose download is a link. Deterministic per id. The preview's files do
 * not exist: the pages and lists show them, nothing serves them.
 */
import type { Insertable } from 'kysely';
import type { FilesTable } from '../src/server/db/schema';
import { mediaKey } from '../src/server/storage/keys';

/** A number in [0, 1) from an id and a salt (a small integer hash: the same every run). */
function unit(id: number, salt: number): number {
  let h = (id * 2654435761 + salt * 40503) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 2246822507) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 3266489909) >>> 0;
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

const pick = <T>(id: number, salt: number, items: readonly T[]): T => items[Math.floor(unit(id, salt) * items.length)];

/** Shares and contents by category: the chance of a video / sound preview, of a listed ZIP, and the extensions a ZIP may hold. */
const PROFILES: Record<string, { video: number; audio: number; zip: number; extensions: string[] }> = {
  video_editing: { video: 0.6, audio: 0, zip: 0.6, extensions: ['prproj', 'mogrt', 'drp', 'drfx', 'mp4', 'mov', 'txt', 'pdf'] },
  motion_graphics: { video: 0.6, audio: 0, zip: 0.6, extensions: ['aep', 'aet', 'ffx', 'mogrt', 'motn', 'mp4', 'txt'] },
  anime_edits: { video: 0.7, audio: 0, zip: 0.5, extensions: ['aep', 'prproj', 'mp4', 'png', 'txt'] },
  sound_effects: { video: 0, audio: 0.7, zip: 0.4, extensions: ['wav', 'mp3', 'aif', 'txt'] },
  color_grading: { video: 0, audio: 0, zip: 0.7, extensions: ['cube', '3dl', 'xmp', 'drx', 'txt'] },
  photo_editing: { video: 0, audio: 0, zip: 0.6, extensions: ['xmp', 'lrtemplate', 'atn', 'abr', 'asl', 'pat', 'psd', 'jpg'] },
  typography: { video: 0, audio: 0, zip: 0.8, extensions: ['otf', 'ttf', 'woff2', 'txt', 'pdf'] },
  premium_resources: { video: 0.4, audio: 0.1, zip: 0.6, extensions: ['aep', 'prproj', 'cube', 'mogrt', 'drfx', 'otf', 'mp4', 'wav', 'txt'] },
};

/** Video sizes as sources come: mostly landscape HD, some 4K, portrait and square. */
const SIZES = [
  [1920, 1080], [1920, 1080], [1920, 1080], [1280, 720], [3840, 2160], [3840, 2160], [1080, 1920], [1080, 1920], [1080, 1080], [2560, 1440],
] as const;

const stored = (id: number, name: string, contentType: string) => {
  const fileName = `${id.toString(16).padStart(32, '0')}${name}`;
  return { fileName, key: mediaKey(fileName), contentType, bytes: 50_000 };
};
const placeholder = { color: '#303040', dataUri: 'data:image/webp;base64,AAAA' };

function videoPreview(id: number): string {
  const [width, height] = pick(id, 3, SIZES);
  // Durations from a few seconds to ten minutes, most of them short.
  const duration = Math.round(3 + unit(id, 4) ** 2.5 * 600 * 100) / 100;
  const pw = width >= height ? 1280 : 720;
  const ph = Math.round((pw * height) / width);
  return JSON.stringify({
    kind: 'video',
    width,
    height,
    duration,
    frameRate: pick(id, 5, [24, 25, 29.97, 30, 60]),
    hasSound: unit(id, 6) < 0.5,
    formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
    preview: { ...stored(id, '.mp4', 'video/mp4'), width: pw, height: ph, duration: Math.min(duration, 15) },
    poster: { at: 1, variants: [{ ...stored(id, 'p.webp', 'image/webp'), width: 320, height: Math.round((320 * ph) / pw), format: 'webp' }], placeholder },
    storyboard: { ...stored(id, 's.webp', 'image/webp'), columns: 10, rows: 1, frames: 10, frameWidth: 160, frameHeight: Math.round((160 * ph) / pw), interval: 0.8 },
  });
}

function audioPreview(id: number): string {
  const duration = Math.round((0.5 + unit(id, 7) ** 2 * 300) * 100) / 100;
  return JSON.stringify({
    kind: 'audio',
    duration,
    sampleRate: 48000,
    channels: 2,
    formatName: 'wav',
    preview: { ...stored(id, '.m4a', 'audio/mp4'), duration: Math.min(duration, 30) },
    peaks: [0.1, 0.4, 0.8, 0.5, 0.2],
    loudness: { measuredLufs: -18, truePeakDb: -1, gainDb: 2 },
  });
}

function listedZip(id: number, extensions: string[], created: string): Insertable<FilesTable> {
  const counts: Record<string, number> = {};
  const kinds = 1 + Math.floor(unit(id, 8) * 3);
  for (let k = 0; k < kinds; k++) counts[pick(id, 9 + k, extensions)] = 1 + Math.floor(unit(id, 20 + k) * 12);
  const count = Object.values(counts).reduce((a, b) => a + b, 0);
  return {
    key: `uploads/${id.toString(16).padStart(32, '0')}`,
    kind: 'download',
    name: `pack-${id}.zip`,
    size: 1_000_000 + Math.floor(unit(id, 10) * 50_000_000),
    sha256: id.toString(16).padStart(64, '0'),
    content_type: 'application/zip',
    image: null,
    created_at: created,
    detached_at: null,
    listing_status: 'listed',
    listing_reason: null,
    listing_count: count,
    listing_total: count * 2_000_000,
    listing_extensions: JSON.stringify(counts),
  };
}

/** The generated preview (stored JSON) and hosted download (files row) of resource `id` of `category`, or none. */
export function generatedFacts(category: string, id: number, now: Date): { preview: string | null; file: Insertable<FilesTable> | null } {
  const p = PROFILES[category];
  if (!p) return { preview: null, file: null };
  const r = unit(id, 1);
  const preview = r < p.video ? videoPreview(id) : r < p.video + p.audio ? audioPreview(id) : null;
  const file = unit(id, 2) < p.zip ? listedZip(id, p.extensions, now.toISOString()) : null;
  return { preview, file };
}
