import { formatDistance } from 'date-fns';
import { Clock, Crown, Download } from 'lucide-react';
import * as React from 'react';
import { Badge } from '@/components/ui/primitives';
import { formatCount, formatLongDate } from '@/lib/format';
import { renderClock } from '@/lib/hydration';
import { cn } from '@/lib/utils';

export function formatDownloads(n: number): string {
  return formatCount(n, 'download');
}

export function PremiumBadge({ className }: { className?: string }) {
  return (
    <Badge variant="premium" className={cn('shadow-md', className)}>
      <Crown aria-hidden="true" className="size-3" />
      Premium
    </Badge>
  );
}

/** A resource's tags; `limit` shows the first few and a "+n" for the rest. */
export function TagList({ tags, limit }: { tags: string[]; limit?: number }) {
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
export function AddedAgo({ createdAt }: { createdAt: string }) {
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

/** "N downloads · Added … ago" under a resource: `compact` on a card (one line, the age cut short), else wrapping. */
export function DownloadsAndAge({
  resource,
  compact = false,
  className,
}: {
  resource: { download_count: number; created_at: string };
  compact?: boolean;
  className?: string;
}) {
  const icon = compact ? 'size-3.5 shrink-0' : 'size-4';
  return (
    <p
      className={cn(
        'flex items-center text-muted-foreground',
        compact ? 'justify-between gap-3 text-xs leading-4' : 'flex-wrap gap-x-4 gap-y-1 text-sm',
        className,
      )}
    >
      <span className={cn('inline-flex items-center gap-1.5', compact && 'font-medium text-foreground/80')}>
        <Download aria-hidden="true" className={icon} />
        {formatDownloads(resource.download_count)}
      </span>
      <span className="inline-flex min-w-0 items-center gap-1.5">
        <Clock aria-hidden="true" className={icon} />
        <span className={cn(compact && 'truncate')}>
          <AddedAgo createdAt={resource.created_at} />
        </span>
      </span>
    </p>
  );
}
