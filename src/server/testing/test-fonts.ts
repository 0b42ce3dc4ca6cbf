import { deflateSync } from 'node:zlib';

/**
 * Real TrueType fonts built in code for tests (no font file is checked in): every table a browser
 * and fontkit need (head, hhea, maxp, OS/2, hmtx, cmap format 4, loca, glyf, name, post), glyphs
 * drawn as polygons, checksums right. `toWoff` wraps one as WOFF 1.0.
 */

export type Contour = [x: number, y: number][];

export interface TestFontOptions {
  familyName?: string;
  subfamilyName?: string;
  unitsPerEm?: number;
  /** Glyph outlines by character; default: a block letter shape for A–Z, a–z, 0–9 and a space. */
  glyphs?: Map<string, Contour[]>;
  /** Advance width of every glyph. */
  advance?: number;
  weight?: number;
}

const EM = 1000;
const ASCENT = 800;
const DESCENT = -200;

/** A distinct block shape per character: a frame with a notch whose place depends on the code point. */
export function blockGlyphs(chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'): Map<string, Contour[]> {
  const glyphs = new Map<string, Contour[]>();
  for (const c of chars) {
    const code = c.codePointAt(0)!;
    const top = c === c.toLowerCase() && /[a-z]/.test(c) ? 500 : 700;
    const notch = 100 + (code % 5) * 80;
    // Outer clockwise, inner counter-clockwise (TrueType's fill rule).
    glyphs.set(c, [
      [
        [50, 0],
        [50, top],
        [550, top],
        [550, 0],
      ],
      [
        [150, notch],
        [450, notch],
        [450, notch + 60],
        [150, notch + 60],
      ],
    ]);
  }
  glyphs.set(' ', []);
  return glyphs;
}

