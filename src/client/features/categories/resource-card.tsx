import { formatDistance } from 'date-fns';
import { Clock, Crown, Download, Eye, ImageOff, X } from 'lucide-react';
import type { PublicResource } from '@contract/resources';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { Badge, Skeleton, Spinner } from '@/components/ui/primitives';
import { toast } from '@/components/ui/use-toast';
import { formatLongDate, formatNumber } from '@/lib/format';
import { renderClock } from '@/lib/hydration';
import { cn } from '@/lib/utils';
import { useRecordDownload } from './api/record-download';
import { openPendingTab } from './open-download';

/** Intrinsic size of a thumbnail (16:9): reserves the box before the image arrives. */
const THUMB_WIDTH = 640;
const THUMB_HEIGHT = 360;
/** Tags shown on a card; the preview shows all. */
const CARD_TAGS = 3;


export function formatDownloads(n: number): string {
  return `${formatNumber(n)} ${n === 1 ? 'download' : 'downloads'}`;
}

/** Records the download, then sends the tab opened during the click to the file. */
function useDownload(resource: PublicResource) {
  const mutation = useRecordDownload();
  const start = () => {
    if (mutation.isPending) return;
    const tab = openPendingTab();
    mutation.mutate(resource.id, {
      onSuccess: ({ download_url }) => {
        if (!tab.go(download_url)) fail(new Error(`refused download URL for resource ${resource.id}`));
      },
      onError: (err) => {
        tab.cancel();
        fail(err);
      },
    });
  };
  return { start, busy: mutation.isPending };
}

function fail(err: unknown) {
  console.warn('Download failed:', err);
  toast({ title: 'Download Failed', description: 'Unable to download resource. Please try again later.', variant: 'destructive' });
}

function DownloadButton({ busy, onClick, title, className }: { busy: boolean; onClick(): void; title: string; className?: string }) {
  return (
    <Button variant="gradient" onClick={onClick} disabled={busy} aria-busy={busy} className={className}>
      {busy ? <Spinner /> : <Download aria-hidden="true" />}
      {busy ? 'Downloading...' : 'Download'}
      <span className="sr-only"> {title}</span>
    </Button>
  );
}

function Thumbnail({ resource, eager, className }: { resource: PublicResource; eager: boolean; className?: string }) {
  const [failed, setFailed] = React.useState(false);
  if (failed) {
    return (
      <div role="img" aria-label={resource.title} className={cn('flex items-center justify-center bg-gradient-to-br from-muted to-accent', className)}>
        <ImageOff aria-hidden="true" className="size-10 text-muted-foreground" />
      </div>
    );
  }
  return (
    <img
      src={resource.thumbnail_url}
      alt={resource.title}
      width={THUMB_WIDTH}
      height={THUMB_HEIGHT}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
      onError={() => setFailed(true)}
      className={className}
    />
  );
}

function TagList({ tags, limit }: { tags: string[]; limit?: number }) {
  const shown = limit === undefined ? tags : tags.slice(0, limit);
  const more = tags.length - shown.length;
  if (tags.length === 0) return null;
  return (
    <ul aria-label="Tags" className="flex flex-wrap gap-1.5">
      {shown.map((t) => (
        <li key={t}>
          <Badge variant="secondary" className="font-medium">
            {t}
          </Badge>
        </li>
      ))}
      {more > 0 && (
        <li>
          <Badge variant="outline" className="font-medium text-muted-foreground">
            +{more}
          </Badge>
        </li>
      )}
    </ul>
  );
}

/**
 * "Added … ago" is rendered against the server's clock on the server and while hydrating (the same
 * text as its HTML), then checked against the browser's clock and re-rendered only if that changes
 * the words. The long date (the browser's time zone) is set as the tooltip once mounted.
 */
function AddedAgo({ createdAt }: { createdAt: string }) {
  const [now, setNow] = React.useState(renderClock);
  const ref = React.useRef<HTMLTimeElement>(null);
  const date = new Date(createdAt);
  React.useEffect(() => {
    const at = new Date(createdAt);
    if (ref.current) ref.current.title = formatLongDate(at);
    const current = Date.now();
    setNow((shown) => (formatDistance(at, shown) === formatDistance(at, current) ? shown : current));
  }, [createdAt]);
  return (
    <time ref={ref} dateTime={createdAt}>
      Added {formatDistance(date, now)} ago
    </time>
  );
}

