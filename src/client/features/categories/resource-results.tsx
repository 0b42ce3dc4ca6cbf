import { useQueryClient } from '@tanstack/react-query';
import { FilterX } from 'lucide-react';
import { SKELETON_COUNT } from '@contract/constants';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/primitives';
import { toast } from '@/components/ui/use-toast';
import { formatNumber } from '@/lib/format';
import { HydrationBoundary } from '@/lib/hydration';
import { cn } from '@/lib/utils';
import { type ResourceFilters, resourcesQueryOptions, type useResources } from './api/get-resources';
import { FactChips } from './facet-filters';
import { ResourceCard, ResourceCardSkeleton } from './resource-card';
import { EmptyState, ErrorState, LOAD_ERROR_MESSAGE } from './resource-states';
import { type CategoryFilters, SORT_LABELS } from './use-category-filters';

/**
 * The first card's picture loads at once: it is the largest paint on every grid width. The others
 * load when near the viewport, so on a phone the two beside it on a desktop's first row do not share
 * the network with it (docs/performance.md, "Pages: budgets and Lighthouse").
 */
const EAGER_CARDS = 1;
/** Cards past the first row on the widest grid are laid out and painted only when near the viewport. */
const FIRST_ROW_CARDS = 3;
/** Cards hydrated per commit (HydrationBoundary groups). */
const CARDS_PER_HYDRATION = 6;

/**
 * A list of resources as a category page and the search page show it: the count, the chosen
 * filters, the cards with "Load more", and the loading, empty and error states.
 * `showCategory`: each card says its category (the search page lists every category).
 */
export function ResourceResults({
  query,
  list,
  filters,
  showCategory = false,
  emptyHint,
}: {
  query: ResourceFilters;
  list: ReturnType<typeof useResources>;
  filters: CategoryFilters;
  showCategory?: boolean;
  /** The empty state's line (EmptyState's default otherwise). */
  emptyHint?: string;
}) {
  const queryClient = useQueryClient();
  React.useEffect(() => {
    if (list.isError) toast({ title: 'Error', description: LOAD_ERROR_MESSAGE, variant: 'destructive' });
  }, [list.isError, list.errorUpdatedAt]);

  // Pages are keyset-paginated, so an item never repeats; a row changing between pages could, hence the guard.
  const items = React.useMemo(() => {
    const byId = new Map((list.data?.pages ?? []).flatMap((p) => p.items).map((r) => [r.id, r]));
    return [...byId.values()];
  }, [list.data]);
  const total = list.data?.pages[0]?.total ?? 0;
  // A 1–2 character search reads a bounded stretch of the catalogue per request, so a page can come
  // back empty with more to read: keep reading (skeletons stay) until something shows or nothing is left.
  const readingOn = items.length === 0 && list.hasNextPage && !list.isError;
  React.useEffect(() => {
    if (readingOn && !list.isFetching) void list.fetchNextPage();
  }, [readingOn, list.isFetching, list]);
  const resultsRef = React.useRef<HTMLElement>(null);
  useScrollBackOnFilterChange(resultsRef, JSON.stringify(query));
  const failed = list.isError && !list.isFetchNextPageError;
  const updating = list.isPlaceholderData;
  const loading = list.isPending || readingOn;
  const empty = !loading && !failed && items.length === 0;

  return (
    <section
      ref={resultsRef}
      aria-labelledby="results-heading"
      className="mx-auto max-w-7xl scroll-mt-48 px-4 pt-6 sm:px-6 sm:pt-8 lg:px-8"
    >
      <div className="mb-6 flex min-h-9 flex-wrap items-center justify-between gap-3">
        <h2 id="results-heading" className="text-sm text-muted-foreground" aria-live="polite">
          {list.isPending || failed ? (
            <span className="sr-only">Resources</span>
          ) : updating ? (
            // The cards on screen are the last search's: their count is not this one's.
            <span className="inline-flex items-center gap-2">
              <Spinner />
              {filters.q ? (
                <span>
                  Searching for <span className="font-semibold text-foreground">“{filters.q}”</span>…
                </span>
              ) : (
                'Updating results…'
              )}
            </span>
          ) : (
            <>
              <span className="font-semibold text-foreground">{formatNumber(total)}{list.data?.pages[0]?.totalExact === false && '+'}</span>{' '}
              {total === 1 ? 'resource' : 'resources'}
              {filters.q && (
                <>
                  {' '}
                  for <span className="font-semibold text-foreground">“{filters.q}”</span>
                </>
              )}
              <span className="hidden sm:inline">
                {' · '}
                {SORT_LABELS[filters.sort]}
              </span>
            </>
          )}
        </h2>
        <div className="flex flex-wrap items-center gap-2">
          <FactChips facts={filters.facts} onChange={filters.setFacts} />
          {/* With no results, the empty state's own button clears them. */}
          {filters.active && !empty && (
            <Button variant="ghost" size="sm" onClick={filters.clear}>
              <FilterX aria-hidden="true" />
              Clear filters
            </Button>
          )}
        </div>
      </div>

      {loading ? (
        <div role="status" aria-label="Loading resources" className="grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-3">
          {Array.from({ length: SKELETON_COUNT }, (_, i) => (
            <ResourceCardSkeleton key={i} />
          ))}
        </div>
      ) : failed ? (
        <ErrorState onRetry={() => void queryClient.resetQueries({ queryKey: resourcesQueryOptions(query).queryKey, exact: true })} />
      ) : empty ? (
        <EmptyState onClear={filters.active ? filters.clear : undefined} hint={emptyHint} />
      ) : (
        <>
          <ul
            aria-label="Resources"
            aria-busy={updating}
            className={cn(
              'grid grid-cols-1 gap-6 transition-opacity md:grid-cols-2 lg:grid-cols-3',
              updating && 'pointer-events-none opacity-60',
            )}
          >
            {items.map((r, i) => (
              <li key={r.id}>
                {/* Cards hydrate a few at a time: 24 of them in one commit would block for too long. */}
                <HydrationBoundary order={Math.floor(i / CARDS_PER_HYDRATION)}>
                  <ResourceCard resource={r} eager={i < EAGER_CARDS} renderNearViewport={i >= FIRST_ROW_CARDS} showCategory={showCategory} />
                </HydrationBoundary>
              </li>
            ))}
          </ul>
          <div className="mt-12 flex flex-col items-center gap-4">
            <p className="text-sm text-muted-foreground">
              Showing {formatNumber(items.length)} of {formatNumber(total)}{list.data?.pages[0]?.totalExact === false && '+'}
            </p>
            {list.hasNextPage && (
              <Button variant="outline" size="lg" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage || updating} className="min-w-44 rounded-full">
                {list.isFetchingNextPage && <Spinner />}
                {list.isFetchingNextPage ? 'Loading...' : 'Load more'}
              </Button>
            )}
          </div>
        </>
      )}
    </section>
  );
}


/**
 * A visitor deep in the list who changes a filter would otherwise be left looking at the footer
 * of a shorter list: bring the top of the new results under the sticky filter bar.
 */
function useScrollBackOnFilterChange(ref: React.RefObject<HTMLElement | null>, filterKey: string) {
  const last = React.useRef(filterKey);
  React.useEffect(() => {
    if (last.current === filterKey) return;
    last.current = filterKey;
    const el = ref.current;
    if (el && el.getBoundingClientRect().top < 0) el.scrollIntoView({ block: 'start' });
  }, [ref, filterKey]);
}