export function buildTtf(options: TestFontOptions = {}): Buffer {
  const family = options.familyName ?? 'Test Block';
  const subfamily = options.subfamilyName ?? 'Regular';
  const upm = options.unitsPerEm ?? EM;
  const advance = options.advance ?? 600;
  const chars = [...(options.glyphs ?? blockGlyphs()).entries()].sort((a, b) => a[0].codePointAt(0)! - b[0].codePointAt(0)!);
  // Glyph 0 is .notdef (a box).
  const outlines: Contour[][] = [
    [
      [
        [50, 0],
        [50, 700],
        [550, 700],
        [550, 0],
      ],
    ],
    ...chars.map(([, contours]) => contours),
  ];
  const numGlyphs = outlines.length;

  const glyf: Buffer[] = [];
  const loca: number[] = [0];
  let maxPoints = 0;
  let maxContours = 0;
  let bbox = [0, 0, 0, 0];
  for (const contours of outlines) {
    if (contours.length === 0) {
      loca.push(loca[loca.length - 1]);
      continue;
    }
    const points = contours.flat();
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    const box = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
    bbox = [Math.min(bbox[0], box[0]), Math.min(bbox[1], box[1]), Math.max(bbox[2], box[2]), Math.max(bbox[3], box[3])];
    maxPoints = Math.max(maxPoints, points.length);
    maxContours = Math.max(maxContours, contours.length);
    const head = Buffer.alloc(10 + contours.length * 2 + 2);
    head.writeInt16BE(contours.length, 0);
    box.forEach((v, i) => head.writeInt16BE(v, 2 + i * 2));
    let end = -1;
    contours.forEach((c, i) => {
      end += c.length;
      head.writeUInt16BE(end, 10 + i * 2);
    });
    head.writeUInt16BE(0, 10 + contours.length * 2); // no instructions
    const flags = Buffer.alloc(points.length, 0x01); // on-curve, 16-bit deltas
    const coords = Buffer.alloc(points.length * 4);
    let [px, py] = [0, 0];
    points.forEach(([x, y], i) => {
      coords.writeInt16BE(x - px, i * 2);
      coords.writeInt16BE(y - py, points.length * 2 + i * 2);
      [px, py] = [x, y];
    });
    let data = Buffer.concat([head, flags, coords]);
    if (data.length % 4) data = Buffer.concat([data, Buffer.alloc(4 - (data.length % 4))]);
    glyf.push(data);
    loca.push(loca[loca.length - 1] + data.length);
  }

  const head = Buffer.alloc(54);
  head.writeUInt32BE(0x00010000, 0);
  head.writeUInt32BE(0x00010000, 4);
  head.writeUInt32BE(0x5f0f3cf5, 12);
  head.writeUInt16BE(0x000b, 16);
  head.writeUInt16BE(upm, 18);
  bbox.forEach((v, i) => head.writeInt16BE(v, 36 + i * 2));
  head.writeUInt16BE(8, 46);
  head.writeInt16BE(2, 48);
  head.writeInt16BE(1, 50); // long loca

  const hhea = Buffer.alloc(36);
  hhea.writeUInt32BE(0x00010000, 0);
  hhea.writeInt16BE(ASCENT, 4);
  hhea.writeInt16BE(DESCENT, 6);
  hhea.writeUInt16BE(advance, 10);
  hhea.writeInt16BE(1, 18);
  hhea.writeUInt16BE(numGlyphs, 34);

  const maxp = Buffer.alloc(32);
  maxp.writeUInt32BE(0x00010000, 0);
  maxp.writeUInt16BE(numGlyphs, 4);
  maxp.writeUInt16BE(maxPoints, 6);
  maxp.writeUInt16BE(maxContours, 8);
  maxp.writeUInt16BE(2, 14);

  const codes = chars.map(([c]) => c.codePointAt(0)!);
  const os2 = Buffer.alloc(96);
  os2.writeUInt16BE(4, 0);
  os2.writeInt16BE(advance, 2);
  os2.writeUInt16BE(options.weight ?? 400, 4);
  os2.writeUInt16BE(5, 6);
  os2.write('TEST', 58, 'latin1');
  os2.writeUInt16BE(0x0040, 62); // regular
  os2.writeUInt16BE(Math.min(...codes), 64);
  os2.writeUInt16BE(Math.max(...codes), 66);
  os2.writeInt16BE(ASCENT, 68);
  os2.writeInt16BE(DESCENT, 70);
  os2.writeUInt16BE(ASCENT, 74);
  os2.writeUInt16BE(-DESCENT, 76);
  os2.writeUInt32BE(1, 78);
  os2.writeInt16BE(500, 86); // x-height
  os2.writeInt16BE(700, 88); // cap height

  const hmtx = Buffer.alloc(numGlyphs * 4);
  for (let i = 0; i < numGlyphs; i++) hmtx.writeUInt16BE(advance, i * 4);

  // cmap format 4: one segment per character, then the closing 0xFFFF segment.
  const segments = [...codes.map((c, i) => ({ start: c, end: c, delta: (i + 1 - c) & 0xffff })), { start: 0xffff, end: 0xffff, delta: 1 }];
  const segX2 = segments.length * 2;
  const sub = Buffer.alloc(16 + segments.length * 8);
  sub.writeUInt16BE(4, 0);
  sub.writeUInt16BE(sub.length, 2);
  sub.writeUInt16BE(segX2, 6);
  const searchRange = 2 * 2 ** Math.floor(Math.log2(segments.length));
  sub.writeUInt16BE(searchRange, 8);
  sub.writeUInt16BE(Math.log2(searchRange / 2), 10);
  sub.writeUInt16BE(segX2 - searchRange, 12);
  segments.forEach((s, i) => {
    sub.writeUInt16BE(s.end, 14 + i * 2);
    sub.writeUInt16BE(s.start, 16 + segX2 + i * 2);
    sub.writeUInt16BE(s.delta, 16 + segX2 * 2 + i * 2);
  });
  const cmap = Buffer.concat([Buffer.from([0, 0, 0, 1, 0, 3, 0, 1, 0, 0, 0, 12]), sub]);

  const names: [number, string][] = [
    [1, family],
    [2, subfamily],
    [4, `${family} ${subfamily}`],
    [6, `${family}-${subfamily}`.replace(/[^A-Za-z0-9-]/g, '')],
  ];
  const strings = names.map(([, s]) => Buffer.from(s, 'utf16le').swap16());
  const name = Buffer.alloc(6 + names.length * 12);
  name.writeUInt16BE(names.length, 2);
  name.writeUInt16BE(name.length, 4);
  let stringOffset = 0;
  names.forEach(([id], i) => {
    const at = 6 + i * 12;
    name.writeUInt16BE(3, at);
    name.writeUInt16BE(1, at + 2);
    name.writeUInt16BE(0x409, at + 4);
    name.writeUInt16BE(id, at + 6);
    name.writeUInt16BE(strings[i].length, at + 8);
    name.writeUInt16BE(stringOffset, at + 10);
    stringOffset += strings[i].length;
  });

  const post = Buffer.alloc(32);
  post.writeUInt32BE(0x00030000, 0);

  const locaTable = Buffer.alloc(loca.length * 4);
  loca.forEach((v, i) => locaTable.writeUInt32BE(v, i * 4));

  return assembleSfnt(0x00010000, {
    'OS/2': os2,
    cmap,
    glyf: Buffer.concat(glyf),
    head,
    hhea,
    hmtx,
    loca: locaTable,
    maxp,
    name: Buffer.concat([name, ...strings]),
    post,
  });
}