export function ResourceCard({ resource, eager = false }: { resource: PublicResource; eager?: boolean }) {
  const [previewOpen, setPreviewOpen] = React.useState(false);
  const download = useDownload(resource);
  return (
    <article className="group relative flex h-full flex-col overflow-hidden rounded-2xl border bg-card text-card-foreground shadow-sm transition-all duration-300 hover:-translate-y-1 hover:border-primary/30 hover:shadow-xl hover:shadow-primary/10">
      <div className="relative aspect-video overflow-hidden bg-muted">
        <Thumbnail
          resource={resource}
          eager={eager}
          className="size-full object-cover transition-transform duration-500 group-hover:scale-105"
        />
        <div aria-hidden="true" className="pointer-events-none absolute inset-0 bg-gradient-to-t from-black/30 via-transparent to-transparent opacity-0 transition-opacity group-hover:opacity-100" />
        {resource.is_premium && (
          <Badge variant="premium" className="absolute left-3 top-3 shadow-md">
            <Crown aria-hidden="true" className="size-3" />
            Premium
          </Badge>
        )}
      </div>
      <div className="flex flex-1 flex-col p-5">
        <h2 className="line-clamp-1 text-lg font-semibold leading-7 tracking-tight" title={resource.title}>
          {resource.title}
        </h2>
        <p className="mt-1.5 line-clamp-2 h-10 text-sm leading-5 text-muted-foreground">{resource.description}</p>
        <div className="mt-3 h-[1.375rem] overflow-hidden">
          <TagList tags={resource.tags} limit={CARD_TAGS} />
        </div>
        <div className="mt-4 flex items-center justify-between gap-3 text-xs leading-4 text-muted-foreground">
          <span className="inline-flex items-center gap-1.5 font-medium text-foreground/80">
            <Download aria-hidden="true" className="size-3.5" />
            {formatDownloads(resource.download_count)}
          </span>
          <span className="inline-flex min-w-0 items-center gap-1.5">
            <Clock aria-hidden="true" className="size-3.5 shrink-0" />
            <span className="truncate">
              <AddedAgo createdAt={resource.created_at} />
            </span>
          </span>
        </div>
        <div className="mt-auto grid grid-cols-2 gap-2 pt-5">
          <Button variant="outline" onClick={() => setPreviewOpen(true)}>
            <Eye aria-hidden="true" />
            Preview
            <span className="sr-only"> {resource.title}</span>
          </Button>
          <DownloadButton busy={download.busy} onClick={download.start} title={resource.title} />
        </div>
      </div>
      <Dialog open={previewOpen} onOpenChange={setPreviewOpen}>
        <DialogContent hideClose className="w-[calc(100%-1rem)] max-w-3xl gap-0 overflow-hidden p-0">
          <div className="relative aspect-video bg-muted">
            <Thumbnail resource={resource} eager className="size-full object-contain" />
            {/* Over the image, the close button needs its own backdrop to stay visible. */}
            <DialogClose
              aria-label="Close"
              className="absolute right-3 top-3 flex size-9 cursor-pointer items-center justify-center rounded-full bg-black/55 text-white shadow-md backdrop-blur transition-colors hover:bg-black/75 focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-white/70"
            >
              <X aria-hidden="true" className="size-4" />
            </DialogClose>
            {resource.is_premium && (
              <Badge variant="premium" className="absolute left-4 top-4 shadow-md">
                <Crown aria-hidden="true" className="size-3" />
                Premium
              </Badge>
            )}
          </div>
          <div className="grid gap-4 p-6">
            <div className="grid gap-2">
              <DialogTitle className="text-xl leading-tight">{resource.title}</DialogTitle>
              <DialogDescription className="text-base leading-relaxed">{resource.description}</DialogDescription>
            </div>
            <TagList tags={resource.tags} />
            <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
              <p className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-muted-foreground">
                <span className="inline-flex items-center gap-1.5">
                  <Download aria-hidden="true" className="size-4" />
                  {formatDownloads(resource.download_count)}
                </span>
                <span className="inline-flex items-center gap-1.5">
                  <Clock aria-hidden="true" className="size-4" />
                  <AddedAgo createdAt={resource.created_at} />
                </span>
              </p>
              <DownloadButton busy={download.busy} onClick={download.start} title={resource.title} className="sm:min-w-40" />
            </div>
          </div>
        </DialogContent>
      </Dialog>
    </article>
  );
}

/** Same boxes as ResourceCard, so nothing moves when the cards replace it. */
export function ResourceCardSkeleton() {
  return (
    <div aria-hidden="true" data-testid="resource-skeleton" className="flex h-full flex-col overflow-hidden rounded-2xl border bg-card shadow-sm">
      <Skeleton className="aspect-video rounded-none" />
      <div className="flex flex-1 flex-col p-5">
        <Skeleton className="my-1 h-5 w-3/4" />
        <div className="mt-1.5 grid h-10 content-center gap-2">
          <Skeleton className="h-3.5 w-full" />
          <Skeleton className="h-3.5 w-2/3" />
        </div>
        <div className="mt-3 flex h-[1.375rem] gap-1.5">
          <Skeleton className="h-full w-16 rounded-full" />
          <Skeleton className="h-full w-20 rounded-full" />
          <Skeleton className="h-full w-14 rounded-full" />
        </div>
        <div className="mt-4 flex h-4 justify-between">
          <Skeleton className="h-full w-24" />
          <Skeleton className="h-full w-28" />
        </div>
        <div className="mt-auto grid grid-cols-2 gap-2 pt-5">
          <Skeleton className="h-10 rounded-md" />
          <Skeleton className="h-10 rounded-md" />
        </div>
      </div>
    </div>
  );
}
