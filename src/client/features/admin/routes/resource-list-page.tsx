import { type CategoryValue, formatCategoryTitle } from '@contract/categories';
import { SEARCH_MAX } from '@contract/constants';
import { ADMIN_PAGE_SIZE, type Resource, type ResourceStatus, RESOURCE_STATUSES } from '@contract/resources';
import { BarChart3, ChevronLeft, ChevronRight, ExternalLink, FileArchive, FileQuestion, Link2Off, Pencil, Plus, Search, Trash2 } from 'lucide-react';
import * as React from 'react';
import { useSearchParams } from 'react-router';
import { Link } from '@/lib/link';
import { Button } from '@/components/ui/button';
import { Badge, Card, Input, Skeleton } from '@/components/ui/primitives';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api';
import { formatBytes, formatCount } from '@/lib/format';
import { paths } from '@/lib/paths';
import { cn } from '@/lib/utils';
import { getMatchingIds } from '../api/bulk-resources';
import { useDeleteResource } from '../api/delete-resource';
import { searchText, useResourcePage } from '../api/get-resources';
import { BulkActionBar } from '../bulk/bulk-action-bar';
import { BulkUploadPanel } from '../bulk-upload/bulk-upload-panel';
import { SelectAllBanner } from '../bulk/select-all-banner';
import { PAGE_BOX_ID, SelectBox } from '../bulk/select-box';
import { pageState, useSelection } from '../bulk/use-selection';
import { BackToDashboard } from '../components/back-to-dashboard';
import { ConfirmDialog } from '../components/confirm-dialog';
import { useDeletedToast } from '../components/deleted-toast';
import { PageHeader } from '../components/page-header';
import { PreviewStatus } from '../components/preview-status';
import { PreviewLinkButton, ResourceStatusBadge, usePreviewLink } from '../components/resource-status';
import { QueryError } from '../components/query-error';
import { useAdminTitle } from '../components/use-admin-title';
import { useErrorToast } from '../components/use-error-toast';
import { errorMessage, isSessionError } from '../lib/errors';
import { formatNumber, formatShortDate } from '../lib/format';
import { UnknownCategory } from './unknown-category';
import { useCategoryParam } from './use-category-param';

/** The search box waits this long after the last keystroke before asking the server. */
const SEARCH_DEBOUNCE_MS = 300;

/** The status filter's choices, in the order shown; undefined: all. */
const STATUS_FILTERS: { value: ResourceStatus | undefined; label: string; none: string }[] = [
  { value: undefined, label: 'All', none: 'No resources' },
  { value: 'published', label: 'Published', none: 'No published resources' },
  { value: 'draft', label: 'Drafts', none: 'No drafts' },
  { value: 'scheduled', label: 'Scheduled', none: 'No scheduled resources' },
];

/** The `status` of the URL, when it is one. */
const statusParam = (raw: string | null): ResourceStatus | undefined =>
  RESOURCE_STATUSES.find((s) => s === raw);

export function ResourceListPage() {
  const { raw, category } = useCategoryParam();
  if (!category) return <UnknownCategory value={raw} />;
  // Another category is another list: its search box and page start fresh.
  return <ResourceList key={category} category={category} />;
}

