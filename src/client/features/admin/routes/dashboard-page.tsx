import { CATEGORIES, getCategory } from '@contract/categories';
import type { Dashboard } from '@contract/dashboard';
import { DEFAULT_DOWNLOAD_RANGE, type DownloadRange } from '@contract/downloads';
import { Activity, ArrowRight, BarChart3, Download, FileSpreadsheet, FolderOpen, Link2Off, Megaphone, Server, Settings, ShieldCheck, Trash2, Trophy, Users } from 'lucide-react';
import * as React from 'react';
import { Link } from '@/lib/link';
import { Badge, Card, Skeleton } from '@/components/ui/primitives';
import { paths } from '@/lib/paths';
import { cn } from '@/lib/utils';
import { useDashboard } from '../api/get-dashboard';
import { useDownloadStats } from '../api/get-download-stats';
import { useLinkHealth } from '../api/get-link-health';
import { CategoryChart, DownloadsChart, RangeSwitch } from '../components/downloads-chart';
import { PageHeader } from '../components/page-header';
import { StatCard } from '../components/stat-card';
import { useAdminTitle } from '../components/use-admin-title';
import { isSessionError } from '../lib/errors';
import { formatNumber } from '../lib/format';
import { useSession } from '../session/session';
import { brokenLinksText } from './link-health-page';

const EMPTY: Dashboard = {
  total_resources: 0,
  active_announcements: 0,
  total_downloads: 0,
  total_admins: null,
  categories: [],
  top_resources: [],
};

export function DashboardPage() {
  useAdminTitle('Dashboard');
  const { admin, isSuperUser } = useSession();
  const dashboard = useDashboard();
  const linkHealth = useLinkHealth();

  React.useEffect(() => {
    // Spec: a stats failure is logged only; the figures stay at zero.
    if (dashboard.error && !isSessionError(dashboard.error)) console.error('Failed to load dashboard stats', dashboard.error);
  }, [dashboard.error]);

  const data = dashboard.data ?? EMPTY;
  const loading = dashboard.isPending;
  const counts = new Map(data.categories.map((c) => [c.category, c.count]));

  const stats = [
    { label: 'Total Resources', value: data.total_resources, icon: FolderOpen, tone: 'from-violet-500 to-indigo-500' },
    { label: 'Active Announcements', value: data.active_announcements, icon: Megaphone, tone: 'from-fuchsia-500 to-pink-500' },
    { label: 'Total Downloads', value: data.total_downloads, icon: Download, tone: 'from-emerald-500 to-teal-500' },
    ...(isSuperUser ? [{ label: 'Total Admins', value: data.total_admins ?? 0, icon: Users, tone: 'from-amber-500 to-orange-500' }] : []),
  ];

  return (
    <>
      <PageHeader title={`Welcome, ${admin?.username ?? ''}!`} description="Manage your resources and announcements" />

      <section aria-label="Statistics" className={cn('grid grid-cols-2 gap-3 sm:gap-4', isSuperUser ? 'lg:grid-cols-4' : 'lg:grid-cols-3')}>
        {stats.map(({ label, value, icon, tone }) => (
          <StatCard key={label} label={label} value={loading ? undefined : formatNumber(value)} icon={icon} tone={tone} />
        ))}
      </section>

      <section aria-label="Management" className="mt-6 grid gap-4 md:grid-cols-2 lg:grid-cols-3">
        <LinkCard to={paths.admin.announcements} icon={Megaphone} title="Manage Announcements" description="Create and manage site-wide announcements" />
        <LinkCard to={paths.admin.trash} icon={Trash2} title="Trash" description="Restore deleted resources before they are purged" />
        <LinkCard
          to={paths.admin.linkHealth}
          icon={Link2Off}
          title="Link health"
          description={linkHealth.data ? `${brokenLinksText(linkHealth.data.total)} among external download and thumbnail links` : 'External links that no longer answer'}
        />
        <LinkCard to={paths.admin.activity} icon={Activity} title="Activity" description="Who changed what and when, and every sign-in" />
        <LinkCard to={paths.admin.catalogue} icon={FileSpreadsheet} title="Export and Import" description="Every resource as CSV or JSON; create and update resources from a CSV" />
        <LinkCard to={paths.admin.security} icon={ShieldCheck} title="Security" description="Two-step sign-in, passkeys, your sessions and your password" />
        {isSuperUser && (
          <LinkCard to={paths.admin.manageAdmins} icon={Users} title="Manage Admins" description="Add or remove admin users" />
        )}
        {isSuperUser && (
          <LinkCard to={paths.admin.settings()} icon={Settings} title="Settings" description="Site name, home texts, community, footer, figures and legal pages" />
        )}
        {isSuperUser && <LinkCard to={paths.admin.system} icon={Server} title="System" description="Database, storage, ffmpeg, jobs and the servers running" />}
      </section>

      <section aria-labelledby="categories-heading" className="mt-10">
        <h2 id="categories-heading" className="mb-4 text-xl font-semibold tracking-tight">
          Categories
        </h2>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {CATEGORIES.map((c) => (
            <Link
              key={c.value}
              to={paths.admin.resources(c.value)}
              className="group rounded-xl outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
            >
              <Card className="relative flex h-full flex-col overflow-hidden p-5 transition-all group-hover:-translate-y-0.5 group-hover:shadow-lg">
                <div className={cn('absolute inset-x-0 top-0 h-1.5 bg-gradient-to-r', c.gradient)} />
                <div className="flex items-start justify-between gap-2">
                  <h3 className="font-semibold">{c.title}</h3>
                  <ArrowRight className="size-4 shrink-0 text-muted-foreground transition-transform group-hover:translate-x-0.5 group-hover:text-foreground" aria-hidden="true" />
                </div>
                <p className="mt-1 text-sm text-muted-foreground">{c.adminDescription}</p>
                <p className="mt-auto pt-4 text-sm">
                  {loading ? (
                    <Skeleton className="inline-block h-5 w-24 align-middle" />
                  ) : (
                    <>
                      <span className="text-2xl font-bold tabular-nums">{formatNumber(counts.get(c.value) ?? 0)}</span>{' '}
                      <span className="text-muted-foreground">resources</span>
                    </>
                  )}
                </p>
              </Card>
            </Link>
          ))}
        </div>
      </section>

      <div className="mt-10 grid gap-6 lg:grid-cols-5">
        <section aria-labelledby="top-heading" className="lg:col-span-2">
          <Card className="h-full p-6">
            <h2 id="top-heading" className="flex items-center gap-2 text-xl font-semibold tracking-tight">
              <Trophy className="size-5 text-amber-500" aria-hidden="true" /> Top Resources
            </h2>
            <p className="mt-1 text-sm text-muted-foreground">Most downloaded of all time</p>
            {loading ? (
              <div className="mt-4 grid gap-3">
                {Array.from({ length: 5 }, (_, i) => (
                  <Skeleton key={i} className="h-14" />
                ))}
              </div>
            ) : data.top_resources.length === 0 ? (
              <p className="mt-6 text-sm text-muted-foreground">No downloads yet.</p>
            ) : (
              <ol className="mt-4 grid gap-2">
                {data.top_resources.map((r, i) => (
                  <li key={r.id} className="flex items-center gap-3 rounded-lg border bg-background/60 p-3">
                    <span
                      className={cn(
                        'grid size-8 shrink-0 place-items-center rounded-full text-sm font-bold',
                        i === 0 ? 'bg-gradient-to-br from-amber-400 to-yellow-500 text-amber-950' : 'bg-muted text-muted-foreground',
                      )}
                    >
                      {i + 1}
                    </span>
                    <div className="min-w-0 flex-1">
                      <Link
                        to={paths.admin.editResource(r.category, r.id)}
                        className="block truncate font-medium hover:underline focus-visible:underline focus-visible:outline-none"
                      >
                        {r.title}
                      </Link>
                      <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
                        <Badge variant="outline">{getCategory(r.category).title}</Badge>
                        <span>Downloads: {formatNumber(r.download_count)}</span>
                        <span>ID: {r.id}</span>
                      </div>
                    </div>
                  </li>
                ))}
              </ol>
            )}
          </Card>
        </section>

        <section aria-labelledby="chart-heading" className="lg:col-span-3">
          <DownloadsSection />
        </section>
      </div>
    </>
  );
}

