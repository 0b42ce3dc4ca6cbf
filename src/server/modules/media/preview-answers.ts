import type { JobState } from '../../jobs/queries';
import {
  PREVIEW_UPLOAD_ANOTHER,
  type PendingPreview,
  PREVIEW_KINDS,
  type PreviewImage,
  type PreviewKind,
  type Preview,
  type ReadyPreview,
} from '../../../contract/previews';
import type { AudioPreview } from '../../media/audio';
import type { DerivedFile } from '../../media/derived';
import type { FontPreview } from '../../media/font';
import type { ImagePairPreview, PairImage } from '../../media/image-pair';
import type { LutPreview } from '../../media/lut';
import type { VideoPreview } from '../../media/video';
import type { StoredSample } from './lut-samples';
import { mediaUrl } from '../../../contract/files';
import { orientationOf, type ResourceFacts } from '../../../contract/facts';
import { specimenUrl } from './specimens';

/**
 * A preview job's stored result (previews.ts: the derivation's metadata, each file by its store
 * key) as the API shows it (src/contract/previews.ts): each file by its URL, only what the client
 * uses. A result that cannot be read (an older shape) shows as no preview, never as an error.
 */

/** A derivation's output with each file stored: its path gone, its key in its place. */
type Stored<T> = T extends DerivedFile ? Omit<T, 'path'> & { key: string } : T extends (infer U)[] ? Stored<U>[] : T extends object ? { [K in keyof T]: Stored<T[K]> } : T;

export type StoredPreview =
  | Stored<VideoPreview>
  | Stored<AudioPreview>
  | (Stored<LutPreview> & { samples: StoredSample[] })
  | Stored<ImagePairPreview>
  | Stored<FontPreview>;

const url = (file: { fileName: string }) => mediaUrl(file.fileName);

const image = (i: Stored<PairImage>): PreviewImage => ({
  width: i.width,
  height: i.height,
  variants: i.variants.map((v) => ({ url: url(v), width: v.width, height: v.height, format: v.format })),
  placeholder: i.placeholder,
});

/** The resource a preview is shown on: a font's specimen sets its title. */
export interface PreviewOwner {
  id: number;
  title: string;
}

function answer(p: StoredPreview, owner: PreviewOwner): ReadyPreview {
  const status = 'ready' as const;
  switch (p.kind) {
    case 'video': {
      const { preview: v, storyboard: s } = p;
      return {
        kind: 'video',
        status,
        duration: p.duration,
        width: p.width,
        height: p.height,
        video: { url: url(v), width: v.width, height: v.height, duration: v.duration, bytes: v.bytes },
        poster: image({ width: p.width, height: p.height, ...p.poster }),
        storyboard: { url: url(s), columns: s.columns, rows: s.rows, frames: s.frames, frameWidth: s.frameWidth, frameHeight: s.frameHeight, interval: s.interval },
      };
    }
    case 'audio':
      return {
        kind: 'audio',
        status,
        duration: p.duration,
        audio: { url: url(p.preview), duration: p.preview.duration, bytes: p.preview.bytes },
        peaks: p.peaks.map((v) => Math.round(Math.min(1, Math.max(0, v)) * 100)),
      };
    case 'lut':
      return {
        kind: 'lut',
        status,
        title: p.title ?? null,
        source: p.source,
        table: { url: url(p.table), size: p.table.size, format: 'rgb8', bytes: p.table.bytes },
        samples: p.samples.map((s) => ({ url: url(s), width: s.width, height: s.height, alt: s.alt })),
      };
    case 'image-pair':
      return { kind: 'image-pair', status, before: image(p.before), after: image(p.after) };
    case 'font':
      return {
        kind: 'font',
        status,
        family: p.familyName,
        fullName: p.fullName,
        weight: p.weight,
        italic: p.italic,
        file: { url: url(p.file), format: 'woff2', bytes: p.file.bytes },
        specimen: { url: specimenUrl(owner.id, p.file.key, owner.title) },
        coversBasicLatin: p.coversBasicLatin,
        metrics: p.metrics,
        axes: p.axes,
      };
  }
}

/** The stored JSON of a ready preview (resources.preview) as the API shows it; null for none or an unreadable one. */
export function readyPreview(json: string | null, owner: PreviewOwner): ReadyPreview | null {
  if (json === null) return null;
  try {
    const stored = JSON.parse(json) as StoredPreview;
    return PREVIEW_KINDS.includes(stored.kind) ? answer(stored, owner) : null;
  } catch {
    return null;
  }
}

