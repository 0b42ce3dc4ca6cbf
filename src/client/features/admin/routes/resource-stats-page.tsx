import { type CategoryValue, formatCategoryTitle } from '@contract/categories';
import { DEFAULT_DOWNLOAD_RANGE, type DownloadRange } from '@contract/downloads';
import { ArrowLeft, Download, FileDown, Pencil, Trophy } from 'lucide-react';
import * as React from 'react';
import { useParams } from 'react-router';
import { Link } from '@/lib/link';
import { Button } from '@/components/ui/button';
import { Card, Skeleton } from '@/components/ui/primitives';
import { paths } from '@/lib/paths';
import { resourceDownloadsCsvUrl, useResourceDownloads } from '../api/get-download-stats';
import { DownloadsChart, RangeSwitch } from '../components/downloads-chart';
import { PageHeader } from '../components/page-header';
import { StatCard } from '../components/stat-card';
import { QueryError } from '../components/query-error';
import { useAdminTitle } from '../components/use-admin-title';
import { formatNumber } from '../lib/format';
import { UnknownCategory } from './unknown-category';
import { useCategoryParam } from './use-category-param';

/** /admin/resources/:category/:id/stats: one resource's downloads per day, total, rank in its category, CSV export. */
export function ResourceStatsPage() {
  const { raw, category } = useCategoryParam();
  if (!category) return <UnknownCategory value={raw} />;
  return <ResourceStats category={category} />;
}

function ResourceStats({ category }: { category: CategoryValue }) {
  const rawId = useParams().id ?? '';
  const id = /^[1-9][0-9]{0,9}$/.test(rawId) && Number(rawId) <= 2_147_483_647 ? Number(rawId) : 0;
  const [range, setRange] = React.useState<DownloadRange>(DEFAULT_DOWNLOAD_RANGE);
  const stats = useResourceDownloads(id, range);
  const s = stats.data;
  useAdminTitle(s ? `Statistics: ${s.title}` : 'Statistics');

  const back = (
    <Button asChild variant="outline">
      <Link to={paths.admin.resources(category)}>
        <ArrowLeft aria-hidden="true" /> Back to {formatCategoryTitle(category)}
      </Link>
    </Button>
  );

  if (stats.error && !s) {
    return (
      <>
        <PageHeader title="Statistics" actions={back} />
        <QueryError title="Failed to load statistics" error={stats.error} onRetry={() => void stats.refetch()} />
      </>
    );
  }

  const figures = [
    { label: 'All-time downloads', value: s && formatNumber(s.total), icon: Download, tone: 'from-emerald-500 to-teal-500' },
    {
      label: `Rank in ${formatCategoryTitle(s?.category ?? category)}`,
      value: s && `#${formatNumber(s.rank)} of ${formatNumber(s.category_size)}`,
      icon: Trophy,
      tone: 'from-amber-500 to-orange-500',
    },
    { label: `Last ${range} days`, value: s && formatNumber(s.range_total), icon: FileDown, tone: 'from-violet-500 to-indigo-500' },
  ];

  return (
    <>
      <PageHeader
        title={s ? s.title : <Skeleton className="h-10 w-64" />}
        description="Download statistics"
        actions={
          <>
            {back}
            {s && (
              <Button asChild variant="outline">
                <Link to={paths.admin.editResource(s.category, s.id)}>
                  <Pencil aria-hidden="true" /> Edit
                </Link>
              </Button>
            )}
          </>
        }
      />

      <section aria-label="Figures" className="grid gap-3 sm:grid-cols-3 sm:gap-4">
        {figures.map(({ label, value, icon, tone }) => (
          <StatCard key={label} label={label} value={value} icon={icon} tone={tone} />
        ))}
      </section>

      <Card className="mt-6 p-6">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <h2 className="text-xl font-semibold tracking-tight">Downloads per Day</h2>
          <div className="flex flex-wrap items-center gap-2">
            <RangeSwitch value={range} onChange={setRange} />
            <Button asChild variant="outline" size="sm">
              <a href={resourceDownloadsCsvUrl(id, range)} download>
                <FileDown aria-hidden="true" /> Export CSV
              </a>
            </Button>
          </div>
        </div>
        <div className="mt-4" aria-busy={stats.isFetching}>
          {s ? <DownloadsChart days={s.days} label={`Downloads of ${s.title} per day`} /> : <Skeleton className="h-60" />}
        </div>
        {s && (
          <p className="mt-4 text-xs text-muted-foreground">
            {s.counting === 'unique' ? 'A download counts once per visitor per day' : 'Every recorded download counts'}; bots, signed-in admins and
            prefetches are not counted.
          </p>
        )}
      </Card>
    </>
  );
}
