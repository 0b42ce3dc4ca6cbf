import { type CategoryInfo, type CategoryValue, getCategory, parseCategory } from '@contract/categories';
import { SORT_OPTIONS } from '@contract/constants';
import { foldForSearch } from '@contract/search-fold';
import type { Sort } from '@contract/resources';
import * as React from 'react';
import { useSearchParams } from 'react-router';
import { FACT_KEYS, type FactFilters, factsFromParams, hasFacts, writeFacts } from './fact-filters';

export const DEFAULT_SORT: Sort = 'popular';

export const SORT_LABELS: Record<Sort, string> = {
  popular: 'Popular',
  newest: 'Newest',
  downloads: 'Most Downloads',
};

function parseSort(v: string | null): Sort {
  return (SORT_OPTIONS as readonly string[]).includes(v ?? '') ? (v as Sort) : DEFAULT_SORT;
}

/**
 * Only the category's own tags count, spelled as the chips spell them, in chip order; a tag in the
 * URL names a chip when they fold alike (the server's rule for tags, contract/search-fold.ts).
 */
function parseTags(v: string | null, category: CategoryInfo): string[] {
  if (!v) return [];
  const wanted = new Set(v.split(',').map((t) => foldForSearch(t.trim())));
  return category.tags.filter((t) => wanted.has(foldForSearch(t)));
}

/** The list filters a URL query asks for (the server reads them too, to render the first page). */
export function filtersFromParams(params: URLSearchParams, category: CategoryInfo): { q: string; sort: Sort; tags: string[] } & FactFilters {
  return { q: (params.get('q') ?? '').trim(), sort: parseSort(params.get('sort')), tags: parseTags(params.get('tags'), category), ...factsFromParams(params) };
}

/** The search page's filters: a category is one more filter there (`?category=`), chosen from its counts. */
export function searchFiltersFromParams(params: URLSearchParams): { category?: CategoryValue; q: string; sort: Sort; tags: string[] } & FactFilters {
  const category = parseCategory(params.get('category') ?? '');
  return {
    ...(category && getCategory(category).isPublic ? { category } : {}),
    q: (params.get('q') ?? '').trim(),
    sort: parseSort(params.get('sort')),
    tags: [],
    ...factsFromParams(params),
  };
}

export interface CategoryFilters {
  q: string;
  sort: Sort;
  tags: string[];
  facts: FactFilters;
  /** A search, tag or fact filter (on the search page: a category or fact filter) narrows the list (sort only orders it). */
  active: boolean;
  setQuery(q: string): void;
  setSort(sort: Sort): void;
  toggleTag(tag: string): void;
  setFacts(facts: FactFilters): void;
  clear(): void;
}

/**
 * Filters live in the URL query (q, sort, tags, the fact filters) so a link reproduces the view and
 * Back restores the previous one. Each change is a history entry; defaults are left out of the URL.
 * `category` gives the tag chips (a category page); without it there are none (the search page).
 */
export function useCategoryFilters(category?: CategoryInfo): CategoryFilters {
  const [params, setParams] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  const sort = parseSort(params.get('sort'));
  const tagsParam = params.get('tags');
  const tags = React.useMemo(() => (category ? parseTags(tagsParam, category) : []), [tagsParam, category]);
  const factKey = FACT_KEYS.map((k) => params.get(k)).join('|');
  // eslint-disable-next-line react-hooks/exhaustive-deps -- factKey is what the facts are read from
  const facts = React.useMemo(() => factsFromParams(params), [factKey]);

  const update = React.useCallback(
    (change: (next: URLSearchParams) => void) => {
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          change(next);
          return next;
        },
        { preventScrollReset: true },
      );
    },
    [setParams],
  );

  return {
    q,
    sort,
    tags,
    facts,
    // On the search page the words are the page's subject, not a filter; its category is one.
    active: category ? q !== '' || tags.length > 0 || hasFacts(facts) : params.has('category') || hasFacts(facts),
    setQuery: (value) =>
      update((next) => {
        const v = value.trim();
        if (v) next.set('q', v);
        else next.delete('q');
      }),
    setSort: (value) =>
      update((next) => {
        if (value === DEFAULT_SORT) next.delete('sort');
        else next.set('sort', value);
      }),
    toggleTag: (tag) =>
      update((next) => {
        if (!category) return;
        const current = parseTags(next.get('tags'), category);
        const on = current.includes(tag) ? current.filter((t) => t !== tag) : [...current, tag];
        const ordered = category.tags.filter((t) => on.includes(t));
        if (ordered.length > 0) next.set('tags', ordered.join(','));
        else next.delete('tags');
      }),
    setFacts: (value) => update((next) => writeFacts(next, value)),
    clear: () =>
      update((next) => {
        if (category) {
          next.delete('q');
          next.delete('tags');
        } else {
          next.delete('category');
        }
        writeFacts(next, {});
      }),
  };
}