const FORMAT_TYPES: Record<string, { video: string; audio: string }> = {
  mov: { video: 'video/mp4', audio: 'audio/mp4' },
  matroska: { video: 'video/x-matroska', audio: 'audio/x-matroska' },
  avi: { video: 'video/x-msvideo', audio: 'audio/x-msvideo' },
  mpegts: { video: 'video/mp2t', audio: 'audio/mp2t' },
  wav: { video: 'audio/wav', audio: 'audio/wav' },
  mp3: { video: 'audio/mpeg', audio: 'audio/mpeg' },
  flac: { video: 'audio/flac', audio: 'audio/flac' },
  ogg: { video: 'video/ogg', audio: 'audio/ogg' },
  aiff: { video: 'audio/aiff', audio: 'audio/aiff' },
};

/** ffprobe's container name (`mov,mp4,m4a,3gp,3g2,mj2`) as a MIME type, for schema.org's encodingFormat. */
function encodingFormat(formatName: string | null | undefined, kind: 'video' | 'audio'): string | null {
  const first = formatName?.split(',')[0];
  return (first && FORMAT_TYPES[first]?.[kind]) ?? null;
}

const finite = (n: unknown): number | null => (typeof n === 'number' && Number.isFinite(n) ? n : null);

function facts(p: StoredPreview): ResourceFacts {
  switch (p.kind) {
    case 'video':
      return {
        kind: 'video',
        duration: p.duration,
        width: p.width,
        height: p.height,
        orientation: orientationOf(p.width, p.height),
        frame_rate: finite(p.frameRate) || null,
        has_sound: typeof p.hasSound === 'boolean' ? p.hasSound : null,
        encoding_format: encodingFormat(p.formatName, 'video'),
      };
    case 'audio':
      return {
        kind: 'audio',
        duration: p.duration,
        channels: finite(p.channels) || null,
        sample_rate: finite(p.sampleRate) || null,
        loudness_lufs: finite(p.loudness?.measuredLufs),
        encoding_format: encodingFormat(p.formatName, 'audio'),
      };
    case 'font': {
      const wght = p.axes?.wght;
      return {
        kind: 'font',
        family: p.familyName,
        styles: [p.subfamilyName ?? (p.italic ? 'Italic' : 'Regular')],
        weights: wght ? [wght.min, wght.max] : p.weight === null ? [] : [p.weight],
        glyph_count: finite(p.glyphCount),
        scripts: Array.isArray(p.scripts) ? p.scripts : null,
        axes: p.axes ?? {},
      };
    }
    case 'lut':
      return { kind: 'lut', type: p.source.type, grid_size: p.source.size };
    case 'image-pair':
      return { kind: 'image-pair', width: p.before.width, height: p.before.height, orientation: orientationOf(p.before.width, p.before.height) };
  }
}

/** The facts a stored preview (resources.preview) records of its file; null for none or an unreadable one. */
export function previewFacts(json: string | null): ResourceFacts | null {
  if (json === null) return null;
  try {
    const stored = JSON.parse(json) as StoredPreview;
    return PREVIEW_KINDS.includes(stored.kind) ? facts(stored) : null;
  } catch {
    return null;
  }
}

/** The preview kind a job of `jobKind` makes (`preview.video` → `video`), or undefined for another job. */
export function previewKindOfJob(jobKind: string): PreviewKind | undefined {
  const kind = jobKind.startsWith('preview.') ? jobKind.slice('preview.'.length) : '';
  return (PREVIEW_KINDS as readonly string[]).includes(kind) ? (kind as PreviewKind) : undefined;
}

export interface PreviewJobState {
  kind: string;
  state: JobState;
  error: string | null;
  /** 1: it failed on its file (migration 024). */
  input_refused: number;
}

/**
 * What an admin sees: the job's state while it is not ready (with its reason), the ready preview
 * once it is. `job` is the resource's current preview job (null: none).
 */
export function adminPreview(readyJson: string | null, owner: PreviewOwner, job: PreviewJobState | undefined): Preview | null {
  const ready = readyPreview(readyJson, owner);
  if (!job || job.state === 'ready') return ready;
  const kind = previewKindOfJob(job.kind);
  if (!kind) return ready;
  const pending: PendingPreview = { kind, status: job.state };
  if (job.error) pending.reason = job.error;
  if (job.state === 'failed') {
    // A file that is not of the kind (or damaged) fails the same way again: say what helps instead (decision 371).
    pending.can_retry = job.input_refused !== 1;
    if (!pending.can_retry) pending.reason = `${pending.reason ?? 'The preview could not be made from this file.'} ${PREVIEW_UPLOAD_ANOTHER}`;
  }
  return pending;
}
