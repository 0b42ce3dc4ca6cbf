import { Search } from 'lucide-react';
import { type CategoryValue, PUBLIC_CATEGORIES } from '@contract/categories';
import type { ResourceFacets } from '@contract/resources';
import { useLocation, useSearchParams } from 'react-router';
import { Breadcrumb } from '@/components/ui/breadcrumb';
import { paths } from '@/lib/paths';
import { usePageMeta } from '@/lib/site-api';
import { cn } from '@/lib/utils';
import { type ResourceFilters, useResources } from './api/get-resources';
import { countLabel } from './fact-filters';
import { FacetFilters } from './facet-filters';
import { SearchBox, SortSelect } from './filter-bar';
import { ResourceResults } from './resource-results';
import { searchFiltersFromParams, useCategoryFilters } from './use-category-filters';

/**
 * The search of every category (`/search?q=…`, issue 33): the matching resources with the category
 * of each, narrowed by a category chosen from its counts and by the same filters and sort as a
 * category page, all in the URL. Server-rendered with its results, never indexed
 * (docs/decisions/451-one-search-page.md).
 */
export default function SearchPage() {
  const { pathname } = useLocation();
  const [params, setParams] = useSearchParams();
  const filters = useCategoryFilters();
  const { category } = searchFiltersFromParams(params);
  usePageMeta(pathname, { title: filters.q ? `Search: ${filters.q}` : 'Search' });
  const query: ResourceFilters = { category, q: filters.q, tags: [], sort: filters.sort, ...filters.facts };
  const list = useResources(query, { acrossCategories: true });
  const facets = list.data?.pages[0]?.facets;

  const setCategory = (value: CategoryValue | undefined) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value) next.set('category', value);
        else next.delete('category');
        return next;
      },
      { preventScrollReset: true },
    );

  return (
    <main id="main" className="min-h-screen bg-background pb-24">
      <header className="border-b bg-gradient-to-b from-primary/10 to-background">
        <div className="mx-auto max-w-7xl px-4 pb-8 pt-8 sm:px-6 sm:pt-12 lg:px-8">
          <Breadcrumb
            className="mb-4 text-sm text-muted-foreground"
            linkClassName="hover:text-foreground hover:underline"
            currentClassName="font-medium text-foreground"
            trail={[{ label: 'Home', to: paths.home }, { label: 'Search' }]}
          />
          <h1 className="flex items-center gap-3 text-3xl font-extrabold tracking-tight sm:text-4xl">
            <Search aria-hidden="true" className="size-7 shrink-0 text-primary sm:size-8" />
            {filters.q ? <span className="min-w-0 break-words">Results for “{filters.q}”</span> : 'Search all resources'}
          </h1>
          <SearchBox value={filters.q} onSearch={filters.setQuery} placeholder="Search all resources..." className="mt-6 max-w-2xl" />
        </div>
      </header>

      <div className="sticky top-16 z-30 border-b bg-background/85 shadow-sm backdrop-blur-xl supports-[backdrop-filter]:bg-background/70">
        {/* Phones: the categories, then sort beside the "Filters" button. Wider: categories and sort, the filters below. */}
        <div className="mx-auto grid max-w-7xl grid-cols-[auto_minmax(0,1fr)] items-start gap-x-2 gap-y-2.5 px-4 py-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:gap-x-3 sm:px-6 lg:px-8">
          <CategoryCounts category={category} facets={facets} total={category === undefined ? list.data?.pages[0] : undefined} onChoose={setCategory} className="col-span-2 sm:col-span-1" />
          <SortSelect value={filters.sort} onChange={filters.setSort} className="col-start-1 row-start-2 sm:col-start-2 sm:row-start-1" />
          <FacetFilters
            facts={filters.facts}
            facets={facets}
            onChange={filters.setFacts}
            buttonClassName="col-start-2 row-start-2"
            panelClassName="col-span-2 sm:row-start-2"
          />
        </div>
      </div>

      <ResourceResults
        query={query}
        list={list}
        filters={filters}
        showCategory
        emptyHint={filters.q ? 'Try other words, or fewer filters.' : 'Try a search, or fewer filters.'}
      />
    </main>
  );
}

/**
 * "All" and each category with how many of the results it holds (facets.category): choosing one
 * narrows to it. Without counts yet, every public category is offered. With no category chosen,
 * "All" is the list's own total, so it reads as the results' count does (decision 465).
 */
function CategoryCounts({
  category,
  facets,
  total,
  onChoose,
  className,
}: {
  category: CategoryValue | undefined;
  facets: ResourceFacets | undefined;
  total: { total: number; totalExact: boolean } | undefined;
  onChoose(value: CategoryValue | undefined): void;
  className?: string;
}) {
  const counts = facets ? new Map(facets.category.map((f) => [f.value, f.count])) : undefined;
  const all = total && counts ? { n: total.total, exact: total.totalExact } : counts && { n: [...counts.values()].reduce((a, b) => a + b, 0), exact: facets?.exact };
  const shown = PUBLIC_CATEGORIES.filter((c) => !counts || counts.has(c.value) || c.value === category);
  const chip = (on: boolean) =>
    cn(
      'inline-flex h-8 shrink-0 cursor-pointer items-center gap-1.5 rounded-full border px-3.5 text-sm font-medium transition-all focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
      on ? 'border-transparent bg-primary text-primary-foreground shadow-md shadow-primary/25' : 'bg-card text-foreground hover:border-primary/40 hover:bg-accent',
    );
  const count = (n: number | undefined, on: boolean, exact = facets?.exact) =>
    n !== undefined && <span className={cn('tabular-nums', on ? 'text-primary-foreground/80' : 'text-muted-foreground')}>{countLabel(n, exact)}</span>;
  return (
    <div
      role="group"
      aria-label="Filter by category"
      className={cn(
        '-my-1 -mr-4 flex gap-2 overflow-x-auto py-1 pl-1 -ml-1 pr-4 [mask-image:linear-gradient(to_right,black_85%,transparent)] [scrollbar-width:none] sm:mx-0 sm:my-0 sm:flex-wrap sm:overflow-visible sm:p-0 sm:[mask-image:none]',
        className,
      )}
    >
      <button type="button" aria-pressed={category === undefined} onClick={() => onChoose(undefined)} className={chip(category === undefined)}>
        All categories {count(all?.n, category === undefined, all?.exact)}
      </button>
      {shown.map((c) => {
        const on = c.value === category;
        return (
          <button key={c.value} type="button" aria-pressed={on} onClick={() => onChoose(on ? undefined : c.value)} className={chip(on)}>
            {c.title} {count(counts?.get(c.value) ?? (counts ? 0 : undefined), on)}
          </button>
        );
      })}
    </div>
  );
}
