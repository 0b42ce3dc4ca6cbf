import { DOWNLOAD_RANGES, type DownloadRange } from '@contract/downloads';
import * as React from 'react';
import { Skeleton } from '@/components/ui/primitives';
import { cn } from '@/lib/utils';

// The charts (recharts) load with the pages that show them, not with the rest of the admin area.
const charts = () => import('./charts');
const LazyDownloadsChart = React.lazy(charts);
const LazyCategoryChart = React.lazy(() => charts().then((m) => ({ default: m.CategoryChart })));

/** Downloads per day: bars up to a month, an area beyond, with a summary and the data table. */
export function DownloadsChart(props: React.ComponentProps<typeof LazyDownloadsChart>) {
  return (
    <React.Suspense fallback={<Skeleton className="h-60" />}>
      <LazyDownloadsChart {...props} />
    </React.Suspense>
  );
}

/** Downloads by category, as horizontal bars, with the data table. */
export function CategoryChart(props: React.ComponentProps<typeof LazyCategoryChart>) {
  return (
    <React.Suspense fallback={<Skeleton className="h-48" />}>
      <LazyCategoryChart {...props} />
    </React.Suspense>
  );
}

/** 7 / 30 / 90 / 365 days, as a group of toggle buttons. */
export function RangeSwitch({ value, onChange, className }: { value: DownloadRange; onChange(range: DownloadRange): void; className?: string }) {
  return (
    <div role="group" aria-label="Range" className={cn('inline-flex rounded-lg border bg-muted/50 p-0.5', className)}>
      {DOWNLOAD_RANGES.map((r) => (
        <button
          key={r}
          type="button"
          aria-pressed={value === r}
          onClick={() => onChange(r)}
          className={cn(
            'whitespace-nowrap rounded-md px-2 py-1 text-sm font-medium sm:px-3 text-muted-foreground outline-none transition-colors hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50',
            value === r && 'bg-background text-foreground shadow-sm',
          )}
        >
          {r} days
        </button>
      ))}
    </div>
  );
}
