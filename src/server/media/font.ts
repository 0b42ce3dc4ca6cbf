import fs from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { fileTypeFromBuffer } from 'file-type';
import { type FontScript, scriptsOf } from '../../contract/facts';
import { checkUpload, type DerivedFile, MediaRejectedError, writeDerived } from './derived';

/**
 * A font for the type tester: recognised by its bytes (not its name), parsed by fontkit (the
 * glyph data of a sample text decoded, not only the table directory) inside a worker thread with
 * a heap limit and a time limit, and served as WOFF2: TrueType/OpenType and WOFF are converted
 * (and the WOFF2 read back), a WOFF2 upload is kept as it is. See docs/decisions/144-media-fonts.md.
 */

export const FONT_MAX_BYTES = 20 * 1024 * 1024;
/** A WOFF may unpack to at most this many bytes of tables. */
export const FONT_MAX_SFNT_BYTES = 64 * 1024 * 1024;
export const FONT_TIMEOUT_MS = 30_000;
/** The worker's JavaScript heap (fontkit's tables and glyphs). */
export const FONT_WORKER_HEAP_MB = 256;
export const FONT_NAME_MAX_CHARS = 200;

type FontFormat = 'ttf' | 'otf' | 'woff' | 'woff2';
const FORMATS: Record<string, FontFormat> = { ttf: 'ttf', otf: 'otf', woff: 'woff', woff2: 'woff2' };
const FONT_KINDS = 'a font (TTF, OTF, WOFF or WOFF2)';

export interface FontFacts {
  type: string;
  familyName: string | null;
  subfamilyName: string | null;
  fullName: string | null;
  postscriptName: string | null;
  unitsPerEm: number;
  ascent: number;
  descent: number;
  lineGap: number;
  capHeight: number;
  xHeight: number;
  weight: number | null;
  italic: boolean;
  glyphCount: number;
  characterCount: number;
  /** Every code point the font draws (its cmap). */
  codePoints: number[];
  coversBasicLatin: boolean;
  sampleGlyphs: number;
  outlinedGlyphs: number;
  axes: Record<string, { name: string; min: number; default: number; max: number }>;
}

export interface FontPreview {
  kind: 'font';
  /** What was uploaded, by its bytes. */
  sourceFormat: FontFormat;
  familyName: string;
  subfamilyName: string | null;
  fullName: string | null;
  weight: number | null;
  italic: boolean;
  /** For the type tester's line height and a fallback that keeps the layout (`size-adjust`, `ascent-override`). */
  metrics: { unitsPerEm: number; ascent: number; descent: number; lineGap: number; capHeight: number; xHeight: number };
  glyphCount: number;
  characterCount: number;
  /** The scripts it covers (contract/facts.ts FONT_SCRIPTS), from its characters. */
  scripts?: FontScript[];
  /** Whether A–Z, a–z and 0–9 are drawn (a symbol or CJK font may not): the tester then shows the font's own characters. */
  coversBasicLatin: boolean;
  /** Variable fonts: their axes (`wght`, `wdth`…). */
  axes: FontFacts['axes'];
  file: DerivedFile;
}

// fontkit's own errors are about its internals (“Cannot read properties of undefined”), so a
// damaged font gets one plain sentence; only our own findings are spelled out.
const damaged = (detail?: string) =>
  new MediaRejectedError('invalid_font', `The font could not be read; it may be damaged${detail ? ` (${detail.slice(0, 200)})` : ''}. Export it again and upload that.`);

export async function deriveFontPreview(input: string, outDir: string, options: { signal?: AbortSignal } = {}): Promise<FontPreview> {
  await checkUpload(input, 'a font', FONT_MAX_BYTES);
  const bytes = await fs.readFile(input);
  const format = await sniffFont(bytes);
  if (format === 'woff' || format === 'woff2') checkDeclaredLength(bytes, format);

  const result = await inWorker<DeriveResult>({ task: 'derive', bytes: new Uint8Array(bytes), format, maxSfntBytes: FONT_MAX_SFNT_BYTES }, FONT_TIMEOUT_MS, options.signal);
  if (!result.ok) {
    if (result.stage === 'collection') {
      throw new MediaRejectedError('not_font', 'Font collections (.ttc) are not supported. Upload one font of the collection (TTF, OTF, WOFF or WOFF2).');
    }
    if (result.stage === 'convert') throw damaged('it could not be converted to WOFF2');
    throw damaged();
  }
  const facts = result.facts;
  const familyName = facts.familyName?.trim().slice(0, FONT_NAME_MAX_CHARS);
  if (!familyName) throw new MediaRejectedError('invalid_font', 'The font has no family name, so the type tester could not name it.');
  if (facts.characterCount === 0 || facts.glyphCount < 2) throw new MediaRejectedError('invalid_font', 'The font has no characters.');
  if (facts.unitsPerEm < 16 || facts.unitsPerEm > 16384) throw damaged(`its units per em are ${facts.unitsPerEm}`);
  if (facts.sampleGlyphs > 0 && facts.outlinedGlyphs === 0 && format !== 'woff2') {
    // Every sample glyph empty: a font of blanks (or one whose outlines are in tables fontkit cannot draw).
    throw new MediaRejectedError('invalid_font', 'The font draws nothing: none of its letters has an outline.');
  }

  const data = format === 'woff2' ? bytes : Buffer.from(result.woff2!);
  const file = await writeDerived(outDir, data, 'woff2', 'font/woff2');
  return {
    kind: 'font',
    sourceFormat: format,
    familyName,
    subfamilyName: facts.subfamilyName?.slice(0, FONT_NAME_MAX_CHARS) ?? null,
    fullName: facts.fullName?.slice(0, FONT_NAME_MAX_CHARS) ?? null,
    weight: facts.weight,
    italic: facts.italic,
    metrics: {
      unitsPerEm: facts.unitsPerEm,
      ascent: facts.ascent,
      descent: facts.descent,
      lineGap: facts.lineGap,
      capHeight: facts.capHeight,
      xHeight: facts.xHeight,
    },
    glyphCount: facts.glyphCount,
    characterCount: facts.characterCount,
    scripts: scriptsOf(facts.codePoints),
    coversBasicLatin: facts.coversBasicLatin,
    axes: facts.axes,
    file,
  };
}

