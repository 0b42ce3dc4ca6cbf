// Parses an uploaded font with fontkit and makes its WOFF2 (task `derive`), or sets a text in a
// font as an SVG outline (task `specimen`), inside a worker thread that font.ts starts with a heap
// limit and terminates after a time limit: a hostile font can throw, loop or allocate here without
// touching the server's own thread. Plain JavaScript so it runs as a worker under any loader. It
// only reports facts; font.ts decides what is acceptable.
import { parentPort, workerData } from 'node:worker_threads';
import { inflateSync } from 'node:zlib';
import * as fontkit from 'fontkit';
import wawoff2 from 'wawoff2';

/** Characters whose outlines are decoded to prove the glyph data can be read. */
const SAMPLE = 'Hamburgefonstiv HAMBURGEFONSTIV 0123456789';
const SAMPLE_FALLBACK_CHARS = 40;

/** WOFF 1.0 → the sfnt it wraps (tables inflated), so it can be re-packed as WOFF2. */
function woffToSfnt(woff, maxBytes) {
  const view = Buffer.from(woff.buffer, woff.byteOffset, woff.byteLength);
  const numTables = view.readUInt16BE(12);
  const total = view.readUInt32BE(16);
  if (total > maxBytes) throw new Error(`declares ${total} bytes of tables`);
  const out = Buffer.alloc(total);
  view.copy(out, 0, 4, 8); // flavor → sfnt version
  out.writeUInt16BE(numTables, 4);
  let power = 1;
  let log = 0;
  while (power * 2 <= numTables) {
    power *= 2;
    log++;
  }
  out.writeUInt16BE(power * 16, 6);
  out.writeUInt16BE(log, 8);
  out.writeUInt16BE(numTables * 16 - power * 16, 10);
  let offset = 12 + numTables * 16;
  for (let i = 0; i < numTables; i++) {
    const entry = 44 + i * 20;
    const [tag, at, compLength, origLength, checksum] = [
      view.readUInt32BE(entry),
      view.readUInt32BE(entry + 4),
      view.readUInt32BE(entry + 8),
      view.readUInt32BE(entry + 12),
      view.readUInt32BE(entry + 16),
    ];
    if (at + compLength > view.length || offset + origLength > total) throw new Error('a table lies outside the file');
    const data = compLength < origLength ? inflateSync(view.subarray(at, at + compLength), { maxOutputLength: origLength }) : view.subarray(at, at + compLength);
    if (data.length !== origLength) throw new Error('a table inflates to the wrong length');
    const dir = 12 + i * 16;
    out.writeUInt32BE(tag, dir);
    out.writeUInt32BE(checksum, dir + 4);
    out.writeUInt32BE(offset, dir + 8);
    out.writeUInt32BE(origLength, dir + 12);
    data.copy(out, offset);
    offset += origLength + ((4 - (origLength % 4)) % 4);
  }
  return out;
}

function facts(font) {
  const os2 = font['OS/2'];
  const chars = font.characterSet;
  let text = [...SAMPLE].filter((c) => font.hasGlyphForCodePoint(c.codePointAt(0))).join('');
  if (!text.trim()) text = String.fromCodePoint(...chars.slice(0, SAMPLE_FALLBACK_CHARS));
  const run = font.layout(text);
  let outlined = 0;
  for (const glyph of run.glyphs) {
    // Decoding the outline and metrics reads the glyph data (glyf/CFF), not only the directory.
    if (glyph.path.commands.length > 0) outlined++;
    if (!Number.isFinite(glyph.advanceWidth)) throw new Error('a glyph has no advance width');
  }
  const axes = Object.fromEntries(Object.entries(font.variationAxes ?? {}).map(([tag, a]) => [tag, { name: String(a.name), min: a.min, default: a.default, max: a.max }]));
  return {
    type: font.type,
    familyName: font.familyName ?? null,
    subfamilyName: font.subfamilyName ?? null,
    fullName: font.fullName ?? null,
    postscriptName: font.postscriptName ?? null,
    unitsPerEm: font.unitsPerEm,
    ascent: font.ascent,
    descent: font.descent,
    lineGap: font.lineGap,
    capHeight: font.capHeight,
    xHeight: font.xHeight,
    weight: os2?.usWeightClass ?? null,
    italic: Boolean(font.italicAngle) || Boolean(os2 && os2.fsSelection && os2.fsSelection.italic),
    glyphCount: font.numGlyphs,
    characterCount: chars.length,
    codePoints: chars,
    coversBasicLatin: [...'AZaz09'].every((c) => font.hasGlyphForCodePoint(c.codePointAt(0))),
    sampleGlyphs: run.glyphs.length,
    outlinedGlyphs: outlined,
    axes,
  };
}

/** A specimen wider than this many ems is set on two lines, broken at the space that balances them best. */
const SPECIMEN_LINE_EMS = 9;
const SPECIMEN_LINE_HEIGHT = 1.15;

