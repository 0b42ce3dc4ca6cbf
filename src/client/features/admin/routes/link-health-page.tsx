import { formatCategoryTitle } from '@contract/categories';
import { LINK_HEALTH_PAGE_SIZE } from '@contract/links';
import { ChevronLeft, ChevronRight, Link2, RefreshCw } from 'lucide-react';
import * as React from 'react';
import { Link } from '@/lib/link';
import { Button } from '@/components/ui/button';
import { Card, Skeleton, Spinner } from '@/components/ui/primitives';
import { toast } from '@/components/ui/use-toast';
import { paths } from '@/lib/paths';
import { useLinkHealth } from '../api/get-link-health';
import { useRunLinkCheck } from '../api/run-link-check';
import { BackToDashboard } from '../components/back-to-dashboard';
import { PageHeader } from '../components/page-header';
import { QueryError } from '../components/query-error';
import { useAdminTitle } from '../components/use-admin-title';
import { useErrorToast } from '../components/use-error-toast';
import { errorMessage, isSessionError } from '../lib/errors';
import { formatNumber, formatShortDate } from '../lib/format';

/** "3 broken links", "1 broken link", "No broken links". */
export function brokenLinksText(n: number): string {
  if (n === 0) return 'No broken links';
  return `${formatNumber(n)} broken ${n === 1 ? 'link' : 'links'}`;
}

/**
 * Link health (issue 32): the external download and thumbnail links the last checks found broken,
 * with "Check now". Checks also run by themselves (LINK_CHECK_SCHEDULE, daily by default).
 */
export function LinkHealthPage() {
  useAdminTitle('Link health');
  const [page, setPage] = React.useState(1);
  const health = useLinkHealth(page);
  useErrorToast(health.error, 'Failed to fetch link health');
  const run = useRunLinkCheck();
  const data = health.data;
  const pageCount = data ? Math.max(1, Math.ceil(data.total / LINK_HEALTH_PAGE_SIZE)) : 1;
  const checking = run.isPending || data?.running === true;

  const onCheckNow = () =>
    run.mutate(undefined, {
      onSuccess: () => toast({ title: 'Link check started', description: 'Broken links appear here as they are found.', variant: 'success' }),
      onError: (err) => {
        if (!isSessionError(err)) toast({ title: 'Failed to start the link check', description: errorMessage(err), variant: 'destructive' });
      },
    });

  return (
    <>
      <PageHeader
        title="Link health"
        description="External download and thumbnail links that did not answer when last checked. Links are checked on a schedule; Check now checks them all."
        actions={
          <>
            <BackToDashboard />
            <Button onClick={onCheckNow} disabled={checking}>
              {checking ? <Spinner /> : <RefreshCw aria-hidden="true" />}
              {data?.running ? 'Checking…' : 'Check now'}
            </Button>
          </>
        }
      />
      {health.isError && !data ? (
        <QueryError title="Failed to fetch link health" error={health.error} onRetry={() => health.refetch()} />
      ) : data && data.total === 0 ? (
        <Card className="grid place-items-center gap-2 px-6 py-16 text-center">
          <Link2 className="size-10 text-muted-foreground" aria-hidden="true" />
          <p className="text-lg font-semibold">No broken links</p>
          <p className="text-sm text-muted-foreground">Every external link answered when it was last checked.</p>
        </Card>
      ) : (
        <Card className="overflow-hidden">
          <p className="border-b p-4 text-sm text-muted-foreground" aria-live="polite">
            {data ? brokenLinksText(data.total) : 'Loading…'}
          </p>
          <div className="md:overflow-x-auto">
            <table className="w-full text-left text-sm max-md:block md:min-w-[720px]">
              <caption className="sr-only">Broken links{data ? `: ${data.total}` : ''}</caption>
              <thead className="border-b bg-muted/60 text-xs uppercase tracking-wide text-muted-foreground max-md:sr-only">
                <tr>
                  <th scope="col" className="px-4 py-3 font-semibold">Resource</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Link</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Problem</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Checked</th>
                </tr>
              </thead>
              <tbody className="divide-y max-md:block">
                {!data
                  ? Array.from({ length: 3 }, (_, i) => (
                      <tr key={i} className="max-md:block" aria-hidden="true">
                        {Array.from({ length: 4 }, (_, j) => (
                          <td key={j} className="px-4 py-4 max-md:block max-md:py-2">
                            <Skeleton className="h-4 w-full" />
                          </td>
                        ))}
                      </tr>
                    ))
                  : data.items.map((l) => (
                      <tr key={`${l.resource_id}-${l.link}`} className="hover:bg-muted/40 max-md:grid max-md:gap-1 max-md:p-4">
                        <td className="px-4 py-3 max-md:p-0">
                          <Link to={paths.admin.editResource(l.category, l.resource_id)} className="font-medium underline-offset-4 hover:underline">
                            {l.title}
                          </Link>
                          <span className="block text-xs text-muted-foreground">{formatCategoryTitle(l.category)}</span>
                        </td>
                        <td className="max-w-[18rem] px-4 py-3 max-md:p-0">
                          <span className="block font-medium">{l.link === 'download' ? 'Download' : 'Thumbnail'}</span>
                          <a href={l.url} target="_blank" rel="noopener noreferrer nofollow" className="block truncate text-xs text-muted-foreground hover:underline" title={l.url}>
                            {l.url}
                          </a>
                        </td>
                        <td className="px-4 py-3 text-destructive max-md:p-0">{l.reason}</td>
                        <td className="px-4 py-3 tabular-nums text-muted-foreground max-md:p-0 max-md:text-xs">
                          <time dateTime={l.checked_at}>{formatShortDate(l.checked_at)}</time>
                        </td>
                      </tr>
                    ))}
              </tbody>
            </table>
          </div>
          {data && pageCount > 1 && (
            <nav aria-label="Pages" className="flex items-center justify-end gap-2 border-t p-3">
              <span className="text-sm text-muted-foreground">
                Page {page} of {pageCount}
              </span>
              <Button variant="outline" size="sm" onClick={() => setPage((p) => p - 1)} disabled={page <= 1} aria-label="Previous page">
                <ChevronLeft aria-hidden="true" />
              </Button>
              <Button variant="outline" size="sm" onClick={() => setPage((p) => p + 1)} disabled={page >= pageCount} aria-label="Next page">
                <ChevronRight aria-hidden="true" />
              </Button>
            </nav>
          )}
        </Card>
      )}
    </>
  );
}
