import type { Stat } from '@contract/site';
import { Download, type LucideIcon, Package, TrendingUp, Users } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/primitives';
import { useSite } from '@/lib/site-api';
import { cn } from '@/lib/utils';
import { useCountUp } from './use-count-up';

const LOOK: Record<Stat['key'], { icon: LucideIcon; gradient: string; glow: string }> = {
  resources: { icon: Package, gradient: 'from-violet-500 to-indigo-600', glow: 'group-hover:shadow-violet-500/25' },
  downloads: { icon: Download, gradient: 'from-fuchsia-500 to-pink-600', glow: 'group-hover:shadow-fuchsia-500/25' },
  members: { icon: Users, gradient: 'from-sky-500 to-blue-600', glow: 'group-hover:shadow-sky-500/25' },
  growth: { icon: TrendingUp, gradient: 'from-emerald-500 to-teal-600', glow: 'group-hover:shadow-emerald-500/25' },
};

const formatNumber = (n: number, decimals: number) =>
  n.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });

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
  const { ref, value } = useCountUp<HTMLSpanElement>(stat.value);
  const final = formatNumber(stat.value, decimals);
  const shown = formatNumber(decimals ? Math.round(value * 10) / 10 : Math.floor(value), decimals);

  return (
    <Dialog>
      <DialogTrigger asChild>
        <button
          type="button"
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
      </DialogTrigger>
      <DialogContent hideClose className="max-w-md">
        <DialogHeader>
          <DialogTitle className="flex items-center gap-3">
            <span className={cn('grid size-9 place-items-center rounded-lg bg-gradient-to-br text-white', look.gradient)}>
              <Icon className="size-5" aria-hidden="true" />
            </span>
            {stat.label}
          </DialogTitle>
          <DialogDescription>
            {final}
            {stat.suffix} in total. Recent growth:
          </DialogDescription>
        </DialogHeader>
        <dl className="grid grid-cols-3 gap-3">
          {(['daily', 'weekly', 'monthly'] as const).map((period) => (
            <div key={period} className="rounded-xl border bg-muted/50 p-3 text-center">
              <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">
                {period.charAt(0).toUpperCase() + period.slice(1)}
              </dt>
              <dd className="mt-1 text-xl font-bold tabular-nums">
                +{formatNumber(stat[period], decimalsOf(stat[period]))}
                {stat.suffix === '%' ? '%' : ''}
              </dd>
            </div>
          ))}
        </dl>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Close</Button>
          </DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
