import type { CategoryValue } from '@contract/categories';
import * as React from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { invalidateResourceViews } from '../api/invalidate';
import { tusTransport } from './tus-transport';
import { summarize, UploadQueue } from './upload-queue';

/** One category's bulk upload queue, its items and summary; the list refreshes as drafts appear. */
export function useBulkUpload(category: CategoryValue) {
  const [queue] = React.useState(() => new UploadQueue(tusTransport(category)));
  const items = React.useSyncExternalStore(queue.subscribe, queue.snapshot, queue.snapshot);
  const summary = React.useMemo(() => summarize(items), [items]);
  const client = useQueryClient();
  // The admin list shows each draft as it is made.
  React.useEffect(() => {
    if (summary.done > 0) void invalidateResourceViews(client, category);
  }, [summary.done, client, category]);
  // Leaving stops sending; the server keeps what it has (choosing the files again resumes them).
  React.useEffect(() => () => queue.stop(), [queue]);
  return { queue, items, summary };
}
