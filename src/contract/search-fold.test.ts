import { describe, expect, it } from 'vitest';
import { foldForSearch } from './search-fold';

describe('foldForSearch', () => {
  it.each([
    ['İstanbul', 'istanbul'],
    ['ISTANBUL', 'istanbul'],
    ['ılık', 'ilik'],
    ['ΟΔΟΣ', 'οδοσ'],
    ['οδος', 'οδοσ'],
    ['ΣΊΣΥΦΟΣ', 'σίσυφοσ'],
    ['cafe\u0301', 'caf\u00e9'],
    ['CAF\u00c9', 'caf\u00e9'],
    ['Straße', 'strasse'],
    ['STRAẞE', 'strasse'],
    ['ﬁlm', 'film'],
    ['ＬＵＴ', 'lut'],
    ['soft\u00adhyphen\u200b', 'softhyphen'],
    ['ᾳ', 'αι'],
    ['K', 'k'],
    ['  Two  Spaces ', '  two  spaces '],
  ])('%s → %s', (input, folded) => {
    expect(foldForSearch(input)).toBe(folded);
  });

  it('keeps accents significant', () => {
    expect(foldForSearch('café')).not.toBe(foldForSearch('cafe'));
  });

  it('is idempotent for every code point, so folded text and a folded query agree', () => {
    const changed: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const once = foldForSearch(String.fromCodePoint(cp));
      if (foldForSearch(once) !== once) changed.push(cp.toString(16));
    }
    expect(changed).toEqual([]);
  });
});
