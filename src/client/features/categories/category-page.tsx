import { type CategoryInfo, getCategory, slugToCategory } from '@contract/categories';
import { useLocation, useParams } from 'react-router';
import { NotFoundPanel } from '@/components/not-found';
import { usePageMeta } from '@/lib/site-api';
import { type ResourceFilters, useResources } from './api/get-resources';
import { CategoryHeader } from './category-header';
import { FilterBar } from './filter-bar';
import { ResourceResults } from './resource-results';
import { useCategoryFilters } from './use-category-filters';

function publicCategory(slug: string | undefined): CategoryInfo | undefined {
  const value = slug ? slugToCategory(slug) : undefined;
  const info = value ? getCategory(value) : undefined;
  return info?.isPublic ? info : undefined;
}

export default function CategoryPage() {
  const { slug } = useParams();
  const { pathname } = useLocation();
  usePageMeta(pathname);
  const category = publicCategory(slug);
  if (!category) return <CategoryNotFound />;
  // A new category is a new page: its filters and list start fresh.
  return <CategoryView key={category.value} category={category} />;
}

function CategoryView({ category }: { category: CategoryInfo }) {
  const filters = useCategoryFilters(category);
  const query: ResourceFilters = { category: category.value, q: filters.q, tags: filters.tags, sort: filters.sort, ...filters.facts };
  const list = useResources(query);

  return (
    <main id="main" className="min-h-screen bg-background pb-24">
      <CategoryHeader category={category} />
      <FilterBar category={category} filters={filters} facets={list.data?.pages[0]?.facets} />
      <ResourceResults query={query} list={list} filters={filters} />
    </main>
  );
}

function CategoryNotFound() {
  return <NotFoundPanel message="This category does not exist. It may have moved, or the link may be mistyped." />;
}
