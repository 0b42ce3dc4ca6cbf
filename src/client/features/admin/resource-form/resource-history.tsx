import { History } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, Skeleton, Spinner } from '@/components/ui/primitives';
import { useAudit } from '../api/get-audit';
import { AuditEntryList } from '../activity/audit-entry-list';
import { errorMessage } from '../lib/errors';

/** A resource's history on its edit page: its audit entries, newest first (an admin sees their own). */
export function ResourceHistory({ id }: { id: number }) {
  const audit = useAudit({ target_type: 'resource', target_id: String(id) });
  const entries = audit.data?.pages.flatMap((p) => p.items);
  return (
    <section aria-labelledby="resource-history-heading" className="mt-8">
      <h2 id="resource-history-heading" className="mb-3 flex items-center gap-2 text-xl font-semibold tracking-tight">
        <History className="size-5 text-muted-foreground" aria-hidden="true" /> History
      </h2>
      <Card className="overflow-hidden">
        {audit.isError ? (
          <div role="alert" className="flex flex-wrap items-center justify-between gap-3 p-4 text-sm">
            <span>Failed to load the history: {errorMessage(audit.error)}</span>
            <Button variant="outline" size="sm" onClick={() => audit.refetch()}>
              Try Again
            </Button>
          </div>
        ) : !entries ? (
          <div className="grid gap-3 p-4" aria-label="Loading history">
            <Skeleton className="h-8 w-full" />
            <Skeleton className="h-8 w-full" />
          </div>
        ) : entries.length === 0 ? (
          <p className="p-4 text-sm text-muted-foreground">No recorded changes yet.</p>
        ) : (
          <AuditEntryList entries={entries} showTarget={false} />
        )}
        {audit.hasNextPage && (
          <div className="flex justify-center border-t p-3">
            <Button variant="outline" size="sm" onClick={() => audit.fetchNextPage()} disabled={audit.isFetchingNextPage}>
              {audit.isFetchingNextPage && <Spinner />}
              Show more
            </Button>
          </div>
        )}
      </Card>
    </section>
  );
}
