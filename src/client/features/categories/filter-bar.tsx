import { ArrowUpDown, Check, ChevronDown, Search } from 'lucide-react';
import type { CategoryInfo } from '@contract/categories';
import { SEARCH_MAX, SORT_OPTIONS } from '@contract/constants';
import type { ResourceFacets, Sort } from '@contract/resources';
import * as React from 'react';
import { Input } from '@/components/ui/primitives';
import { useTypedBeforeHydration } from '@/lib/hydration';
import { cn } from '@/lib/utils';
import { FacetFilters } from './facet-filters';
import { SORT_LABELS, type CategoryFilters } from './use-category-filters';

/** Long enough to wait out a word being typed, short enough to feel live. */
export const SEARCH_DEBOUNCE_MS = 300;

export function FilterBar({ category, filters, facets }: { category: CategoryInfo; filters: CategoryFilters; facets: ResourceFacets | undefined }) {
  return (
    <div className="sticky top-16 z-30 border-b bg-background/85 shadow-sm backdrop-blur-xl supports-[backdrop-filter]:bg-background/70">
      {/* Phones: search on top, then sort beside the scrolling chips. Wider: search and sort, chips below. */}
      <div className="mx-auto grid max-w-7xl grid-cols-[auto_minmax(0,1fr)] items-center gap-x-2 gap-y-2.5 px-4 py-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:gap-x-3 sm:gap-y-3 sm:px-6 lg:px-8">
        <SearchBox
          value={filters.q}
          onSearch={filters.setQuery}
          placeholder={`Search ${category.title.toLowerCase()}...`}
          className="col-span-2 sm:col-span-1 sm:col-start-1 sm:row-start-1"
        />
        <SortSelect value={filters.sort} onChange={filters.setSort} className="col-start-1 row-start-2 sm:col-start-2 sm:row-start-1" />
        <TagChips
          tags={category.tags}
          selected={filters.tags}
          onToggle={filters.toggleTag}
          className="col-start-2 row-start-2 sm:col-span-2 sm:col-start-1"
        />
        <FacetFilters facts={filters.facts} facets={facets} onChange={filters.setFacts} buttonClassName="col-span-2" panelClassName="col-span-2" />
      </div>
    </div>
  );
}

/**
 * The input keeps its own text and commits it to the URL after a pause (or on Enter). A URL
 * change it did not make (Back, Clear filters) replaces the text.
 */
export function SearchBox({
  value,
  onSearch,
  placeholder,
  className,
}: {
  value: string;
  onSearch(q: string): void;
  placeholder: string;
  className?: string;
}) {
  const [text, setText] = React.useState(value);
  // What this box last sent to the URL, and the last URL value it saw.
  const [sent, setSent] = React.useState(value);
  const [seen, setSeen] = React.useState(value);
  if (value !== seen) {
    setSeen(value);
    if (value !== sent) {
      setSent(value);
      setText(value);
    }
  }

  const send = (q: string) => {
    setSent(q);
    onSearch(q);
  };
  const sendLater = React.useEffectEvent(send);

  // Text typed into the server-rendered box before the app hydrated it is kept (and searched for).
  const input = React.useRef<HTMLInputElement>(null);
  useTypedBeforeHydration(input, text, setText);

  React.useEffect(() => {
    const q = text.trim();
    if (q === sent) return;
    const timer = setTimeout(() => sendLater(q), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, sent]);

  return (
    <form
      role="search"
      className={cn('relative', className)}
      onSubmit={(e) => {
        e.preventDefault();
        const q = text.trim();
        if (q !== sent) send(q);
      }}
    >
      <label htmlFor="resource-search" className="sr-only">
        Search resources
      </label>
      <Search aria-hidden="true" className="pointer-events-none absolute left-3.5 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
      <Input
        ref={input}
        id="resource-search"
        type="search"
        value={text}
        maxLength={SEARCH_MAX}
        autoComplete="off"
        enterKeyHint="search"
        placeholder={placeholder}
        onChange={(e) => setText(e.target.value)}
        className="h-11 rounded-xl bg-card pl-10 text-base shadow-sm sm:text-sm"
      />
    </form>
  );
}

export function SortSelect({ value, onChange, className }: { value: Sort; onChange(sort: Sort): void; className?: string }) {
  return (
    <div className={cn('relative', className)}>
      <label htmlFor="resource-sort" className="sr-only">
        Sort by
      </label>
      <ArrowUpDown aria-hidden="true" className="pointer-events-none absolute left-2.5 top-1/2 size-4 -translate-y-1/2 text-muted-foreground sm:left-3" />
      <select
        id="resource-sort"
        value={value}
        onChange={(e) => onChange(e.target.value as Sort)}
        className="h-8 cursor-pointer appearance-none rounded-full border border-input bg-card pl-8 pr-8 text-sm font-medium shadow-sm transition-colors hover:bg-accent focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 sm:h-11 sm:w-48 sm:rounded-xl sm:pl-9 sm:pr-9"
      >
        {SORT_OPTIONS.map((s) => (
          <option key={s} value={s}>
            {SORT_LABELS[s]}
          </option>
        ))}
      </select>
      <ChevronDown aria-hidden="true" className="pointer-events-none absolute right-2.5 top-1/2 size-4 -translate-y-1/2 text-muted-foreground sm:right-3" />
    </div>
  );
}

function TagChips({
  tags,
  selected,
  onToggle,
  className,
}: {
  tags: readonly string[];
  selected: string[];
  onToggle(tag: string): void;
  className?: string;
}) {
  return (
    <div
      role="group"
      aria-label="Filter by tag"
      // One scrollable row on phones keeps the sticky bar short (the fade says there is more); wraps on wider screens.
      className={cn(
        '-my-1 -mr-4 flex gap-2 overflow-x-auto py-1 pl-1 -ml-1 pr-4 [mask-image:linear-gradient(to_right,black_85%,transparent)] [scrollbar-width:none] sm:mx-0 sm:my-0 sm:flex-wrap sm:overflow-visible sm:p-0 sm:[mask-image:none]',
        className,
      )}
    >
      {tags.map((tag) => {
        const on = selected.includes(tag);
        return (
          <button
            key={tag}
            type="button"
            aria-pressed={on}
            onClick={() => onToggle(tag)}
            className={cn(
              'inline-flex h-8 shrink-0 cursor-pointer items-center gap-1.5 rounded-full border px-3.5 text-sm font-medium transition-all focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
              on
                ? 'border-transparent bg-primary text-primary-foreground shadow-md shadow-primary/25'
                : 'bg-card text-foreground hover:border-primary/40 hover:bg-accent hover:text-accent-foreground',
            )}
          >
            {on && <Check aria-hidden="true" className="size-3.5" />}
            {tag}
          </button>
        );
      })}
    </div>
  );
}
