import type * as React from 'react';
import { cn } from '@/lib/utils';

/** The h1 of every admin page, its subtitle and actions. */
export function PageHeader({
  title,
  description,
  actions,
  className,
}: {
  title: React.ReactNode;
  description?: React.ReactNode;
  actions?: React.ReactNode;
  className?: string;
}) {
  return (
    <div className={cn('mb-8 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between', className)}>
      <div className="min-w-0">
        <h1 className="bg-gradient-to-r from-violet-700 to-fuchsia-600 bg-clip-text text-3xl font-bold tracking-tight text-transparent dark:from-violet-300 dark:to-fuchsia-300 sm:text-4xl">
          {title}
        </h1>
        {description && <p className="mt-2 text-muted-foreground">{description}</p>}
      </div>
      {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
    </div>
  );
}
