import type { BulkItemResult } from '@contract/bulk';
import type { CategoryValue } from '@contract/categories';
import { CheckCircle2, FolderUp, Pause, Play, RotateCcw, Send, Upload, X } from 'lucide-react';
import * as React from 'react';
import { Link } from '@/lib/link';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/primitives';
import { toast } from '@/components/ui/use-toast';
import { formatBytes } from '@/lib/format';
import { paths } from '@/lib/paths';
import { cn } from '@/lib/utils';
import { useBulkResources } from '../api/bulk-resources';
import { bulkSummary } from '../bulk/bulk-summary';
import { errorMessage, isSessionError } from '../lib/errors';
import { formatNumber } from '../lib/format';
import { filesFromDrop, visible } from './files-from-drop';
import { LeaveGuard } from '../components/leave-guard';
import type { QueueItem } from './upload-queue';
import { useBulkUpload } from './use-bulk-upload';

const plural = (n: number, one: string, many = `${one}s`) => `${formatNumber(n)} ${n === 1 ? one : many}`;

/**
 * Bulk upload on a category's admin list (issue #30, docs/decisions/409-bulk-upload-drafts.md):
 * drop files or a folder (or choose them), each becomes a draft; three are sent at a time, each
 * with its progress and its own pause, cancel and retry; at the end a summary and "Publish all".
 */
