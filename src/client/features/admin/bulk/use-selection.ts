import * as React from 'react';

/**
 * The admin list's selection: ids (kept across pages of the same filters), the last row clicked
 * (where a shift-click's range starts), and whether it came from "Select all N matching".
 */
export interface Selection {
  ids: ReadonlySet<number>;
  /** The row a shift-click's range starts from: the last one clicked. */
  anchor: number | null;
  /** Set by "Select all N matching": how many match (more than `ids` when past BULK_MAX). */
  matching: { total: number; totalExact: boolean } | null;
}

export const EMPTY_SELECTION: Selection = { ids: new Set(), anchor: null, matching: null };

const withIds = (s: Selection, ids: Iterable<number>, on: boolean): Selection => {
  const next = new Set(s.ids);
  for (const id of ids) {
    if (on) next.add(id);
    else next.delete(id);
  }
  return { ...s, ids: next, matching: null };
};

/**
 * A click on a row's box. With shift, and the last clicked row on this page, every row between
 * the two (both included, in the page's order) takes the state the clicked row takes; otherwise
 * the row alone toggles. Either way the clicked row becomes the anchor.
 */
export function clickRow(s: Selection, pageIds: readonly number[], id: number, shift: boolean): Selection {
  const on = !s.ids.has(id);
  const from = s.anchor === null ? -1 : pageIds.indexOf(s.anchor);
  const to = pageIds.indexOf(id);
  const range = shift && from !== -1 && to !== -1 ? pageIds.slice(Math.min(from, to), Math.max(from, to) + 1) : [id];
  return { ...withIds(s, range, on), anchor: id };
}

/** The header's box: selects the whole page, or, when it all is, unselects it. */
export function togglePage(s: Selection, pageIds: readonly number[]): Selection {
  const all = pageIds.length > 0 && pageIds.every((id) => s.ids.has(id));
  return withIds(s, pageIds, !all);
}

/** "Select all N matching": exactly the ids the server gave for the filters. */
export function selectMatching(ids: readonly number[], total: number, totalExact: boolean): Selection {
  return { ids: new Set(ids), anchor: null, matching: { total, totalExact } };
}

/** After an action: the ids done leave the selection, failed ones stay for another try. */
export function withoutIds(s: Selection, ids: Iterable<number>): Selection {
  const next = withIds(s, ids, false);
  return next.ids.size === 0 ? EMPTY_SELECTION : next;
}

/** The header box's state for a page. */
export function pageState(s: Selection, pageIds: readonly number[]): 'none' | 'some' | 'all' {
  const n = pageIds.filter((id) => s.ids.has(id)).length;
  return n === 0 ? 'none' : n === pageIds.length ? 'all' : 'some';
}

/**
 * The selection of one list. `scope` names its filters (category, search, status): when they
 * change, the selection starts empty, since "all matching" and ranges meant the old list.
 */
export function useSelection(scope: string) {
  const [state, setState] = React.useState({ scope, selection: EMPTY_SELECTION });
  // Another filter: start again, in this render (no frame with the old selection shown).
  const current = state.scope === scope ? state.selection : EMPTY_SELECTION;
  if (state.scope !== scope) setState({ scope, selection: EMPTY_SELECTION });
  const update = React.useCallback((next: (s: Selection) => Selection) => setState((prev) => ({ scope: prev.scope, selection: next(prev.selection) })), []);
  return {
    selection: current,
    click: (pageIds: readonly number[], id: number, shift: boolean) => update((s) => clickRow(s, pageIds, id, shift)),
    togglePage: (pageIds: readonly number[]) => update((s) => togglePage(s, pageIds)),
    selectMatching: (ids: readonly number[], total: number, totalExact: boolean) => update(() => selectMatching(ids, total, totalExact)),
    remove: (ids: Iterable<number>) => update((s) => withoutIds(s, ids)),
    clear: () => update(() => EMPTY_SELECTION),
  };
}
