import { type CategoryValue, formatCategoryTitle } from '@contract/categories';
import type { Resource } from '@contract/resources';
import { ExternalLink, FileQuestion, Pencil, Plus, Trash2 } from 'lucide-react';
import * as React from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Badge, Card, Skeleton } from '@/components/ui/primitives';
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
                {!items
                  ? Array.from({ length: 6 }, (_, i) => (
                      <tr key={i}>
                        {Array.from({ length: 5 }, (_, j) => (
                          <td key={j} className="px-4 py-4">
                            <Skeleton className="h-4 w-full" />
                          </td>
                        ))}
                      </tr>
                    ))
                  : items.map((r) => (
                      <tr key={r.id} className="transition-colors hover:bg-muted/40">
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
                              <Link to={paths.admin.editResource(category, r.id)} aria-label={`Edit ${r.title}`}>
                                <Pencil aria-hidden="true" />
                              </Link>
                            </Button>
                            <Button
                              variant="ghost"
                              size="icon"
                              className="size-9 text-destructive hover:bg-destructive/10 hover:text-destructive"
                              aria-label={`Delete ${r.title}`}
                              onClick={() => setPendingDelete(r)}
                            >
                              <Trash2 aria-hidden="true" />
                            </Button>
                          </div>
                        </td>
                      </tr>
                    ))}
              </tbody>
            </table>
          </div>
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
