import { type CategoryValue, PUBLIC_CATEGORIES } from '@contract/categories';
import { foldForSearch } from '@contract/search-fold';
import { ArrowRight, ArrowUpRight, AudioLines, Camera, Clapperboard, type LucideIcon, Palette, Search, Sparkles, Swords, Type, X } from 'lucide-react';
import * as React from 'react';
import { useNavigate } from 'react-router';
import { Link } from '@/lib/link';
import { Badge, Input, Skeleton } from '@/components/ui/primitives';
import { useTypedBeforeHydration } from '@/lib/hydration';
import { formatCount, formatNumber } from '@/lib/format';
import { paths } from '@/lib/paths';
import { useCategories } from '@/lib/site-api';
import { cn } from '@/lib/utils';

const ICONS: Partial<Record<CategoryValue, LucideIcon>> = {
  video_editing: Clapperboard,
  photo_editing: Camera,
  sound_effects: AudioLines,
  color_grading: Palette,
  typography: Type,
  motion_graphics: Sparkles,
  anime_edits: Swords,
};

/** The one full-width card with the 'New' badge. */
const FEATURED: CategoryValue = 'anime_edits';


/** The public categories whose title, description or a tag holds the query, folded by the one rule of every search (contract/search-fold.ts). */
export function categoriesMatching(query: string) {
  const needle = foldForSearch(query.trim());
  if (!needle) return PUBLIC_CATEGORIES;
  return PUBLIC_CATEGORIES.filter(
    (c) => foldForSearch(c.title).includes(needle) || foldForSearch(c.description).includes(needle) || c.tags.some((t) => foldForSearch(t).includes(needle)),
  );
}

export function CategoriesSection() {
  const counts = useCategories();
  const [query, setQuery] = React.useState('');
  const navigate = useNavigate();
  const searchId = React.useId();
  const input = React.useRef<HTMLInputElement>(null);
  useTypedBeforeHydration(input, query, setQuery);

  const countOf = React.useMemo(() => {
    const map = new Map(counts.data?.items.map((c) => [c.value, c.count]));
    return (value: CategoryValue) => map.get(value);
  }, [counts.data]);

  const total = counts.data ? PUBLIC_CATEGORIES.reduce((sum, c) => sum + (countOf(c.value) ?? 0), 0) : undefined;

  const shown = categoriesMatching(query);

  return (
    <section id="categories" aria-labelledby="categories-heading" className="relative scroll-mt-20 px-4 py-20 sm:px-6">
      <div className="mx-auto max-w-6xl">
        <div className="mx-auto mb-10 max-w-2xl text-center">
          <h2 id="categories-heading" className="text-3xl font-bold tracking-tight sm:text-4xl">
            Browse Categories
          </h2>
          <p className="mt-3 text-muted-foreground">
            Discover {PUBLIC_CATEGORIES.length} unique categories with{' '}
            {total === undefined ? (
              counts.isError ? (
                'hundreds of'
              ) : (
                <Skeleton aria-hidden="true" className="inline-block h-4 w-12 translate-y-0.5" />
              )
            ) : (
              `${formatNumber(total)}+`
            )}{' '}
            resources
          </p>
        </div>

        <form
          className="relative mx-auto max-w-xl"
          onSubmit={(e) => {
            // Enter searches every resource: the cards filter as one types.
            e.preventDefault();
            if (query.trim()) void navigate(paths.search(query));
          }}
        >
          <label htmlFor={searchId} className="sr-only">
            Search categories
          </label>
          <Search aria-hidden="true" className="pointer-events-none absolute left-4 top-1/2 size-5 -translate-y-1/2 text-muted-foreground" />
          <Input
            ref={input}
            id={searchId}
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="Search categories or resources..."
            autoComplete="off"
            // Room for the clear button only when it shows: the placeholder needs the width on a phone.
            className={cn('home-glass h-12 rounded-full pl-11 text-base [&::-webkit-search-cancel-button]:hidden', query ? 'pr-12' : 'pr-4')}
          />
          {query && (
            <button
              type="button"
              onClick={() => setQuery('')}
              aria-label="Clear search"
              className="absolute right-3 top-1/2 grid size-8 -translate-y-1/2 cursor-pointer place-items-center rounded-full text-muted-foreground hover:bg-muted hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              <X className="size-4" aria-hidden="true" />
            </button>
          )}
        </form>
        {/* The same height with or without the link, so the cards below do not jump as one types. */}
        <p className="mb-4 mt-2 flex min-h-6 justify-center text-sm">
          {query.trim() && <SearchAllLink query={query} />}
        </p>

        {shown.length > 0 ? (
          <ul className="grid grid-cols-1 gap-5 md:grid-cols-2 lg:grid-cols-3" aria-label="Categories">
            {shown.map((c) => (
              <CategoryCard key={c.value} category={c} count={countOf(c.value)} loading={counts.isPending} />
            ))}
          </ul>
        ) : (
          <div role="status" className="home-glass mx-auto max-w-md rounded-2xl p-8 text-center">
            <Search aria-hidden="true" className="mx-auto mb-3 size-8 text-muted-foreground" />
            <p className="font-semibold">No categories match “{query.trim()}”</p>
            <p className="mt-1 text-sm text-muted-foreground">Try another word, like AMV, LUTs or Fonts, or search the resources themselves.</p>
          </div>
        )}
      </div>
    </section>
  );
}

