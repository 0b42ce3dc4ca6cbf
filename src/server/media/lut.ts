import fs from 'node:fs/promises';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { checkUpload, type DerivedFile, MediaRejectedError, writeDerived } from './derived';

/**
 * `.cube` LUTs (Adobe's Cube LUT specification 1.0, with Resolve's `LUT_*_INPUT_RANGE`): parsed
 * and checked strictly, then turned into the one form the browser needs — a 3D table of 8-bit RGB
 * over the domain 0–1, red changing fastest, ready for a WebGL2 RGB8 3D texture (or a canvas
 * fallback). A 1D LUT becomes the 3D table it is equivalent to. See
 * docs/decisions/143-media-lut-form.md.
 */

export const LUT_MAX_BYTES = 16 * 1024 * 1024;
export const LUT_3D_MAX_SIZE = 65;
export const LUT_1D_MAX_SIZE = 65_536;
/** The browser's table has at most this many points a side; a larger 3D LUT is resampled to it. */
export const LUT_OUTPUT_MAX_SIZE = 33;
/** A 1D LUT becomes a 3D table of this size. */
export const LUT_1D_OUTPUT_SIZE = 33;
export const LUT_TITLE_MAX_CHARS = 200;
/** Lines parsed between two yields to the event loop (a 65³ LUT has 274,625). */
const LINES_PER_SLICE = 5_000;

export interface CubeLut {
  title?: string;
  type: '1D' | '3D';
  size: number;
  domainMin: [number, number, number];
  domainMax: [number, number, number];
  /** size (1D) or size³ (3D) RGB triplets, red fastest. */
  table: Float32Array;
}

export interface LutPreview {
  kind: 'lut';
  title?: string;
  /** What the file held. */
  source: { type: '1D' | '3D'; size: number };
  /** The browser's table: `size`³ RGB8 triplets over 0–1, red fastest, then green, then blue. */
  table: DerivedFile & { format: 'rgb8'; size: number };
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const KEYWORD = /^[A-Z][A-Z0-9_]*$/;

const invalid = (message: string) => new MediaRejectedError('invalid_lut', message);
const count = (n: number) => n.toLocaleString('en-US');

/** Parses `.cube` text; throws MediaRejectedError naming the line of the first problem. */
export async function parseCube(text: string): Promise<CubeLut> {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  let title: string | undefined;
  let type: '1D' | '3D' | undefined;
  let size = 0;
  const domainMin: [number, number, number] = [0, 0, 0];
  const domainMax: [number, number, number] = [1, 1, 1];
  let table: Float32Array | undefined;
  let entries = 0;

  const triplet = (parts: string[], lineNo: number, what: string): [number, number, number] => {
    if (parts.length !== 3) throw invalid(`Line ${lineNo}: ${what} needs three numbers (red, green, blue); found ${parts.length}.`);
    return parts.map((p) => {
      if (!NUMBER.test(p)) throw invalid(`Line ${lineNo}: “${p.slice(0, 20)}” is not a number.`);
      const v = Number(p);
      if (!Number.isFinite(v)) throw invalid(`Line ${lineNo}: ${p.slice(0, 20)} is not a finite number.`);
      return v;
    }) as [number, number, number];
  };

  for (let i = 0; i < lines.length; i++) {
    if (i > 0 && i % LINES_PER_SLICE === 0) await yieldToEventLoop();
    const line = lines[i].trim();
    if (line === '' || line.startsWith('#')) continue;
    const lineNo = i + 1;
    const parts = line.split(/\s+/);
    const head = parts[0];

    if (table) {
      if (KEYWORD.test(head)) throw invalid(`Line ${lineNo}: ${head.slice(0, 30)} must come before the table’s values.`);
      if (entries === table.length / 3) throw invalid(`The table has more than the ${count(entries)} entries its size calls for (line ${lineNo}).`);
      const [r, g, b] = triplet(parts, lineNo, 'Each table line');
      table[entries * 3] = r;
      table[entries * 3 + 1] = g;
      table[entries * 3 + 2] = b;
      entries++;
      continue;
    }

    switch (head) {
      case 'TITLE': {
        const match = /^TITLE\s+"(.*)"\s*$/.exec(line);
        if (!match) throw invalid(`Line ${lineNo}: TITLE needs a quoted text.`);
        title = match[1].slice(0, LUT_TITLE_MAX_CHARS);
        break;
      }
      case 'LUT_1D_SIZE':
      case 'LUT_3D_SIZE': {
        const kind = head === 'LUT_1D_SIZE' ? '1D' : '3D';
        if (type) throw invalid(`Line ${lineNo}: the file already has a ${type} size; a LUT with both a 1D and a 3D table is not supported.`);
        const max = kind === '1D' ? LUT_1D_MAX_SIZE : LUT_3D_MAX_SIZE;
        if (parts.length !== 2 || !/^\d+$/.test(parts[1])) throw invalid(`Line ${lineNo}: ${head} needs one whole number.`);
        size = Number(parts[1]);
        if (size < 2 || size > max) throw invalid(`${head} is ${parts[1].slice(0, 12)}; it must be 2 to ${count(max)}.`);
        type = kind;
        break;
      }
      case 'DOMAIN_MIN':
      case 'DOMAIN_MAX': {
        const values = triplet(parts.slice(1), lineNo, head);
        (head === 'DOMAIN_MIN' ? domainMin : domainMax).splice(0, 3, ...values);
        break;
      }
      case 'LUT_1D_INPUT_RANGE':
      case 'LUT_3D_INPUT_RANGE': {
        if (parts.length !== 3) throw invalid(`Line ${lineNo}: ${head} needs two numbers (minimum, maximum).`);
        const [min, , max] = triplet([parts[1], parts[1], parts[2]], lineNo, head);
        domainMin.fill(min);
        domainMax.fill(max);
        break;
      }
      default: {
        if (KEYWORD.test(head)) break; // another application's keyword (LUT_IN_VIDEO_RANGE…): no effect on the table
        if (!type) throw invalid(`Line ${lineNo}: the table starts before LUT_1D_SIZE or LUT_3D_SIZE says its size.`);
        table = new Float32Array((type === '3D' ? size ** 3 : size) * 3);
        i--; // read this line as the table's first
      }
    }
  }

  if (!type) throw invalid('The file has no LUT_1D_SIZE or LUT_3D_SIZE line, so it is not a .cube LUT.');
  const expected = type === '3D' ? size ** 3 : size;
  if (entries !== expected) {
    throw invalid(`The table has ${count(entries)} entries; LUT_${type}_SIZE ${size} needs exactly ${count(expected)}. The file may be cut off.`);
  }
  for (let c = 0; c < 3; c++) {
    if (!(domainMin[c] < domainMax[c])) throw invalid('DOMAIN_MIN must be below DOMAIN_MAX for each of red, green and blue.');
  }
  return { title, type, size, domainMin, domainMax, table: table! };
}

/** Reads and checks a `.cube` file; refuses what is not text before parsing it. */
export async function readCube(file: string): Promise<CubeLut> {
  await checkUpload(file, 'a .cube LUT', LUT_MAX_BYTES);
  const bytes = await fs.readFile(file);
  // Text has no control characters but tab, line feed and carriage return (and no NUL).
  for (const b of bytes) {
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) {
      throw new MediaRejectedError('not_lut', 'This file is not a .cube LUT: it holds binary data, not text.');
    }
  }
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  return parseCube(text);
}

