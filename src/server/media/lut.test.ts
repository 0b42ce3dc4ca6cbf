import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deriveLutPreview, LUT_1D_OUTPUT_SIZE, LUT_OUTPUT_MAX_SIZE, parseCube, sampleLut, toRgb8Table } from './lut';

const dir = mkdtempSync(path.join(os.tmpdir(), 'rv-lut-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `.cube` text of `f` sampled on a size³ grid (red fastest). */
function cube3d(size: number, f: (r: number, g: number, b: number) => [number, number, number], head = ''): string {
  const lines = [head, `LUT_3D_SIZE ${size}`];
  for (let b = 0; b < size; b++) for (let g = 0; g < size; g++) for (let r = 0; r < size; r++) lines.push(f(r / (size - 1), g / (size - 1), b / (size - 1)).join(' '));
  return lines.join('\n');
}
const identity = (r: number, g: number, b: number): [number, number, number] => [r, g, b];

describe('.cube LUTs', () => {
  it('reads a 3D LUT with a title, comments, blank lines, CRLF and a BOM', async () => {
    const text = `\uFEFF# made by hand\r\nTITLE "Warm Look"\r\n\r\n${cube3d(2, (r, g, b) => [r * 0.9 + 0.1, g, b * 0.8]).replace(/\n/g, '\r\n')}\r\n`;
    const lut = await parseCube(text);
    expect(lut).toMatchObject({ title: 'Warm Look', type: '3D', size: 2, domainMin: [0, 0, 0], domainMax: [1, 1, 1] });
    expect([...lut.table.slice(0, 6)].map((v) => +v.toFixed(3))).toEqual([0.1, 0, 0, 1, 0, 0]);
  });

  it('turns a 3D LUT into 8-bit RGB over 0–1, red fastest, for a 3D texture', async () => {
    const lut = await parseCube(cube3d(5, (r, g, b) => [1 - r, g * g, b]));
    const { size, data } = await toRgb8Table(lut);
    expect(size).toBe(5);
    expect(data).toHaveLength(5 ** 3 * 3);
    // Entry (r=1, g=2, b=3) → red index 1 + 2·5 + 3·25.
    const at = (1 + 2 * 5 + 3 * 25) * 3;
    expect([...data.slice(at, at + 3)]).toEqual([Math.round(0.75 * 255), Math.round(0.25 * 255), Math.round(0.75 * 255)]);
  });

  it('resamples a large 3D LUT to the browser’s size and bakes its domain in', async () => {
    const big = await parseCube(cube3d(65, identity));
    const { size, data } = await toRgb8Table(big);
    expect(size).toBe(LUT_OUTPUT_MAX_SIZE);
    const mid = ((16 + 16 * 33 + 16 * 33 * 33) * 3);
    expect([...data.slice(mid, mid + 3)]).toEqual([128, 128, 128]);

    // Domain 0–2: the table's input 0.5 is the LUT's 0.5 (a quarter of its grid).
    const wide = await parseCube(cube3d(3, (r, g, b) => [r * 2, g * 2, b * 2], 'DOMAIN_MIN 0 0 0\nDOMAIN_MAX 2 2 2'));
    expect(sampleLut(wide, 0.5, 0.5, 0.5).map((v) => +v.toFixed(4))).toEqual([0.5, 0.5, 0.5]);
    const baked = await toRgb8Table(wide);
    const half = ((1 + 1 * baked.size + 1 * baked.size ** 2) * 3);
    expect(baked.size).toBe(3);
    expect([...baked.data.slice(half, half + 3)]).toEqual([128, 128, 128]);
  });

  it('turns a 1D LUT into the equivalent 3D table', async () => {
    const lines = ['LUT_1D_SIZE 4', ...[0, 1, 2, 3].map((i) => `${(i / 3) ** 2} ${i / 3} ${1 - i / 3}`)];
    const lut = await parseCube(lines.join('\n'));
    expect(lut).toMatchObject({ type: '1D', size: 4 });
    const { size, data } = await toRgb8Table(lut);
    expect(size).toBe(LUT_1D_OUTPUT_SIZE);
    const last = size - 1;
    const at = (last + 0 * size + last * size * size) * 3; // r = 1, g = 0, b = 1
    expect([...data.slice(at, at + 3)]).toEqual([255, 0, 0]);
  });

  it('accepts Resolve’s input range and ignores keywords of other applications', async () => {
    const lut = await parseCube(`LUT_3D_INPUT_RANGE 0 1.5\nLUT_IN_VIDEO_RANGE\n${cube3d(2, identity)}`);
    expect(lut).toMatchObject({ domainMin: [0, 0, 0], domainMax: [1.5, 1.5, 1.5] });
  });

  it.each([
    ['no size', '0 0 0\n1 1 1', /starts before LUT_1D_SIZE or LUT_3D_SIZE/],
    ['size too large', 'LUT_3D_SIZE 129', /LUT_3D_SIZE is 129; it must be 2 to 65/],
    ['size of one', 'LUT_3D_SIZE 1\n0 0 0', /LUT_3D_SIZE is 1; it must be 2 to 65/],
    ['size not a number', 'LUT_3D_SIZE 3x', /LUT_3D_SIZE needs one whole number/],
    ['too few entries', cube3d(3, identity).split('\n').slice(0, -1).join('\n'), /The table has 26 entries; LUT_3D_SIZE 3 needs exactly 27/],
    ['too many entries', `${cube3d(2, identity)}\n0 0 0`, /more than the 8 entries/],
    ['NaN', cube3d(2, identity).replace('1 1 1', 'nan 1 1'), /“nan” is not a number/],
    ['an infinite value', cube3d(2, identity).replace('1 1 1', '1e999 1 1'), /1e999 is not a finite number/],
    ['two values a line', cube3d(2, identity).replace('1 1 1', '1 1'), /needs three numbers .* found 2/],
    ['hex numbers', cube3d(2, identity).replace('1 1 1', '0x1 1 1'), /“0x1” is not a number/],
    ['a keyword after the data', `${cube3d(2, identity)}\nDOMAIN_MIN 0 0 0`, /DOMAIN_MIN must come before the table’s values/],
    ['domain upside down', `DOMAIN_MIN 1 0 0\nDOMAIN_MAX 0 1 1\n${cube3d(2, identity)}`, /DOMAIN_MIN must be below DOMAIN_MAX/],
    ['both 1D and 3D', 'LUT_1D_SIZE 2\nLUT_3D_SIZE 2', /already has a 1D size/],
    ['empty text', '', /no LUT_1D_SIZE or LUT_3D_SIZE line/],
  ])('refuses %s', async (_name, text, message) => {
    await expect(parseCube(text)).rejects.toMatchObject({ reason: 'invalid_lut', message: expect.stringMatching(message) });
  });

  it('writes the table as a content-named file and refuses a binary file', async () => {
    const file = path.join(dir, 'ok.cube');
    writeFileSync(file, cube3d(2, identity));
    const preview = await deriveLutPreview(file, dir);
    expect(preview).toMatchObject({ kind: 'lut', source: { type: '3D', size: 2 }, table: { format: 'rgb8', size: 2, bytes: 24, contentType: 'application/octet-stream' } });
    expect([...readFileSync(preview.table.path)]).toEqual([0, 0, 0, 255, 0, 0, 0, 255, 0, 255, 255, 0, 0, 0, 255, 255, 0, 255, 0, 255, 255, 255, 255, 255]);

    const binary = path.join(dir, 'binary.cube');
    writeFileSync(binary, Buffer.concat([Buffer.from('LUT_3D_SIZE 2\n'), Buffer.from([0, 1, 2, 3])]));
    await expect(deriveLutPreview(binary, dir)).rejects.toMatchObject({ reason: 'not_lut' });
  });
});
