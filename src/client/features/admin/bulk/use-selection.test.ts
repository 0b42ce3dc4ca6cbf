import { describe, expect, it } from 'vitest';
import { clickRow, EMPTY_SELECTION, pageState, selectMatching, togglePage, withoutIds } from './use-selection';

const page = [10, 9, 8, 7, 6, 5];
const ids = (s: { ids: ReadonlySet<number> }) => [...s.ids].sort((a, b) => b - a);

describe('the admin list selection', () => {
  it('a click toggles one row and becomes the anchor', () => {
    let s = clickRow(EMPTY_SELECTION, page, 9, false);
    expect(ids(s)).toEqual([9]);
    expect(s.anchor).toBe(9);
    s = clickRow(s, page, 9, false);
    expect(ids(s)).toEqual([]);
  });

  it('a shift-click selects every row between the anchor and it, either way up', () => {
    let s = clickRow(EMPTY_SELECTION, page, 9, false);
    s = clickRow(s, page, 6, true);
    expect(ids(s)).toEqual([9, 8, 7, 6]);
    expect(s.anchor).toBe(6);
    // Upwards from the new anchor, unselecting: the clicked row's new state applies to the range.
    s = clickRow(s, page, 8, true);
    expect(ids(s)).toEqual([9]);
  });

  it('a shift-click with no anchor on this page toggles the row alone', () => {
    const s = clickRow({ ...EMPTY_SELECTION, anchor: 99 }, page, 7, true);
    expect(ids(s)).toEqual([7]);
  });

  it('the header box selects the page, then unselects it; other pages keep theirs', () => {
    let s = clickRow(EMPTY_SELECTION, [1, 2], 1, false);
    s = togglePage(s, page);
    expect(ids(s)).toEqual([...page, 1]);
    expect(pageState(s, page)).toBe('all');
    s = togglePage(s, page);
    expect(ids(s)).toEqual([1]);
    expect(pageState(s, page)).toBe('none');
    expect(pageState(clickRow(s, page, 8, false), page)).toBe('some');
  });

  it('"all matching" holds the server\'s ids until a row is changed; done ids leave after an action', () => {
    let s = selectMatching([1, 2, 3, 4], 1200, true);
    expect(s.matching).toEqual({ total: 1200, totalExact: true });
    s = withoutIds(s, [1, 2]);
    expect(ids(s)).toEqual([4, 3]);
    expect(clickRow(s, page, 9, false).matching).toBeNull();
    expect(withoutIds(s, [3, 4])).toBe(EMPTY_SELECTION);
  });
});
