import { type CategoryValue, formatCategoryTitle } from '@contract/categories';
import type { Resource } from '@contract/resources';
import { ChevronLeft, ChevronRight, ExternalLink, FileQuestion, Pencil, Plus, Search, Trash2 } from 'lucide-react';
import * as React from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Badge, Card, Input, Skeleton } from '@/components/ui/primitives';
import { toast } from '@/components/ui/use-toast';
import { paths } from '@/lib/paths';
import { useDeleteResource } from '../api/delete-resource';
import { useResources } from '../api/get-resources';
import { BackToDashboard } from '../components/back-to-dashboard';
import { ConfirmDialog } from '../components/confirm-dialog';
import { PageHeader } from '../components/page-header';
import { QueryError } from '../components/query-error';
import { useAdminTitle } from '../components/use-admin-title';
import { useErrorToast } from '../components/use-error-toast';
import { errorMessage, isSessionError } from '../lib/errors';
import { formatNumber, formatShortDate } from '../lib/format';
import { UnknownCategory } from './unknown-category';
import { useCategoryParam } from './use-category-param';

/** Rows per table page: categories hold hundreds of resources. */
const ROWS_PER_PAGE = 25;

export function ResourceListPage() {
  const { raw, category } = useCategoryParam();
  if (!category) return <UnknownCategory value={raw} />;
  return <ResourceList category={category} />;
}

function ResourceList({ category }: { category: CategoryValue }) {
  const title = formatCategoryTitle(category);
  useAdminTitle(`${title} Resources`);
  const resources = useResources(category);
  useErrorToast(resources.error, 'Failed to fetch resources');
  const remove = useDeleteResource();
  const [pendingDelete, setPendingDelete] = React.useState<Resource | null>(null);

  const confirmDelete = () => {
    if (!pendingDelete) return;
    remove.mutate(
      { id: pendingDelete.id, category },
      {
        onSuccess: () => toast({ title: 'Resource deleted successfully', variant: 'success' }),
        onError: (err) => {
          if (!isSessionError(err)) toast({ title: 'Failed to delete resource', description: errorMessage(err), variant: 'destructive' });
        },
        onSettled: () => setPendingDelete(null),
      },
    );
  };

  const items = resources.data?.items;
  // Search and page live in the URL so Back and shared links keep them.
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const filtered = React.useMemo(() => filterResources(items, query), [items, query]);
  const pageCount = Math.max(1, Math.ceil((filtered?.length ?? 0) / ROWS_PER_PAGE));
  const page = Math.min(pageCount, Math.max(1, Number(params.get('page')) || 1));
  const rows = filtered?.slice((page - 1) * ROWS_PER_PAGE, page * ROWS_PER_PAGE);
  const update = (next: { q?: string; page?: number }) => {
    const p = new URLSearchParams(params);
    if (next.q !== undefined) {
      if (next.q) p.set('q', next.q);
      else p.delete('q');
      p.delete('page');
    }
    if (next.page !== undefined) {
      if (next.page > 1) p.set('page', String(next.page));
      else p.delete('page');
    }
    setParams(p, { replace: next.q !== undefined });
  };

  return (
    <>
      <PageHeader
        title={title}
        description={items ? `${formatNumber(items.length)} ${items.length === 1 ? 'resource' : 'resources'}` : 'Loading resources…'}
        actions={
          <>
            <BackToDashboard />
            <Button asChild variant="gradient">
              <Link to={paths.admin.newResource(category)}>
                <Plus aria-hidden="true" /> Add New Resource
              </Link>
            </Button>
          </>
        }
      />

      {resources.isError ? (
        <QueryError title="Failed to fetch resources" error={resources.error} onRetry={() => resources.refetch()} />
      ) : items && items.length === 0 ? (
        <Card className="flex flex-col items-center gap-3 p-12 text-center">
          <span className="grid size-12 place-items-center rounded-full bg-muted text-muted-foreground">
            <FileQuestion aria-hidden="true" />
          </span>
          <p className="text-lg font-semibold">No resources in {title} yet</p>
          <p className="text-sm text-muted-foreground">Add the first one and it appears on the site at once.</p>
        </Card>
      ) : (
        <Card className="overflow-hidden">
          <div className="flex flex-col gap-3 border-b p-4 sm:flex-row sm:items-center sm:justify-between">
            <div className="relative w-full sm:max-w-xs">
              <Search aria-hidden="true" className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
              <Input
                type="search"
                aria-label={`Search ${title}`}
                placeholder="Search title, description or tag"
                className="pl-9"
                value={query}
                onChange={(e) => update({ q: e.target.value })}
              />
            </div>
            {filtered && (
              <p className="text-sm text-muted-foreground" aria-live="polite">
                {filtered.length === 0
                  ? 'No match'
                  : `Showing ${(page - 1) * ROWS_PER_PAGE + 1}–${Math.min(page * ROWS_PER_PAGE, filtered.length)} of ${formatNumber(filtered.length)}`}
              </p>
            )}
          </div>
          <div className="overflow-x-auto">
            <table className="w-full min-w-[760px] text-left text-sm">
              <caption className="sr-only">{title} resources</caption>
              <thead className="border-b bg-muted/60 text-xs uppercase tracking-wide text-muted-foreground">
                <tr>
                  <th scope="col" className="px-4 py-3 font-semibold">Title</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Description</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Download URL</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Created At</th>
                  <th scope="col" className="px-4 py-3 text-right font-semibold">Actions</th>
                </tr>
              </thead>
              <tbody className="divide-y">
                {!rows ? (
                  Array.from({ length: 6 }, (_, i) => (
                    <tr key={i}>
                      {Array.from({ length: 5 }, (_, j) => (
                        <td key={j} className="px-4 py-4">
                          <Skeleton className="h-4 w-full" />
                        </td>
                      ))}
                    </tr>
                  ))
                ) : rows.length === 0 ? (
                  <tr>
                    <td colSpan={5} className="px-4 py-10 text-center text-muted-foreground">
                      No resources match “{query}”.
                    </td>
                  </tr>
                ) : (
                  rows.map((r) => <ResourceRow key={r.id} resource={r} onDelete={() => setPendingDelete(r)} />)
                )}
              </tbody>
            </table>
          </div>
          {pageCount > 1 && (
            <nav aria-label="Pages" className="flex items-center justify-between gap-2 border-t p-4">
              <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => update({ page: page - 1 })}>
                <ChevronLeft aria-hidden="true" /> Previous
              </Button>
              <p className="text-sm text-muted-foreground">
                Page {page} of {pageCount}
              </p>
              <Button variant="outline" size="sm" disabled={page >= pageCount} onClick={() => update({ page: page + 1 })}>
                Next <ChevronRight aria-hidden="true" />
              </Button>
            </nav>
          )}
        </Card>
      )}

      <ConfirmDialog
        open={pendingDelete !== null}
        onOpenChange={(open) => !open && setPendingDelete(null)}
        title="Are you sure you want to delete this resource?"
        description={
          <>
            “{pendingDelete?.title}” will be removed from the site for good. This cannot be undone.
          </>
        }
        pending={remove.isPending}
        onConfirm={confirmDelete}
      />
    </>
  );
}