/** The home box's way from the category cards to the resources themselves (`/search?q=…`). */
function SearchAllLink({ query }: { query: string }) {
  return (
    <Link
      to={paths.search(query)}
      className="inline-flex max-w-full items-center gap-1.5 rounded-full px-3 py-0.5 font-medium text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      <Search aria-hidden="true" className="size-4 shrink-0" />
      <span className="truncate">Search all resources for “{query.trim()}”</span>
      <ArrowRight aria-hidden="true" className="size-4 shrink-0" />
    </Link>
  );
}

function CategoryCard({
  category,
  count,
  loading,
}: {
  category: (typeof PUBLIC_CATEGORIES)[number];
  count: number | undefined;
  loading: boolean;
}) {
  const featured = category.value === FEATURED;
  const Icon = ICONS[category.value] ?? Sparkles;
  return (
    <li className={cn(featured && 'md:col-span-2 lg:col-span-3')}>
      <Link
        to={paths.category(category.value)}
        className={cn(
          'home-glass group relative flex h-full flex-col overflow-hidden rounded-2xl p-6 transition-all duration-300',
          'hover:-translate-y-1 hover:shadow-xl focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/60',
          featured && 'md:flex-row md:items-center md:gap-8',
        )}
      >
        {/* The category's colour: a soft wash behind the card and a solid tile for the icon. */}
        <span
          aria-hidden="true"
          className={cn(
            'pointer-events-none absolute inset-0 bg-gradient-to-br opacity-[0.07] transition-opacity duration-300 group-hover:opacity-[0.14] dark:opacity-[0.12] dark:group-hover:opacity-20',
            category.gradient,
          )}
        />
        <span aria-hidden="true" className={cn('absolute inset-x-0 top-0 h-1 bg-gradient-to-r', category.gradient)} />
        <div className={cn('relative flex items-start justify-between gap-3', featured && 'md:shrink-0')}>
          <span className={cn('grid size-12 place-items-center rounded-xl bg-gradient-to-br text-white shadow-lg', category.gradient, featured && 'md:size-16')}>
            <Icon className={cn('size-6', featured && 'md:size-8')} aria-hidden="true" />
          </span>
        </div>
        <div className={cn('relative mt-5 flex flex-1 flex-col', featured && 'md:mt-0')}>
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="text-xl font-bold">{category.title}</h3>
            {featured && (
              <Badge className="border-transparent bg-gradient-to-r from-fuchsia-600 to-purple-700 text-white">New</Badge>
            )}
            {loading ? (
              <Skeleton data-testid="count-skeleton" className="h-[22px] w-24 rounded-full" />
            ) : count !== undefined ? (
              <Badge variant="secondary" className="tabular-nums">
                {formatCount(count, 'resource')}
              </Badge>
            ) : null}
          </div>
          <p className="mt-2 text-sm text-muted-foreground">{category.description}</p>
          <ul className="mt-4 flex flex-wrap gap-1.5" aria-label={`${category.title} tags`}>
            {category.tags.map((tag) => (
              <li key={tag} className="rounded-full border bg-background/60 px-2.5 py-0.5 text-xs font-medium">
                {tag}
              </li>
            ))}
          </ul>
        </div>
        <ArrowUpRight
          aria-hidden="true"
          className="absolute bottom-5 right-5 size-5 text-muted-foreground opacity-0 transition-all duration-300 group-hover:-translate-y-0.5 group-hover:translate-x-0.5 group-hover:opacity-100"
        />
      </Link>
    </li>
  );
}