/** The LUT applied to one colour (inputs in the LUT's domain), by trilinear (3D) or linear (1D) interpolation. */
export function sampleLut(lut: CubeLut, r: number, g: number, b: number): [number, number, number] {
  const n = lut.size;
  const pos = (v: number, c: number) => {
    const t = (v - lut.domainMin[c]) / (lut.domainMax[c] - lut.domainMin[c]);
    return Math.min(n - 1, Math.max(0, t * (n - 1)));
  };
  const t = lut.table;
  if (lut.type === '1D') {
    return [r, g, b].map((v, c) => {
      const x = pos(v, c);
      const i = Math.min(n - 2, Math.floor(x));
      const f = x - i;
      return t[i * 3 + c] * (1 - f) + t[(i + 1) * 3 + c] * f;
    }) as [number, number, number];
  }
  const [x, y, z] = [pos(r, 0), pos(g, 1), pos(b, 2)];
  const [i, j, k] = [x, y, z].map((v) => Math.min(n - 2, Math.floor(v)));
  const [fx, fy, fz] = [x - i, y - j, z - k];
  const out: [number, number, number] = [0, 0, 0];
  for (let c = 0; c < 3; c++) {
    const at = (a: number, bb: number, cc: number) => t[((i + a + (j + bb) * n + (k + cc) * n * n) * 3) + c];
    const c00 = at(0, 0, 0) * (1 - fx) + at(1, 0, 0) * fx;
    const c10 = at(0, 1, 0) * (1 - fx) + at(1, 1, 0) * fx;
    const c01 = at(0, 0, 1) * (1 - fx) + at(1, 0, 1) * fx;
    const c11 = at(0, 1, 1) * (1 - fx) + at(1, 1, 1) * fx;
    out[c] = (c00 * (1 - fy) + c10 * fy) * (1 - fz) + (c01 * (1 - fy) + c11 * fy) * fz;
  }
  return out;
}

const toByte = (v: number) => Math.round(Math.min(1, Math.max(0, v)) * 255);
const isUnitDomain = (lut: CubeLut) => lut.domainMin.every((v) => v === 0) && lut.domainMax.every((v) => v === 1);

/** The browser's table: `size`³ RGB8 over inputs 0–1 (the LUT's own points when they already are that). */
export async function toRgb8Table(lut: CubeLut): Promise<{ size: number; data: Uint8Array }> {
  const size = lut.type === '1D' ? LUT_1D_OUTPUT_SIZE : Math.min(lut.size, LUT_OUTPUT_MAX_SIZE);
  const data = new Uint8Array(size ** 3 * 3);
  if (lut.type === '3D' && size === lut.size && isUnitDomain(lut)) {
    for (let i = 0; i < data.length; i++) data[i] = toByte(lut.table[i]);
    return { size, data };
  }
  let at = 0;
  for (let b = 0; b < size; b++) {
    await yieldToEventLoop(); // one blue plane at a time
    for (let g = 0; g < size; g++) {
      for (let r = 0; r < size; r++) {
        for (const v of sampleLut(lut, r / (size - 1), g / (size - 1), b / (size - 1))) data[at++] = toByte(v);
      }
    }
  }
  return { size, data };
}

export async function deriveLutPreview(input: string, outDir: string): Promise<LutPreview> {
  const lut = await readCube(input);
  const { size, data } = await toRgb8Table(lut);
  const file = await writeDerived(outDir, data, 'bin', 'application/octet-stream');
  return { kind: 'lut', title: lut.title, source: { type: lut.type, size: lut.size }, table: { ...file, format: 'rgb8', size } };
}
