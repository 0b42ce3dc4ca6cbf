import type { RawBuilder, SqlBool } from 'kysely';
import type { CategoryValue } from '../../../../contract/categories';
import type { StoredStatus } from '../../../../contract/resources';
import { foldForSearch } from '../../../../contract/search-fold';
import { tagKeys } from '../mappers';

/**
 * How a search is planned, whatever the database (docs/search.md). A search is a text, tags (any
 * of them) or both, in a category or across all; a plain list is neither. Its total is counted up
 * to a cap; the count also says how a page finds its rows (PageStrategy).
 */

/** What to search for, folded (foldForSearch) as the stored search text is. */
export interface SearchFilter {
  category?: CategoryValue;
  /** A substring of the title, the description or a tag; undefined when none (or nothing is left after folding). */
  text?: string;
  /** Tag keys: a row matches when it has any of them. */
  tags: string[];
  /** Admin list: one resource by id (a plain narrowing, no index strategy). */
  id?: number;
  /**
   * Only resources of this status, checked on each row read (and counted in resources_public_count).
   * The public lists always give PUBLIC_STATUS (visibility.ts); the admin list its status filter, or
   * UNTRASHED without one (the trash has its own page).
   */
  status?: StatusScope;
  /** Admin list: only resources with a broken external link now (modules/links; checked on each row read). */
  brokenLinks?: boolean;
  /** The public list's fact filters (filters.ts factConditions), checked on each row a page reads. */
  factConditions?: RawBuilder<SqlBool>[];
}

/** The admin list without a status filter: every resource but those in the trash (visibility.ts notTrashedSql). */
export const UNTRASHED = 'untrashed';
export type StatusScope = StoredStatus | typeof UNTRASHED;

/** The filter as asked (q and tags as typed), folded. */
export function searchFilter(asked: { category?: CategoryValue; q?: string; tags?: string[]; id?: number; status?: StatusScope; brokenLinks?: boolean }): SearchFilter {
  const text = asked.q === undefined ? '' : foldForSearch(asked.q);
  return {
    category: asked.category,
    text: text || undefined,
    tags: asked.tags ? tagKeys(asked.tags) : [],
    id: asked.id,
    status: asked.status,
    ...(asked.brokenLinks ? { brokenLinks: true } : {}),
  };
}

export function isSearch(f: SearchFilter): boolean {
  return f.text !== undefined || f.tags.length > 0;
}

/** A trigram index needs at least three characters (code points) of text to narrow anything down. */
export function textUsesIndex(text: string): boolean {
  return [...text].length >= 3;
}

/** A 1–2 character text: no index narrows it; its rows are read and checked, a bounded number of them. */
export function hasShortText(f: SearchFilter): f is SearchFilter & { text: string } {
  return f.text !== undefined && !textUsesIndex(f.text);
}

/**
 * The bounds of a search. One set serves production (SEARCH_LIMITS); tests build a search with
 * smaller ones to reach the capped total and each page strategy with a few rows.
 */
export interface SearchLimits {
  /**
   * A search counts its matches exactly up to this many; beyond, the total is "at least this many"
   * (`totalExact: false`, shown "1,000+"): counting 100,000 matches exactly does not fit a search's
   * time budget, least of all on PostgreSQL (GIN has no index-only scans). Plain lists keep exact totals.
   */
  countCap: number;
  /**
   * Up to this many matches, a page is found from the matches themselves ('sort-matches': gathered
   * from the index and sorted). SQLite decides it from the FTS5 count; PostgreSQL when its count
   * read the matches' ids (at most min(countCap, this)).
   */
  sortMatchesMax: number;
  /**
   * SQLite: up to this many matches (beyond sortMatchesMax), a page walks the sort index keeping the
   * ids found in a set of the matches read once from FTS5 ('walk-match-set'): the walk stays inside
   * the index and reads no row before it matches. Beyond it matches are dense, and a walk checking
   * rows meets a page sooner than counting further and building the set would.
   */
  matchSetMax: number;
  /**
   * A 1–2 character text: its count reads at most this many rows of the scope (a category, or all);
   * when the scope is larger, the total is "at least" what those rows hold.
   */
  shortTextCountScan: number;
  /**
   * A 1–2 character text: a page walks at most this many rows of the sort index after the cursor;
   * when they hold less than a page, the page is returned short with a cursor after the last row
   * read, so the next request continues there (no gap, no repeat). Either way a request costs a
   * bounded amount of work, even for a text nothing contains.
   */
  shortTextPageScan: number;
  /**
   * PostgreSQL, a text alone that the sample says is common: its count first reads this many of the
   * scope's first rows (all: in storage order; a category: its newest), more when the sample says it
   * takes more to meet the cap (postgres.ts, DENSE_READ_MAX).
   */
  denseScan: { all: number; category: number };
}

export const SEARCH_LIMITS: SearchLimits = {
  countCap: 1000,
  sortMatchesMax: 1000,
  matchSetMax: 5000,
  shortTextCountScan: 10_000,
  shortTextPageScan: 2000,
  denseScan: { all: 10_000, category: 5_000 },
};

/**
 * How a page finds its rows. 'sort-matches': start from the search's matches (the text index, the
 * tag index, or the ids the count read) and sort them. 'walk-match-set' (SQLite): walk the sort
 * index keeping ids found in a set of the matches read from the text index. 'walk-checking-rows':
 * walk the sort index (a category's, or the global one) and check each row — a plain list, a search
 * with many matches, a 1–2 character text.
 */
export type PageStrategy = 'sort-matches' | 'walk-match-set' | 'walk-checking-rows';

/** A search's total and how its pages find their rows. */
export interface SearchPlan {
  total: number;
  exact: boolean;
  strategy: PageStrategy;
}

/** A count's answer: the plan, and when the count read the matches' ids (few of them), those ids, to take the first page from. */
export interface CountedPlan extends SearchPlan {
  matchIds?: number[];
}

/**
 * The strategy for a count's outcome. `fewMatches`: at most sortMatchesMax; `matchSetFits`
 * (SQLite): at most matchSetMax. A 1–2 character text alone always walks (no index to start from);
 * a walk against a set of matches needs the whole filter in the text index.
 */
export function chooseStrategy(f: SearchFilter, fewMatches: boolean, matchSetFits = false): PageStrategy {
  if (!isSearch(f)) return 'walk-checking-rows';
  if (hasShortText(f) && f.tags.length === 0) return 'walk-checking-rows';
  if (fewMatches) return 'sort-matches';
  return matchSetFits && !hasShortText(f) ? 'walk-match-set' : 'walk-checking-rows';
}
