import type { PublicResource } from '@contract/resources';
import type * as React from 'react';

/** One line of the page's facts list: an icon and a term, and its value. */
export function Fact({ icon, term, children }: { icon: React.ReactNode; term: string; children: React.ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-3">
      <dt className="inline-flex items-center gap-2 text-muted-foreground">
        {icon}
        {term}
      </dt>
      <dd className="text-right font-medium">{children}</dd>
    </div>
  );
}

/**
 * FILE DETAILS SLOT: the hosted file's format and size, as `Fact` lines, once resources carry
 * `file` (issue #14, hosted files). Until then a resource links to an outside download and has no
 * file details to show, so this renders nothing.
 */
export function FileDetails(_props: { resource: PublicResource }) {
  return null;
}
