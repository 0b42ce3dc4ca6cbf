import { formatCategoryTitle } from '@contract/categories';
import type { TrashedResource } from '@contract/trash';
import { RotateCcw, Trash2 } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Card, Skeleton, Spinner } from '@/components/ui/primitives';
import { toast } from '@/components/ui/use-toast';
import { usePurgeResource } from '../api/purge-resource';
import { useRestoreResource } from '../api/restore-resource';
import { useTrash } from '../api/get-trash';
import { BackToDashboard } from '../components/back-to-dashboard';
import { ConfirmDialog } from '../components/confirm-dialog';
import { PageHeader } from '../components/page-header';
import { QueryError } from '../components/query-error';
import { useAdminTitle } from '../components/use-admin-title';
import { useErrorToast } from '../components/use-error-toast';
import { errorMessage, isSessionError } from '../lib/errors';
import { formatDaysLeft, formatShortDate } from '../lib/format';
import { useSession } from '../session/session';

/**
 * The Trash (docs/decisions/398-the-trash-is-a-status.md): deleted resources, most recently deleted
 * first, each restorable as it was until it is purged; super admins may delete one for good.
 */
export function TrashPage() {
  useAdminTitle('Trash');
  const { isSuperUser } = useSession();
  const trash = useTrash();
  useErrorToast(trash.error, 'Failed to fetch the trash');
  const restore = useRestoreResource();
  const purge = usePurgeResource();
  const [pendingPurge, setPendingPurge] = React.useState<TrashedResource | null>(null);
  const [restoring, setRestoring] = React.useState<number | null>(null);

  const items = trash.data?.pages.flatMap((p) => p.items);
  const first = trash.data?.pages[0];

  const onRestore = (r: TrashedResource) => {
    setRestoring(r.id);
    restore.mutate(r, {
      onSuccess: () => toast({ title: 'Resource restored', description: `“${r.title}” is back.`, variant: 'success' }),
      onError: (err) => {
        if (!isSessionError(err)) toast({ title: 'Failed to restore resource', description: errorMessage(err), variant: 'destructive' });
      },
      onSettled: () => setRestoring(null),
    });
  };

  const confirmPurge = () => {
    if (!pendingPurge) return;
    purge.mutate(pendingPurge.id, {
      onSuccess: () => toast({ title: 'Resource deleted forever', variant: 'success' }),
      onError: (err) => {
        if (!isSessionError(err)) toast({ title: 'Failed to delete resource', description: errorMessage(err), variant: 'destructive' });
      },
      onSettled: () => setPendingPurge(null),
    });
  };

  const description = first
    ? `Deleted resources stay here for ${first.trash_days} days, then they are deleted for good.`
    : 'Deleted resources stay here for a while, then they are deleted for good.';

  return (
    <>
      <PageHeader title="Trash" description={description} actions={<BackToDashboard />} />
      {trash.isError ? (
        <QueryError title="Failed to fetch the trash" error={trash.error} onRetry={() => trash.refetch()} />
      ) : items && items.length === 0 ? (
        <Card className="grid place-items-center gap-2 px-6 py-16 text-center">
          <Trash2 className="size-10 text-muted-foreground" aria-hidden="true" />
          <p className="text-lg font-semibold">The trash is empty</p>
          <p className="text-sm text-muted-foreground">Resources you delete appear here, and can be restored until they are purged.</p>
        </Card>
      ) : (
        <Card className="overflow-hidden">
          <div className="md:overflow-x-auto">
            <table className="w-full text-left text-sm max-md:block md:min-w-[640px]">
              <caption className="sr-only">
                Deleted resources{first ? `: ${first.total}` : ''}
              </caption>
              <thead className="border-b bg-muted/60 text-xs uppercase tracking-wide text-muted-foreground max-md:sr-only">
                <tr>
                  <th scope="col" className="px-4 py-3 font-semibold">Title</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Category</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Deleted</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Purge</th>
                  <th scope="col" className="px-4 py-3 text-right font-semibold">Actions</th>
                </tr>
              </thead>
              <tbody className="divide-y max-md:block">
                {!items
                  ? Array.from({ length: 3 }, (_, i) => (
                      <tr key={i} className="max-md:block" aria-hidden="true">
                        {Array.from({ length: 5 }, (_, j) => (
                          <td key={j} className="px-4 py-4 max-md:block max-md:py-2">
                            <Skeleton className="h-4 w-full" />
                          </td>
                        ))}
                      </tr>
                    ))
                  : items.map((r) => (
                      <tr
                        key={r.id}
                        className="transition-colors hover:bg-muted/40 max-md:grid max-md:grid-cols-[minmax(0,1fr)_auto] max-md:items-center max-md:gap-x-3 max-md:gap-y-1 max-md:p-4"
                      >
                        <td className="px-4 py-3 font-medium max-md:col-start-1 max-md:row-start-1 max-md:p-0">{r.title}</td>
                        <td className="px-4 py-3 text-muted-foreground max-md:col-span-2 max-md:p-0">{formatCategoryTitle(r.category)}</td>
                        <td className="px-4 py-3 tabular-nums text-muted-foreground max-md:col-span-2 max-md:p-0 max-md:text-xs">
                          <span className="md:hidden">Deleted </span>
                          <time dateTime={r.trashed_at}>{formatShortDate(r.trashed_at)}</time>
                        </td>
                        <td className="px-4 py-3 tabular-nums max-md:col-span-2 max-md:p-0 max-md:text-xs">
                          <time dateTime={r.purge_at} title={`Purged after ${formatShortDate(r.purge_at)}`}>
                            {formatDaysLeft(r.purge_at)}
                          </time>
                        </td>
                        <td className="px-4 py-3 max-md:col-start-2 max-md:row-start-1 max-md:p-0">
                          <div className="flex justify-end gap-2">
                            <Button
                              variant="outline"
                              size="sm"
                              aria-label={`Restore ${r.title}`}
                              disabled={restoring === r.id}
                              onClick={() => onRestore(r)}
                            >
                              {restoring === r.id ? <Spinner /> : <RotateCcw aria-hidden="true" />}
                              Restore
                            </Button>
                            {isSuperUser && (
                              <Button
                                variant="ghost"
                                size="sm"
                                className="text-destructive hover:bg-destructive/10 hover:text-destructive"
                                aria-label={`Delete ${r.title} forever`}
                                onClick={() => setPendingPurge(r)}
                              >
                                <Trash2 aria-hidden="true" />
                                Delete forever
                              </Button>
                            )}
                          </div>
                        </td>
                      </tr>
                    ))}
              </tbody>
            </table>
          </div>
          {trash.hasNextPage && (
            <div className="flex justify-center border-t p-3">
              <Button variant="outline" onClick={() => trash.fetchNextPage()} disabled={trash.isFetchingNextPage}>
                {trash.isFetchingNextPage && <Spinner />}
                Show more
              </Button>
            </div>
          )}
        </Card>
      )}
      <ConfirmDialog
        open={pendingPurge !== null}
        onOpenChange={(open) => !open && setPendingPurge(null)}
        title="Delete this resource forever?"
        description={<>“{pendingPurge?.title}” and its files will be deleted for good. This cannot be undone.</>}
        confirmLabel="Delete forever"
        pending={purge.isPending}
        onConfirm={confirmPurge}
      />
    </>
  );
}
