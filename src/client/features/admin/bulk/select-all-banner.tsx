import { BULK_MAX } from '@contract/bulk';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/primitives';
import { toast } from '@/components/ui/use-toast';
import { errorMessage, isSessionError } from '../lib/errors';
import { formatNumber } from '../lib/format';
import type { Selection } from './use-selection';

/**
 * Above the list when its whole page is selected and more match: "Select all N matching" asks the
 * server for every matching id (at most BULK_MAX, newest first) and selects them; then it says
 * what is selected, and that a list past BULK_MAX is done a thousand at a time.
 */
export function SelectAllBanner({
  selection,
  pageAll,
  pageSize,
  total,
  totalExact,
  fetchIds,
  onSelectMatching,
  onClear,
}: {
  selection: Selection;
  /** Every row of the page is selected. */
  pageAll: boolean;
  pageSize: number;
  total: number;
  totalExact: boolean;
  fetchIds(): Promise<{ ids: number[]; total: number; totalExact: boolean }>;
  onSelectMatching(ids: number[], total: number, totalExact: boolean): void;
  onClear(): void;
}) {
  const [loading, setLoading] = React.useState(false);
  const more = (exact: boolean) => (exact ? '' : '+');
  let content: React.ReactNode = null;
  if (selection.matching) {
    const m = selection.matching;
    const n = selection.ids.size;
    content = (
      <>
        <span>
          {n < m.total || !m.totalExact
            ? `The newest ${formatNumber(n)} of ${formatNumber(m.total)}${more(m.totalExact)} matching are selected: at most ${formatNumber(BULK_MAX)} at a time.`
            : `All ${formatNumber(n)} matching are selected.`}
        </span>
        <Button variant="link" size="sm" className="h-auto p-0" onClick={onClear}>
          Clear selection
        </Button>
      </>
    );
  } else if (pageAll && total > pageSize) {
    const select = async () => {
      setLoading(true);
      try {
        const found = await fetchIds();
        onSelectMatching(found.ids, found.total, found.totalExact);
      } catch (err) {
        if (!isSessionError(err)) toast({ title: 'Failed to fetch resources', description: errorMessage(err), variant: 'destructive' });
      } finally {
        setLoading(false);
      }
    };
    content = (
      <>
        <span>All {formatNumber(pageSize)} on this page are selected.</span>
        <Button variant="link" size="sm" className="h-auto p-0" disabled={loading} onClick={select}>
          {loading && <Spinner />}
          {total > BULK_MAX || !totalExact
            ? `Select the newest ${formatNumber(BULK_MAX)} of ${formatNumber(total)}${more(totalExact)} matching`
            : `Select all ${formatNumber(total)} matching`}
        </Button>
      </>
    );
  }
  if (!content) return null;
  return <div className="flex flex-wrap items-center justify-center gap-x-2 gap-y-1 border-b bg-primary/5 px-4 py-2 text-sm">{content}</div>;
}