async function sniffFont(bytes: Buffer): Promise<FontFormat> {
  const type = await fileTypeFromBuffer(bytes);
  if (type?.ext === 'ttc') {
    throw new MediaRejectedError('not_font', 'Font collections (.ttc) are not supported. Upload one font of the collection (TTF, OTF, WOFF or WOFF2).');
  }
  const format = type ? FORMATS[type.ext] : undefined;
  if (format) return format;
  throw new MediaRejectedError('not_font', type ? `This file is a ${type.ext.toUpperCase()} file, not ${FONT_KINDS}.` : `This file is not ${FONT_KINDS}.`);
}

/** A WOFF or WOFF2 states its own length: a file with more (or fewer) bytes carries something else. */
function checkDeclaredLength(bytes: Buffer, format: 'woff' | 'woff2'): void {
  const declared = bytes.length >= 12 ? bytes.readUInt32BE(8) : -1;
  if (declared !== bytes.length) {
    throw new MediaRejectedError(
      'invalid_font',
      `The ${format.toUpperCase()} file says it is ${declared.toLocaleString('en-US')} bytes long but holds ${bytes.length.toLocaleString('en-US')}; it is damaged or has other data attached.`,
    );
  }
}

/** The card's specimen at its natural size: pixels per em (the card's text-3xl). */
const SPECIMEN_PX_PER_EM = 30;
export const SPECIMEN_TIMEOUT_MS = 10_000;
/** A specimen's SVG may have at most this many bytes (a 200-character title in an intricate font). */
export const SPECIMEN_MAX_BYTES = 512 * 1024;

/**
 * `text` set in the font (`bytes`: the preview's WOFF2) as an SVG of its outlines, up to two
 * centred lines at the card's text size: a card shows a font's title without fetching the font.
 * Null, with why, when it cannot be made (a character the font lacks, a font that does not read,
 * an outline past SPECIMEN_MAX_BYTES); the card then loads the font itself.
 */
export async function renderFontSpecimen(bytes: Buffer, text: string, options: { signal?: AbortSignal } = {}): Promise<{ svg: string } | { svg: null; reason: string }> {
  let result: SpecimenResult;
  try {
    result = await inWorker<SpecimenResult>({ task: 'specimen', bytes: new Uint8Array(bytes), text }, SPECIMEN_TIMEOUT_MS, options.signal);
  } catch (error) {
    if (error instanceof MediaRejectedError) return { svg: null, reason: error.message };
    throw error;
  }
  if (!result.ok) return { svg: null, reason: `${result.stage}: ${result.error}` };
  const [x, y, w, h] = result.viewBox;
  const px = (units: number) => Math.max(1, Math.round((units / result.unitsPerEm) * SPECIMEN_PX_PER_EM));
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${x} ${y} ${w} ${h}" width="${px(w)}" height="${px(h)}"><path fill="#1c1917" d="${result.d}"/></svg>`;
  if (Buffer.byteLength(svg) > SPECIMEN_MAX_BYTES) return { svg: null, reason: `the outline has more than ${SPECIMEN_MAX_BYTES} bytes` };
  return { svg };
}

type WorkerFailure = { ok: false; stage: 'parse' | 'collection' | 'glyphs' | 'convert'; error: string };
type DeriveResult = { ok: true; facts: FontFacts; woff2: Uint8Array | null } | WorkerFailure;
type SpecimenResult = { ok: true; d: string; viewBox: [number, number, number, number]; unitsPerEm: number } | WorkerFailure;

function inWorker<R>(workerData: object, timeoutMs: number, signal?: AbortSignal): Promise<R> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  const worker = new Worker(new URL('./font-worker.mjs', import.meta.url), {
    workerData,
    resourceLimits: { maxOldGenerationSizeMb: FONT_WORKER_HEAP_MB },
    // fontkit warns about odd fonts on the console: not the server's log.
    stdout: true,
    stderr: true,
  });
  worker.stdout.resume();
  worker.stderr.resume();
  return new Promise<R>((resolve, reject) => {
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      settle();
    };
    const timer = setTimeout(
      () => finish(() => reject(new MediaRejectedError('timeout', `Reading the font took longer than ${timeoutMs / 1000} s. Upload a simpler font.`))),
      timeoutMs,
    );
    const onAbort = () => finish(() => reject(signal!.reason));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (result: R) => finish(() => resolve(result)));
    worker.once('error', (error: Error & { code?: string }) =>
      finish(() =>
        reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new MediaRejectedError('too_complex', `Reading the font needed more than ${FONT_WORKER_HEAP_MB} MB of memory. Upload a simpler font.`)
            : damaged(),
        ),
      ),
    );
    worker.once('exit', () => finish(() => reject(damaged())));
  });
}
