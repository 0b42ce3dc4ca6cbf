import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as fontkit from 'fontkit';
import { afterAll, describe, expect, it } from 'vitest';
import { deriveFontPreview, renderFontSpecimen } from './font';
import { buildTtf, toWoff } from '../testing/test-fonts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'rv-font-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function outDir(name: string) {
  const out = path.join(dir, name);
  await fs.mkdir(out);
  return out;
}

const ttf = buildTtf({ familyName: 'Block Sans', weight: 700 });

describe('font preview', () => {
  it('converts a TrueType font to WOFF2 that reads back as the same font, with its name and metrics', async () => {
    const file = path.join(dir, 'block.ttf');
    writeFileSync(file, ttf);
    const preview = await deriveFontPreview(file, await outDir('ttf'));
    expect(preview).toMatchObject({
      kind: 'font',
      sourceFormat: 'ttf',
      familyName: 'Block Sans',
      subfamilyName: 'Regular',
      weight: 700,
      metrics: { unitsPerEm: 1000, ascent: 800, descent: -200, capHeight: 700, xHeight: 500 },
      glyphCount: 64,
      coversBasicLatin: true,
      file: { contentType: 'font/woff2' },
    });
    // The 62 letters and digits and the space (and U+FFFF, which every cmap's last segment names).
    expect(preview.characterCount).toBeGreaterThanOrEqual(63);
    expect(preview.file.fileName).toMatch(/^[0-9a-f]{32}\.woff2$/);
    const woff2 = readFileSync(preview.file.path);
    expect(woff2.subarray(0, 4).toString('latin1')).toBe('wOF2');
    const back = fontkit.create(woff2) as fontkit.Font;
    expect(back.familyName).toBe('Block Sans');
    expect(back.glyphForCodePoint('A'.codePointAt(0)!).path.commands.length).toBeGreaterThan(0);
  });

  it('converts a WOFF to the same WOFF2, and keeps a WOFF2 upload as it is', async () => {
    const ttfFile = path.join(dir, 'a.ttf');
    writeFileSync(ttfFile, ttf);
    const fromTtf = await deriveFontPreview(ttfFile, await outDir('a'));
    const woffFile = path.join(dir, 'a.woff');
    writeFileSync(woffFile, toWoff(ttf));
    const fromWoff = await deriveFontPreview(woffFile, await outDir('woff'));
    expect(fromWoff.sourceFormat).toBe('woff');
    expect(fromWoff.file.fileName).toBe(fromTtf.file.fileName);

    const woff2File = path.join(dir, 'a.woff2');
    await fs.copyFile(fromTtf.file.path, woff2File);
    const kept = await deriveFontPreview(woff2File, await outDir('woff2'));
    expect(kept.sourceFormat).toBe('woff2');
    expect(readFileSync(kept.file.path).equals(readFileSync(woff2File))).toBe(true);
  });

  it('names a font by its tables, not its file name, and reports fonts without Latin letters', async () => {
    const symbols = buildTtf({ familyName: 'Arrows', glyphs: new Map([['→', [[[0, 0], [0, 500], [500, 250]]]], ['←', [[[500, 0], [0, 250], [500, 500]]]]]) });
    const file = path.join(dir, 'Helvetica-Bold.ttf');
    writeFileSync(file, symbols);
    const preview = await deriveFontPreview(file, await outDir('symbols'));
    expect(preview).toMatchObject({ familyName: 'Arrows', coversBasicLatin: false, glyphCount: 3 });
  });

  it('sets a text in the font as outlines, and says why when it cannot', async () => {
    const made = await renderFontSpecimen(ttf, 'Hi 42');
    expect(made.svg).toMatch(/^<svg [^>]*viewBox="[-\d ]+"[^>]*><path fill="#1c1917" d="M[-\d LQCMZ]+"\/><\/svg>$/);
    expect(await renderFontSpecimen(ttf, 'Hi → 42')).toEqual({ svg: null, reason: 'glyphs: no glyph for U+2192' });
    expect(await renderFontSpecimen(Buffer.from('PK\u0003\u0004 not a font'), 'Hi')).toMatchObject({ svg: null, reason: expect.stringMatching(/^parse: /) });
  });
});
