import type { Stat } from '@contract/site';
import { Download, type LucideIcon, Package, TrendingUp, Users } from 'lucide-react';
import * as React from 'react';
import { Skeleton } from '@/components/ui/primitives';
import { formatNumber } from '@/lib/format';
import { useSite } from '@/lib/site-api';
import { cn } from '@/lib/utils';
import { useCountUp } from './use-count-up';

const LOOK: Record<Stat['key'], { icon: LucideIcon; gradient: string; glow: string }> = {
  resources: { icon: Package, gradient: 'from-violet-500 to-indigo-600', glow: 'group-hover:shadow-violet-500/25' },
  downloads: { icon: Download, gradient: 'from-fuchsia-500 to-pink-600', glow: 'group-hover:shadow-fuchsia-500/25' },
  members: { icon: Users, gradient: 'from-sky-500 to-blue-600', glow: 'group-hover:shadow-sky-500/25' },
  growth: { icon: TrendingUp, gradient: 'from-emerald-500 to-teal-600', glow: 'group-hover:shadow-emerald-500/25' },
};

// The dialog (Radix) is its own chunk, fetched when a card is pointed at, focused or opened.
const loadStatDialog = () => import('./stat-dialog');
const StatDialog = React.lazy(loadStatDialog);

/** What the counter shows while counting to a figure with `decimals` decimals. */
const formatStep = (decimals: number) => (value: number) => formatNumber(decimals ? Math.round(value * 10) / 10 : Math.floor(value), decimals);
const countSteps = [formatStep(0), formatStep(1)];

const decimalsOf = (n: number) => (Number.isInteger(n) ? 0 : 1);

export function CommunityStats() {
  const site = useSite();
  return (
    <section id="stats" aria-labelledby="stats-heading" className="relative scroll-mt-20 px-4 py-20 sm:px-6">
      <div className="mx-auto max-w-6xl">
        <div className="mx-auto mb-12 max-w-2xl text-center">
          <h2 id="stats-heading" className="text-3xl font-bold tracking-tight sm:text-4xl">
            Our Growing Community
          </h2>
          <p className="mt-3 text-muted-foreground">
            Editors and designers everywhere build with these packs. Tap a card to see how fast it is moving.
          </p>
        </div>
        <div className="grid grid-cols-2 gap-3 sm:gap-5 lg:grid-cols-4">
          {site.data
            ? site.data.stats.map((stat) => <StatCard key={stat.key} stat={stat} />)
            : Array.from({ length: 4 }, (_, i) => (
                <div key={i} className="home-glass flex h-[212px] flex-col items-center justify-center gap-4 rounded-2xl p-4 sm:p-6">
                  <Skeleton className="size-12 rounded-xl" />
                  <Skeleton className="h-9 w-28" />
                  <Skeleton className="h-4 w-32" />
                </div>
              ))}
        </div>
        {site.isError && !site.data && (
          <p role="status" className="mt-4 text-center text-sm text-muted-foreground">
            Community figures are unavailable right now.
          </p>
        )}
      </div>
    </section>
  );
}

function StatCard({ stat }: { stat: Stat }) {
  const look = LOOK[stat.key] ?? LOOK.resources;
  const Icon = look.icon;
  const decimals = decimalsOf(stat.value);
  const ref = useCountUp<HTMLSpanElement>(stat.value, countSteps[decimals] ?? countSteps[0]);
  const final = formatNumber(stat.value, decimals);
  // The count starts at 0; useCountUp writes each step into this text itself.
  const shown = formatNumber(0, decimals);

  const [open, setOpen] = React.useState(false);
  // Mounted on the first open, then kept so the dialog can animate closed.
  const [opened, setOpened] = React.useState(false);
  const button = React.useRef<HTMLButtonElement>(null);
  const rate = stat.suffix === '%';
  const figures = (['daily', 'weekly', 'monthly'] as const).map((period) => ({
    period: period.charAt(0).toUpperCase() + period.slice(1),
    value: `+${formatNumber(stat[period], decimalsOf(stat[period]))}${rate ? '%' : ''}`,
  }));

  return (
    <>
      <button
        ref={button}
        type="button"
        aria-haspopup="dialog"
        aria-expanded={open}
        onPointerEnter={() => void loadStatDialog()}
        onFocus={() => void loadStatDialog()}
        onClick={() => {
          setOpened(true);
          setOpen(true);
        }}
        className={cn(
          'home-glass group relative flex h-[212px] cursor-pointer flex-col items-center justify-center gap-3 overflow-hidden rounded-2xl p-4 text-center transition-all duration-300 sm:p-6',
          'hover:-translate-y-1 hover:shadow-xl focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/60',
          look.glow,
        )}
      >
        <span
          aria-hidden="true"
          className={cn('pointer-events-none absolute -right-10 -top-10 size-32 rounded-full bg-gradient-to-br opacity-20 blur-2xl transition-opacity group-hover:opacity-40', look.gradient)}
        />
        <span className={cn('grid size-12 place-items-center rounded-xl bg-gradient-to-br text-white shadow-lg', look.gradient)}>
          <Icon className="size-6" aria-hidden="true" />
        </span>
        <span className="text-3xl font-black tracking-tight tabular-nums sm:text-4xl">
          <span
            aria-hidden="true"
            className="inline-block text-center"
            // Reserve the final width so counting never moves anything around it.
            style={{ minWidth: `${final.length + stat.suffix.length}ch` }}
          >
            <span ref={ref} data-counter>
              {shown}
            </span>
            {stat.suffix}
          </span>
          <span className="sr-only">
            {final}
            {stat.suffix}
          </span>
        </span>
        <span className="text-sm font-semibold leading-tight sm:text-base">{stat.label}</span>
        <span className="text-xs text-muted-foreground transition-colors group-hover:text-foreground">View details</span>
      </button>
      {opened && (
        <React.Suspense fallback={null}>
          <StatDialog
            open={open}
            onOpenChange={setOpen}
            trigger={button}
            label={stat.label}
            icon={Icon}
            gradient={look.gradient}
            total={`${final}${stat.suffix}`}
            rate={rate}
            figures={figures}
          />
        </React.Suspense>
      )}
    </>
  );
}