/** Downloads per day over 7–365 days, and by category, from their own query (the range switch refetches only these). */
function DownloadsSection() {
  const [range, setRange] = React.useState<DownloadRange>(DEFAULT_DOWNLOAD_RANGE);
  const stats = useDownloadStats(range);
  React.useEffect(() => {
    if (stats.error && !isSessionError(stats.error)) console.error('Failed to load download stats', stats.error);
  }, [stats.error]);
  const titles = new Map(CATEGORIES.map((c) => [c.value, c.title]));
  return (
    <Card className="h-full p-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="chart-heading" className="flex items-center gap-2 text-xl font-semibold tracking-tight">
            <BarChart3 className="size-5 text-violet-500" aria-hidden="true" /> Downloads per Day
          </h2>
          <p className="mt-1 text-sm text-muted-foreground">The last {range} days</p>
        </div>
        <RangeSwitch value={range} onChange={setRange} />
      </div>
      <div className="mt-4" aria-busy={stats.isFetching}>
        {stats.data ? <DownloadsChart days={stats.data.days} /> : <Skeleton className="h-60" />}
      </div>
      <h3 className="mt-8 font-semibold">By category</h3>
      <p className="mb-3 mt-1 text-xs text-muted-foreground">Downloads of current resources, counted per resource since per-resource counts began.</p>
      {stats.data ? (
        <CategoryChart categories={stats.data.categories.map((c) => ({ title: titles.get(c.category) ?? c.category, count: c.count }))} />
      ) : (
        <Skeleton className="h-48" />
      )}
    </Card>
  );
}

function LinkCard({
  to,
  icon: Icon,
  title,
  description,
}: {
  to: string;
  icon: React.ComponentType<{ className?: string; 'aria-hidden'?: boolean | 'true' }>;
  title: string;
  description: string;
}) {
  return (
    <Link to={to} className="group rounded-xl outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50">
      <Card className="flex h-full items-center gap-4 p-5 transition-all group-hover:-translate-y-0.5 group-hover:border-violet-400/60 group-hover:shadow-lg">
        <span className="grid size-12 shrink-0 place-items-center rounded-xl bg-gradient-to-br from-violet-600 to-fuchsia-600 text-white shadow-md">
          <Icon className="size-6" aria-hidden="true" />
        </span>
        <div className="min-w-0 flex-1">
          <h2 className="font-semibold">{title}</h2>
          <p className="text-sm text-muted-foreground">{description}</p>
        </div>
        <ArrowRight className="size-5 text-muted-foreground transition-transform group-hover:translate-x-1 group-hover:text-foreground" aria-hidden="true" />
      </Card>
    </Link>
  );
}
