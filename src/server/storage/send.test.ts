import { describe, expect, it } from 'vitest';
import { attachmentDisposition, parseRange } from './send';

describe('parseRange', () => {
  it.each([
    [undefined, 100, undefined],
    ['bytes=0-9', 100, { start: 0, end: 9 }],
    ['bytes=90-', 100, { start: 90, end: 99 }],
    ['bytes=90-500', 100, { start: 90, end: 99 }],
    ['bytes=-10', 100, { start: 90, end: 99 }],
    ['bytes=-500', 100, { start: 0, end: 99 }],
    ['bytes=100-', 100, 'unsatisfiable'],
    ['bytes=-0', 100, 'unsatisfiable'],
    ['bytes=0-', 0, 'unsatisfiable'],
    ['bytes=9-3', 100, undefined],
    ['bytes=0-1,5-6', 100, undefined],
    ['items=0-1', 100, undefined],
    ['bytes=-', 100, undefined],
    ['bytes=abc', 100, undefined],
  ] as const)('%s of %i bytes → %j', (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });
});

describe('attachmentDisposition', () => {
  it('keeps the exact UTF-8 name in filename* and an ASCII fallback', () => {
    expect(attachmentDisposition('Café «pack» 100%.zip')).toBe(
      `attachment; filename="Cafe pack 100_.zip"; filename*=UTF-8''Caf%C3%A9%20%C2%ABpack%C2%BB%20100%25.zip`,
    );
  });

  it('cannot be broken out of: quotes, backslashes and control characters', () => {
    const header = attachmentDisposition('a"b\\c\r\nSet-Cookie: x=1\u0000.txt');
    expect([...header].some((c) => c.charCodeAt(0) < 0x20)).toBe(false);
    expect(header).toBe(`attachment; filename="a_b_cSet-Cookie: x=1.txt"; filename*=UTF-8''a%22b%5CcSet-Cookie%3A%20x%3D1.txt`);
  });

  it('never gives an empty name', () => {
    expect(attachmentDisposition('\u0001')).toBe(`attachment; filename="download"; filename*=UTF-8''download`);
    expect(attachmentDisposition('日本.zip')).toBe(`attachment; filename=".zip"; filename*=UTF-8''%E6%97%A5%E6%9C%AC.zip`);
  });
});
