import { ChevronRight } from 'lucide-react';
import * as React from 'react';
import { Link } from '@/lib/link';
import { cn } from '@/lib/utils';

export interface Crumb {
  label: React.ReactNode;
  /** Omitted for the current page (the last crumb). */
  to?: string;
}

/** A breadcrumb trail: links separated by chevrons, the current page last (aria-current). */
export function Breadcrumb({
  trail,
  className,
  linkClassName,
  currentClassName,
}: {
  trail: Crumb[];
  className?: string;
  linkClassName?: string;
  currentClassName?: string;
}) {
  return (
    <nav aria-label="Breadcrumb" className={className}>
      <ol className="flex flex-wrap items-center gap-1.5">
        {trail.map((c, i) => (
          <React.Fragment key={i}>
            {i > 0 && (
              <li aria-hidden="true">
                <ChevronRight className="size-3.5" />
              </li>
            )}
            {c.to === undefined ? (
              <li aria-current="page" className={currentClassName}>
                {c.label}
              </li>
            ) : (
              <li>
                <Link to={c.to} className={cn('rounded-sm', linkClassName)}>
                  {c.label}
                </Link>
              </li>
            )}
          </React.Fragment>
        ))}
      </ol>
    </nav>
  );
}