export function BulkUploadPanel({ category }: { category: CategoryValue }) {
  const { queue, items, summary } = useBulkUpload(category);
  const [over, setOver] = React.useState(false);
  const [published, setPublished] = React.useState<ReadonlySet<number>>(new Set());
  const [refused, setRefused] = React.useState<ReadonlyMap<number, string>>(new Map());
  const filesInput = React.useRef<HTMLInputElement>(null);
  const folderInput = React.useRef<HTMLInputElement>(null);
  const bulk = useBulkResources(category);

  const finished = summary.total > 0 && summary.pending === 0;
  const drafts = items.flatMap((i) => (i.resource && !published.has(i.resource.id) ? [i.resource] : []));
  const anyPaused = items.some((i) => i.status === 'paused');
  const anyRunning = items.some((i) => i.status === 'uploading' || i.status === 'waiting');

  const take = (files: File[]) => {
    if (files.length > 0) queue.add(files);
  };
  const onPicked = (e: React.ChangeEvent<HTMLInputElement>) => {
    take(visible(Array.from(e.target.files ?? [])));
    e.target.value = '';
  };
  const onDrop = (e: React.DragEvent) => {
    e.preventDefault();
    setOver(false);
    void filesFromDrop(e.dataTransfer).then(take);
  };

  const publishAll = () => {
    const ids = drafts.map((d) => d.id);
    const titles = new Map(drafts.map((d) => [d.id, d.title]));
    bulk.mutate(
      { ids, action: 'publish' },
      {
        onSuccess: (response) => {
          const s = bulkSummary({ ids, action: 'publish' }, response, titles);
          setPublished((p) => new Set([...p, ...response.results.filter((r) => r.ok).map((r) => r.id)]));
          setRefused(new Map(response.results.flatMap((r: BulkItemResult) => (r.ok ? [] : [[r.id, r.error.message] as const]))));
          toast({ title: s.title, description: s.failures.length > 0 ? s.failures.join('\n') : undefined, variant: s.variant });
        },
        onError: (err) => {
          if (!isSessionError(err)) toast({ title: 'Failed to publish the drafts', description: errorMessage(err), variant: 'destructive' });
        },
      },
    );
  };

  const clear = () => {
    queue.clearFinished();
    setPublished(new Set());
    setRefused(new Map());
  };

  return (
    <Card className="mb-6 overflow-hidden">
      <section aria-labelledby="bulk-upload-title">
        <div
          onDragOver={(e) => {
            e.preventDefault();
            setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={onDrop}
          className={cn('flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between', over && 'bg-primary/5 ring-2 ring-inset ring-primary')}
        >
          <div>
            <h2 id="bulk-upload-title" className="font-semibold">
              Bulk upload
            </h2>
            <p className="text-sm text-muted-foreground">Drop files or a folder here: each becomes a draft titled from its file name.</p>
          </div>
          <div className="flex flex-wrap gap-2">
            <Button type="button" variant="outline" onClick={() => filesInput.current?.click()}>
              <Upload aria-hidden="true" /> Upload files
            </Button>
            <Button type="button" variant="outline" onClick={() => folderInput.current?.click()}>
              <FolderUp aria-hidden="true" /> Upload a folder
            </Button>
            <input ref={filesInput} type="file" multiple hidden aria-label="Files to upload" onChange={onPicked} />
            <input ref={folderInput} type="file" multiple hidden aria-label="Folder to upload" onChange={onPicked} {...{ webkitdirectory: '' }} />
          </div>
        </div>

        {summary.total > 0 && (
          <div className="border-t">
            <div className="flex flex-wrap items-center justify-between gap-2 px-4 py-3">
              <p className="text-sm font-medium tabular-nums">
                {finished
                  ? `${plural(summary.done, 'draft')} created, ${formatNumber(summary.failed)} failed${published.size > 0 ? ` · ${formatNumber(published.size)} published` : ''}`
                  : `${formatNumber(summary.done)} of ${plural(summary.total - summary.cancelled, 'file')} done · ${formatBytes(summary.sent)} of ${formatBytes(summary.bytes)}`}
              </p>
              <div className="flex flex-wrap gap-2">
                {anyRunning && (
                  <Button type="button" size="sm" variant="outline" onClick={() => queue.pauseAll()}>
                    <Pause aria-hidden="true" /> Pause all
                  </Button>
                )}
                {anyPaused && (
                  <Button type="button" size="sm" variant="outline" onClick={() => queue.resumeAll()}>
                    <Play aria-hidden="true" /> Resume all
                  </Button>
                )}
                {finished && drafts.length > 0 && (
                  <Button type="button" size="sm" variant="gradient" disabled={bulk.isPending} onClick={publishAll}>
                    <Send aria-hidden="true" /> {bulk.isPending ? 'Publishing…' : `Publish all ${formatNumber(drafts.length)}`}
                  </Button>
                )}
                {finished && (
                  <Button type="button" size="sm" variant="ghost" onClick={clear}>
                    Clear list
                  </Button>
                )}
              </div>
            </div>
            <ul aria-label="Upload queue" className="max-h-96 divide-y overflow-y-auto border-t">
              {items.map((item) => (
                <QueueRow
                  key={item.key}
                  item={item}
                  category={category}
                  published={!!item.resource && published.has(item.resource.id)}
                  refused={item.resource && refused.get(item.resource.id)}
                  queue={queue}
                />
              ))}
            </ul>
          </div>
        )}
        <p aria-live="polite" className="sr-only">
          {finished ? `${plural(summary.done, 'draft')} created, ${formatNumber(summary.failed)} failed` : ''}
        </p>
        <LeaveGuard
          when={summary.pending > 0}
          title="Leave while uploading?"
          description="Files are still being uploaded. If you leave now, they stop; choose the same files again later to resume them."
          confirmLabel="Leave"
        />
      </section>
    </Card>
  );
}

type Controls = Pick<ReturnType<typeof useBulkUpload>['queue'], 'pause' | 'resume' | 'retry' | 'cancel'>;

function QueueRow({ item, category, published, refused, queue }: { item: QueueItem; category: CategoryValue; published: boolean; refused?: string; queue: Controls }) {
  const percent = item.total > 0 ? Math.floor((item.sent / item.total) * 100) : 100;
  const state: Record<QueueItem['status'], string> = {
    waiting: 'Waiting',
    uploading: `Uploading ${percent}%`,
    paused: `Paused at ${percent}%`,
    creating: 'Creating draft…',
    done: published ? 'Published' : 'Draft created',
    failed: 'Failed',
    cancelled: 'Cancelled',
  };
  const name = item.file.webkitRelativePath || item.file.name;
  const describedBy = `bulk-upload-${item.key}`;
  return (
    <li className="grid gap-1.5 px-4 py-2.5" aria-describedby={describedBy}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0">
          <p className="truncate text-sm font-medium">{name}</p>
          <p id={describedBy} className={cn('text-xs tabular-nums text-muted-foreground', item.status === 'failed' && 'text-destructive')}>
            {state[item.status]}
            {item.status === 'failed' && item.error ? `: ${item.error}` : ''} · {formatBytes(item.total)}
          </p>
        </div>
        <div className="flex shrink-0 items-center gap-1.5">
          {item.status === 'done' && item.resource && (
            <Link to={paths.admin.editResource(category, item.resource.id)} className="inline-flex items-center gap-1 text-sm font-medium text-primary underline-offset-4 hover:underline">
              <CheckCircle2 aria-hidden="true" className="size-4" /> {item.resource.title}
            </Link>
          )}
          {item.status === 'uploading' && (
            <Button type="button" size="sm" variant="ghost" onClick={() => queue.pause(item.key)} aria-label={`Pause ${name}`}>
              <Pause aria-hidden="true" /> Pause
            </Button>
          )}
          {item.status === 'paused' && (
            <Button type="button" size="sm" variant="ghost" onClick={() => queue.resume(item.key)} aria-label={`Resume ${name}`}>
              <Play aria-hidden="true" /> Resume
            </Button>
          )}
          {item.status === 'failed' && (
            <Button type="button" size="sm" variant="outline" onClick={() => queue.retry(item.key)} aria-label={`Retry ${name}`}>
              <RotateCcw aria-hidden="true" /> Retry
            </Button>
          )}
          {['waiting', 'uploading', 'paused', 'failed'].includes(item.status) && (
            <Button type="button" size="sm" variant="ghost" onClick={() => queue.cancel(item.key)} aria-label={`Cancel ${name}`}>
              <X aria-hidden="true" /> Cancel
            </Button>
          )}
        </div>
      </div>
      {item.status !== 'done' && item.status !== 'cancelled' && (
        <div
          role="progressbar"
          aria-label={`Upload of ${name}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="h-1.5 overflow-hidden rounded-full bg-muted"
        >
          <div
            className={cn(
              'h-full rounded-full transition-[width] duration-300',
              item.status === 'failed' ? 'bg-destructive' : item.status === 'paused' ? 'bg-muted-foreground' : 'bg-gradient-to-r from-violet-600 to-fuchsia-600',
            )}
            style={{ width: `${percent}%` }}
          />
        </div>
      )}
      {refused && (
        <p role="alert" className="text-xs font-medium text-destructive">
          Not published: {refused}
        </p>
      )}
    </li>
  );
}