function checksum(data: Buffer): number {
  const padded = data.length % 4 ? Buffer.concat([data, Buffer.alloc(4 - (data.length % 4))]) : data;
  let sum = 0;
  for (let i = 0; i < padded.length; i += 4) sum = (sum + padded.readUInt32BE(i)) >>> 0;
  return sum;
}

/** Tables → an sfnt (directory sorted by tag, tables 4-byte aligned, head's checkSumAdjustment set). */
export function assembleSfnt(version: number, tables: Record<string, Buffer>): Buffer {
  const tags = Object.keys(tables).sort();
  const header = Buffer.alloc(12 + tags.length * 16);
  header.writeUInt32BE(version, 0);
  header.writeUInt16BE(tags.length, 4);
  const power = 2 ** Math.floor(Math.log2(tags.length));
  header.writeUInt16BE(power * 16, 6);
  header.writeUInt16BE(Math.log2(power), 8);
  header.writeUInt16BE(tags.length * 16 - power * 16, 10);
  const bodies: Buffer[] = [];
  let offset = header.length;
  tags.forEach((tag, i) => {
    const data = tables[tag];
    const at = 12 + i * 16;
    header.write(tag.padEnd(4, ' '), at, 'latin1');
    header.writeUInt32BE(checksum(data), at + 4);
    header.writeUInt32BE(offset, at + 8);
    header.writeUInt32BE(data.length, at + 12);
    const padded = data.length % 4 ? Buffer.concat([data, Buffer.alloc(4 - (data.length % 4))]) : data;
    bodies.push(padded);
    offset += padded.length;
  });
  const font = Buffer.concat([header, ...bodies]);
  const headAt = font.readUInt32BE(12 + tags.indexOf('head') * 16 + 8);
  font.writeUInt32BE((0xb1b0afba - checksum(font)) >>> 0, headAt + 8);
  return font;
}

/** The same font as WOFF 1.0 (each table deflated). */
export function toWoff(sfnt: Buffer): Buffer {
  const numTables = sfnt.readUInt16BE(4);
  const entries: { tag: number; checksum: number; data: Buffer; length: number }[] = [];
  for (let i = 0; i < numTables; i++) {
    const at = 12 + i * 16;
    const offset = sfnt.readUInt32BE(at + 8);
    const length = sfnt.readUInt32BE(at + 12);
    const raw = sfnt.subarray(offset, offset + length);
    const packed = deflateSync(raw);
    entries.push({ tag: sfnt.readUInt32BE(at), checksum: sfnt.readUInt32BE(at + 4), data: packed.length < raw.length ? packed : raw, length });
  }
  const header = Buffer.alloc(44 + numTables * 20);
  header.write('wOFF', 0, 'latin1');
  header.writeUInt32BE(sfnt.readUInt32BE(0), 4);
  header.writeUInt16BE(numTables, 12);
  header.writeUInt32BE(sfnt.length, 16);
  header.writeUInt16BE(1, 20);
  const bodies: Buffer[] = [];
  let offset = header.length;
  entries.forEach((e, i) => {
    const at = 44 + i * 20;
    header.writeUInt32BE(e.tag, at);
    header.writeUInt32BE(offset, at + 4);
    header.writeUInt32BE(e.data.length, at + 8);
    header.writeUInt32BE(e.length, at + 12);
    header.writeUInt32BE(e.checksum, at + 16);
    const padded = e.data.length % 4 ? Buffer.concat([e.data, Buffer.alloc(4 - (e.data.length % 4))]) : e.data;
    bodies.push(padded);
    offset += padded.length;
  });
  const woff = Buffer.concat([header, ...bodies]);
  woff.writeUInt32BE(woff.length, 8);
  return woff;
}