function ResourceList({ category }: { category: CategoryValue }) {
  const title = formatCategoryTitle(category);
  useAdminTitle(`${title} Resources`);
  // Search and page live in the URL so Back and shared links keep them; the page is a server cursor.
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const cursor = params.get('cursor');
  const status = statusParam(params.get('status'));
  const brokenLinks = params.get('links') === 'broken';
  const searching = searchText(query) !== '';
  const resources = useResourcePage({ category, q: query, cursor, status, brokenLinks });
  // The header counts the whole category: the unfiltered first page's total (the same query as the list's when on it).
  const categoryCount = useResourcePage({ category, q: '', cursor: null });
  const categoryTotal = categoryCount.data?.total;
  const cursorRefused = resources.error instanceof ApiError && resources.error.status === 400 && cursor !== null;
  useErrorToast(cursorRefused ? null : resources.error, 'Failed to fetch resources');
  const remove = useDeleteResource();
  const deletedToast = useDeletedToast();
  const preview = usePreviewLink();
  const [pendingDelete, setPendingDelete] = React.useState<Resource | null>(null);

  const confirmDelete = () => {
    if (!pendingDelete) return;
    const deleted = pendingDelete;
    remove.mutate(
      { id: deleted.id, category },
      {
        onSuccess: () => deletedToast(deleted),
        onError: (err) => {
          if (!isSessionError(err)) toast({ title: 'Failed to delete resource', description: errorMessage(err), variant: 'destructive' });
        },
        onSettled: () => setPendingDelete(null),
      },
    );
  };

  const update = React.useCallback(
    (next: { q?: string; cursor?: string | null; status?: ResourceStatus | null; brokenLinks?: boolean }) => {
      setParams(
        (prev) => {
          const p = new URLSearchParams(prev);
          p.delete('page'); // the client-side page number of earlier versions
          if (next.q !== undefined) {
            if (next.q) p.set('q', next.q);
            else p.delete('q');
            p.delete('cursor');
          }
          if (next.status !== undefined) {
            if (next.status) p.set('status', next.status);
            else p.delete('status');
            p.delete('cursor');
          }
          if (next.brokenLinks !== undefined) {
            if (next.brokenLinks) p.set('links', 'broken');
            else p.delete('links');
            p.delete('cursor');
          }
          if (next.cursor !== undefined) {
            if (next.cursor) p.set('cursor', next.cursor);
            else p.delete('cursor');
          }
          return p;
        },
        { replace: next.q !== undefined || next.cursor === null },
      );
    },
    [setParams],
  );

  // A cursor the server refuses (edited or very old link): start again from the first page.
  React.useEffect(() => {
    if (cursorRefused) update({ cursor: null });
  }, [cursorRefused, update]);

  // The box shows what is typed at once; the URL (and so the request) follows 300 ms after the last keystroke.
  const [text, setText] = React.useState(query);
  const sent = React.useRef(query);
  React.useEffect(() => {
    // Back / Forward or a link changed the URL: the box follows.
    if (query !== sent.current) {
      sent.current = query;
      setText(query);
    }
  }, [query]);
  React.useEffect(() => {
    if (text === sent.current) return;
    const timer = window.setTimeout(() => {
      sent.current = text;
      update({ q: text });
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text, update]);

  const data = resources.data;
  const rows = data?.items;
  const pageCount = data ? Math.max(1, Math.ceil(data.total / ADMIN_PAGE_SIZE)) : 1;
  const page = data ? Math.floor(data.offset / ADMIN_PAGE_SIZE) + 1 : 1;
  const more = data && !data.totalExact ? '+' : '';
  const categoryEmpty = !searching && !status && !brokenLinks && cursor === null && data?.total === 0;
  const filter = STATUS_FILTERS.find((f) => f.value === status)!;
  // Bulk selection: kept across pages of these filters, emptied when they change.
  const { selection, ...select } = useSelection(JSON.stringify([category, searchText(query), status ?? null, brokenLinks]));
  const pageIds = React.useMemo(() => rows?.map((r) => r.id) ?? [], [rows]);
  const onPage = pageState(selection, pageIds);
  const titles = React.useMemo(() => new Map(rows?.map((r) => [r.id, r.title])), [rows]);

  return (
    <>
      <PageHeader
        title={title}
        description={
          categoryTotal !== undefined
            ? formatCount(categoryTotal, 'resource')
            : categoryCount.isError
              ? undefined
              : 'Loading resources…'
        }
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

      <BulkUploadPanel category={category} />

      {resources.isError && !cursorRefused ? (
        <QueryError title="Failed to fetch resources" error={resources.error} onRetry={() => resources.refetch()} />
      ) : categoryEmpty ? (
        <Card className="flex flex-col items-center gap-3 p-12 text-center">
          <span className="grid size-12 place-items-center rounded-full bg-muted text-muted-foreground">
            <FileQuestion aria-hidden="true" />
          </span>
          <p className="text-lg font-semibold">No resources in {title} yet</p>
          <p className="text-sm text-muted-foreground">Add the first one: publish it at once, keep it as a draft or schedule it.</p>
        </Card>
      ) : (
        <Card className="overflow-hidden">
          <div className="flex flex-col gap-3 border-b p-4 lg:flex-row lg:items-center lg:justify-between">
            <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
              <div className="relative w-full sm:max-w-xs">
                <Search aria-hidden="true" className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
                <Input
                  type="search"
                  aria-label={`Search ${title}`}
                  placeholder="Search title, description or tag"
                  className="pl-9"
                  maxLength={SEARCH_MAX}
                  value={text}
                  onChange={(e) => setText(e.target.value)}
                />
              </div>
              <div role="group" aria-label="Filter by status" className="inline-flex w-fit shrink-0 rounded-lg border bg-muted/50 p-0.5">
                {STATUS_FILTERS.map((f) => (
                  <button
                    key={f.label}
                    type="button"
                    aria-pressed={f.value === status}
                    onClick={() => update({ status: f.value ?? null })}
                    className={cn(
                      'rounded-md px-3 py-1.5 text-sm font-medium text-muted-foreground transition-colors hover:text-foreground focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
                      f.value === status && 'bg-background text-foreground shadow-sm',
                    )}
                  >
                    {f.label}
                  </button>
                ))}
              </div>
              <button
                type="button"
                aria-pressed={brokenLinks}
                onClick={() => update({ brokenLinks: !brokenLinks })}
                className={cn(
                  'inline-flex w-fit shrink-0 items-center gap-1.5 rounded-lg border px-3 py-1.5 text-sm font-medium text-muted-foreground transition-colors hover:text-foreground focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
                  brokenLinks && 'border-destructive/50 bg-destructive/10 text-destructive hover:text-destructive',
                )}
              >
                <Link2Off className="size-4" aria-hidden="true" />
                Broken links
              </button>
            </div>
            {data && (
              <p className="text-sm text-muted-foreground" aria-live="polite">
                {data.items.length === 0
                  ? 'No match'
                  : `Showing ${formatNumber(data.offset + 1)}–${formatNumber(data.offset + data.items.length)} of ${formatNumber(data.total)}${more}`}
              </p>
            )}
          </div>
          {data && (
            <SelectAllBanner
              selection={selection}
              pageAll={onPage === 'all'}
              pageSize={pageIds.length}
              total={data.total}
              totalExact={data.totalExact}
              fetchIds={() => getMatchingIds({ category, q: query, status, brokenLinks })}
              onSelectMatching={select.selectMatching}
              onClear={select.clear}
            />
          )}
          {/* Phones get a card per row (see ResourceRow): every action stays on screen, nothing scrolls sideways. */}
          <div className="md:overflow-x-auto">
            <table className="w-full text-left text-sm max-md:block md:min-w-[760px]">
              <caption className="sr-only">{title} resources</caption>
              <thead className="border-b bg-muted/60 text-xs uppercase tracking-wide text-muted-foreground max-md:sr-only">
                <tr>
                  <th scope="col" className="w-10 py-3 pl-4 pr-0">
                    <SelectBox id={PAGE_BOX_ID} checked={onPage === 'all'} mixed={onPage === 'some'} label="Select all on this page" onSelect={() => select.togglePage(pageIds)} />
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">Title</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Description</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Download URL</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Created At</th>
                  <th scope="col" className="px-4 py-3 text-right font-semibold">Actions</th>
                </tr>
              </thead>
              <tbody className={cn('divide-y transition-opacity max-md:block', resources.isPlaceholderData && 'opacity-60')} aria-busy={resources.isFetching}>
                {!rows ? (
                  Array.from({ length: 6 }, (_, i) => (
                    <tr key={i} className="max-md:block">
                      {Array.from({ length: 6 }, (_, j) => (
                        <td key={j} className="px-4 py-4 max-md:block max-md:py-2">
                          <Skeleton className="h-4 w-full" />
                        </td>
                      ))}
                    </tr>
                  ))
                ) : rows.length === 0 ? (
                  <tr className="max-md:block">
                    <td colSpan={6} className="px-4 py-10 text-center text-muted-foreground max-md:block">
                      {brokenLinks
                        ? `${filter.none} with broken links${searching ? ` match “${searchText(query)}”` : ` in ${title}`}.`
                        : searching
                          ? `${filter.none} match “${searchText(query)}”.`
                          : `${filter.none} in ${title}.`}
                    </td>
                  </tr>
                ) : (
                  rows.map((r) => (
                    <ResourceRow
                      key={r.id}
                      resource={r}
                      preview={preview}
                      onDelete={() => setPendingDelete(r)}
                      selected={selection.ids.has(r.id)}
                      onSelect={(shift) => select.click(pageIds, r.id, shift)}
                    />
                  ))
                )}
              </tbody>
            </table>
          </div>
          {data && (data.prevCursor || data.nextCursor) && (
            <nav aria-label="Pages" className="flex items-center justify-between gap-2 border-t p-4">
              <Button
                variant="outline"
                size="sm"
                disabled={!data.prevCursor || resources.isPlaceholderData}
                onClick={() => update({ cursor: data.prevCursor })}
              >
                <ChevronLeft aria-hidden="true" /> Previous
              </Button>
              <p className="text-sm text-muted-foreground">
                Page {formatNumber(page)} of {formatNumber(pageCount)}
                {more}
              </p>
              <Button
                variant="outline"
                size="sm"
                disabled={!data.nextCursor || resources.isPlaceholderData}
                onClick={() => update({ cursor: data.nextCursor })}
              >
                Next <ChevronRight aria-hidden="true" />
              </Button>
            </nav>
          )}
        </Card>
      )}

      <BulkActionBar category={category} ids={[...selection.ids]} titles={titles} onDone={select.remove} onClear={select.clear} />

      <ConfirmDialog
        open={pendingDelete !== null}
        onOpenChange={(open) => !open && setPendingDelete(null)}
        title="Are you sure you want to delete this resource?"
        description={
          <>
            “{pendingDelete?.title}” will be removed from the site and kept in the Trash, where it can be restored until it is purged.
          </>
        }
        pending={remove.isPending}
        onConfirm={confirmDelete}
      />
    </>
  );
}

/** A table row; on a phone, a card: title and actions on top, then description, link and date. */
function ResourceRow({
  resource: r,
  preview,
  onDelete,
  selected,
  onSelect,
}: {
  resource: Resource;
  preview: ReturnType<typeof usePreviewLink>;
  onDelete(): void;
  selected: boolean;
  onSelect(shift: boolean): void;
}) {
  return (
    <tr
      className={cn(
        'transition-colors hover:bg-muted/40 max-md:relative max-md:grid max-md:grid-cols-[minmax(0,1fr)_auto] max-md:gap-x-3 max-md:gap-y-1.5 max-md:p-4 max-md:pl-11',
        selected && 'bg-primary/5 hover:bg-primary/10',
      )}
    >
      <td className="w-10 py-3 pl-4 pr-0 align-top max-md:absolute max-md:left-4 max-md:top-[1.1rem] max-md:p-0">
        <SelectBox checked={selected} label={`Select ${r.title}`} onSelect={onSelect} className="mt-0.5" />
      </td>
      <td className="max-w-[240px] px-4 py-3 align-top max-md:col-start-1 max-md:row-start-1 max-md:max-w-none max-md:self-center max-md:p-0">
        <div className="font-medium">{r.title}</div>
        <div className="mt-1 flex flex-wrap gap-1">
          <ResourceStatusBadge resource={r} />
          {r.is_premium && <Badge variant="premium">Premium</Badge>}
        </div>
        <PreviewStatus resource={r} />
      </td>
      <td className="max-w-[320px] px-4 py-3 align-top text-muted-foreground max-md:col-span-2 max-md:max-w-none max-md:p-0">
        <p className="line-clamp-2">{r.description}</p>
      </td>
      <td className="px-4 py-3 align-top max-md:col-span-2 max-md:min-w-0 max-md:p-0">
        {r.file ? (
          // A hosted file has no address to show: its name and size (its links are signed per download).
          <span className="inline-flex max-w-[200px] items-center gap-1.5 max-md:max-w-full" title={`${r.file.name} · ${formatBytes(r.file.size)}`}>
            <FileArchive className="size-3.5 shrink-0 text-muted-foreground" aria-hidden="true" />
            <span className="truncate">{r.file.name}</span>
            <span className="shrink-0 whitespace-nowrap text-xs tabular-nums text-muted-foreground">{formatBytes(r.file.size)}</span>
          </span>
        ) : (
          <a
            href={r.download_url}
            target="_blank"
            rel="noreferrer noopener"
            title={r.download_url}
            className="inline-flex max-w-[200px] items-center gap-1 text-primary max-md:max-w-full underline-offset-4 hover:underline focus-visible:underline focus-visible:outline-none"
          >
            <span className="truncate">{r.download_url}</span>
            <ExternalLink className="size-3 shrink-0" aria-hidden="true" />
          </a>
        )}
      </td>
      <td className="whitespace-nowrap px-4 py-3 align-top tabular-nums text-muted-foreground max-md:col-span-2 max-md:p-0 max-md:text-xs">
        <span className="md:hidden">Created </span>
        {formatShortDate(r.created_at)}
      </td>
      <td className="px-4 py-3 align-top max-md:col-start-2 max-md:row-start-1 max-md:p-0">
        <div className="flex justify-end gap-1">
          <PreviewLinkButton resource={r} preview={preview} iconOnly className="size-9" />
          <Button asChild variant="ghost" size="icon" className="size-9">
            <Link to={paths.admin.resourceStats(r.category, r.id)} aria-label={`Statistics for ${r.title}`} title="Download statistics">
              <BarChart3 aria-hidden="true" />
            </Link>
          </Button>
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
