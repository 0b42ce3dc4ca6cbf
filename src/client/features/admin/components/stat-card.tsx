import type { LucideIcon } from 'lucide-react';
import type * as React from 'react';
import { Card, Skeleton } from '@/components/ui/primitives';
import { cn } from '@/lib/utils';

/** One figure of a statistics row (dashboard, a resource's statistics): a skeleton until its value is known. */
export function StatCard({ label, value, icon: Icon, tone }: { label: string; value: React.ReactNode | undefined; icon: LucideIcon; tone: string }) {
  return (
    <Card className="relative overflow-hidden p-4 sm:p-5">
      <div className={cn('absolute inset-x-0 top-0 h-1 bg-gradient-to-r', tone)} />
      <div className="flex items-start justify-between gap-2">
        <p className="text-xs font-medium text-muted-foreground sm:text-sm">{label}</p>
        <span className={cn('grid size-8 shrink-0 place-items-center rounded-lg bg-gradient-to-br text-white shadow sm:size-9', tone)}>
          <Icon className="size-4" aria-hidden="true" />
        </span>
      </div>
      {value === undefined ? <Skeleton className="mt-3 h-9 w-24" /> : <p className="mt-2 text-2xl font-bold tabular-nums sm:text-3xl">{value}</p>}
    </Card>
  );
}