/** One line of text as absolute path commands (font units, y down), and its advance. */
function setLine(font, text, baseline) {
  const run = font.layout(text);
  let x = 0;
  const parts = [];
  for (let i = 0; i < run.glyphs.length; i++) {
    const glyph = run.glyphs[i];
    const pos = run.positions[i];
    const gx = x + pos.xOffset;
    const gy = baseline - pos.yOffset;
    for (const c of glyph.path.commands) {
      const points = [];
      for (let k = 0; k < c.args.length; k += 2) points.push([gx + c.args[k], gy - c.args[k + 1]]);
      parts.push({ command: c.command, points });
    }
    x += pos.xAdvance;
  }
  return { parts, width: x };
}

const SVG_COMMANDS = { moveTo: 'M', lineTo: 'L', quadraticCurveTo: 'Q', bezierCurveTo: 'C', closePath: 'Z' };

/**
 * `text` set in the font, as one SVG path: null when the font lacks a character of it (a browser
 * would draw that one in another font; an outline cannot). Up to two lines, each centred.
 */
function specimen(font, text) {
  // Every character, spaces too: one the font lacks would be drawn as its .notdef box.
  for (const ch of text) {
    if (!font.hasGlyphForCodePoint(ch.codePointAt(0))) return { ok: false, stage: 'glyphs', error: `no glyph for U+${ch.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}` };
  }
  const em = font.unitsPerEm;
  let lines = [text];
  if (font.layout(text).advanceWidth > SPECIMEN_LINE_EMS * em) {
    let best = null;
    for (let i = text.indexOf(' '); i > 0; i = text.indexOf(' ', i + 1)) {
      const a = text.slice(0, i).trimEnd();
      const b = text.slice(i + 1).trimStart();
      if (!a || !b) continue;
      const widest = Math.max(font.layout(a).advanceWidth, font.layout(b).advanceWidth);
      if (!best || widest < best.widest) best = { widest, lines: [a, b] };
    }
    if (best) lines = best.lines;
  }
  const step = Math.round(SPECIMEN_LINE_HEIGHT * em);
  const set = lines.map((line, i) => setLine(font, line, font.ascent + i * step));
  const widest = Math.max(...set.map((l) => l.width));
  let d = '';
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const line of set) {
    const shift = (widest - line.width) / 2;
    for (const { command, points } of line.parts) {
      d += SVG_COMMANDS[command] ?? '';
      let first = true;
      for (const [px, py] of points) {
        const x = Math.round(px + shift);
        const y = Math.round(py);
        minX = Math.min(minX, x);
        maxX = Math.max(maxX, x);
        minY = Math.min(minY, y);
        maxY = Math.max(maxY, y);
        // Numbers after a command letter, apart by a space unless a minus sign parts them.
        d += `${first || x < 0 ? '' : ' '}${x}${y < 0 ? '' : ' '}${y}`;
        first = false;
      }
    }
  }
  if (!Number.isFinite(minX)) return { ok: false, stage: 'glyphs', error: 'nothing drawn' };
  const pad = Math.round(em * 0.02);
  return { ok: true, d, viewBox: [minX - pad, minY - pad, maxX - minX + 2 * pad, maxY - minY + 2 * pad], unitsPerEm: em };
}

async function main() {
  const { task, bytes, format, maxSfntBytes, text } = workerData;
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let font;
  try {
    font = fontkit.create(buffer);
  } catch (error) {
    return { ok: false, stage: 'parse', error: String(error && error.message ? error.message : error) };
  }
  if (Array.isArray(font.fonts) || font.type === 'TTC' || font.type === 'DFont') return { ok: false, stage: 'collection', error: font.type };
  if (task === 'specimen') {
    try {
      return specimen(font, text);
    } catch (error) {
      return { ok: false, stage: 'glyphs', error: String(error && error.message ? error.message : error) };
    }
  }
  let info;
  try {
    info = facts(font);
  } catch (error) {
    return { ok: false, stage: 'glyphs', error: String(error && error.message ? error.message : error) };
  }
  let woff2 = null;
  if (format !== 'woff2') {
    try {
      const sfnt = format === 'woff' ? woffToSfnt(buffer, maxSfntBytes) : buffer;
      woff2 = await wawoff2.compress(sfnt);
      // The WOFF2 must read back as the same font.
      const back = fontkit.create(Buffer.from(woff2));
      if (back.numGlyphs !== font.numGlyphs || back.familyName !== font.familyName) throw new Error('the WOFF2 does not read back as the same font');
    } catch (error) {
      return { ok: false, stage: 'convert', error: String(error && error.message ? error.message : error) };
    }
  }
  return { ok: true, facts: info, woff2 };
}

main().then(
  (result) => parentPort.postMessage(result),
  (error) => parentPort.postMessage({ ok: false, stage: 'parse', error: String(error && error.message ? error.message : error) }),
);
