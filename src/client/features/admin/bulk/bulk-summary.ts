import type { BulkActionName, BulkRequest, BulkResponse } from '@contract/bulk';
import { formatCategoryTitle } from '@contract/categories';
import { formatNumber } from '../lib/format';

/** What the toast says was done, after the count: "12 published". */
const DONE: Record<BulkActionName, (body: BulkRequest) => string> = {
  publish: () => 'published',
  unpublish: () => 'moved to drafts',
  trash: () => 'deleted',
  move: (b) => `moved to ${formatCategoryTitle(b.category ?? '')}`,
  add_tags: () => 'tagged',
  remove_tags: () => 'untagged',
  premium: () => 'marked premium',
  not_premium: () => 'no longer premium',
};

/** Failures named in the toast; past this many, "and N more". */
const FAILURES_SHOWN = 5;

export interface BulkSummary {
  title: string;
  /** One line per failure shown: the resource (its title when known) and the server's reason. */
  failures: string[];
  variant: 'success' | 'destructive';
}

/**
 * The toast after a bulk action: how many were done ("12 published"), then each failure with
 * its reason ("“Rain pack”: Resource not found"), at most FAILURES_SHOWN of them.
 */
export function bulkSummary(body: BulkRequest, response: BulkResponse, titles: ReadonlyMap<number, string>): BulkSummary {
  const done = `${formatNumber(response.succeeded)} ${DONE[body.action](body)}`;
  const failed = response.results.flatMap((r) => (r.ok ? [] : [r]));
  if (failed.length === 0) return { title: done, failures: [], variant: 'success' };
  const lines = failed.slice(0, FAILURES_SHOWN).map((r) => {
    const title = titles.get(r.id);
    return `${title ? `“${title}”` : `Resource #${r.id}`}: ${r.error.message}`;
  });
  if (failed.length > FAILURES_SHOWN) lines.push(`and ${formatNumber(failed.length - FAILURES_SHOWN)} more`);
  return { title: `${done}, ${formatNumber(failed.length)} failed`, failures: lines, variant: 'destructive' };
}