function filterResources(items: Resource[] | undefined, query: string): Resource[] | undefined {
  const q = query.trim().toLocaleLowerCase();
  if (!items || !q) return items;
  return items.filter(
    (r) =>
      r.title.toLocaleLowerCase().includes(q) ||
      r.description.toLocaleLowerCase().includes(q) ||
      r.tags.some((t) => t.toLocaleLowerCase().includes(q)),
  );
}

function ResourceRow({ resource: r, onDelete }: { resource: Resource; onDelete(): void }) {
  return (
    <tr className="transition-colors hover:bg-muted/40">
      <td className="max-w-[240px] px-4 py-3 align-top">
        <div className="font-medium">{r.title}</div>
        {r.is_premium && (
          <Badge variant="premium" className="mt-1">
            Premium
          </Badge>
        )}
      </td>
      <td className="max-w-[320px] px-4 py-3 align-top text-muted-foreground">
        <p className="line-clamp-2">{r.description}</p>
      </td>
      <td className="px-4 py-3 align-top">
        <a
          href={r.download_url}
          target="_blank"
          rel="noreferrer noopener"
          title={r.download_url}
          className="inline-flex max-w-[200px] items-center gap-1 text-primary underline-offset-4 hover:underline focus-visible:underline focus-visible:outline-none"
        >
          <span className="truncate">{r.download_url}</span>
          <ExternalLink className="size-3 shrink-0" aria-hidden="true" />
        </a>
      </td>
      <td className="whitespace-nowrap px-4 py-3 align-top tabular-nums text-muted-foreground">
        {formatShortDate(r.created_at)}
      </td>
      <td className="px-4 py-3 align-top">
        <div className="flex justify-end gap-1">
          <Button asChild variant="ghost" size="icon" className="size-9">
            <Link to={paths.admin.editResource(r.category, r.id)} aria-label={`Edit ${r.title}`}>
              <Pencil aria-hidden="true" />
            </Link>
          </Button>
          <Button
            variant="ghost"
            size="icon"
            className="size-9 text-destructive hover:bg-destructive/10 hover:text-destructive"
            aria-label={`Delete ${r.title}`}
            onClick={onDelete}
          >
            <Trash2 aria-hidden="true" />
          </Button>
        </div>
      </td>
    </tr>
  );
}
