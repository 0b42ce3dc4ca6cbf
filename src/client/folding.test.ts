import { describe, expect, it } from 'vitest';
import { filtersFromParams } from '@/features/categories/use-category-filters';
import { categoriesMatching } from '@/features/home/categories-section';
import { paths } from '@/lib/paths';
import { getCategory } from '@contract/categories';

/**
 * The client matches user text by the server's one folding rule (contract/search-fold.ts), not by
 * toLowerCase: full-width letters, ligatures, ß/SS and the Turkish dotted İ match what the server finds.
 */
describe('client text matching folds like search', () => {
  it('the home category filter finds a category by a full-width or differently cased query', () => {
    expect(categoriesMatching('ＴＹＰＯＧＲＡＰＨＹ').map((c) => c.value)).toContain('typography');
    expect(categoriesMatching('ﬁlm').map((c) => c.value)).toEqual(expect.arrayContaining(['photo_editing', 'color_grading']));
    expect(categoriesMatching('  ').length).toBeGreaterThan(1);
    expect(categoriesMatching('no such category')).toEqual([]);
  });

  it('a tag in the URL selects the chip it folds to, spelled as the chip spells it', () => {
    const typography = getCategory('typography');
    expect(filtersFromParams(new URLSearchParams({ tags: 'ＳＡＮＳ-ＳＥＲＩＦ,serif' }), typography).tags).toEqual(['Sans-Serif', 'Serif']);
    expect(filtersFromParams(new URLSearchParams({ tags: 'Not a chip' }), typography).tags).toEqual([]);
  });

  it("a resource's tag links to the chip it folds to, and any other tag to a search", () => {
    expect(paths.categoryTag('photo_editing', 'ＨＤＲ')).toBe('/categories/photo-editing?tags=HDR');
    expect(paths.categoryTag('photo_editing', 'Straße')).toBe('/categories/photo-editing?q=Stra%C3%9Fe');
  });
});
