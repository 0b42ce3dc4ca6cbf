/**
 * The bulk upload queue (docs/decisions/409-bulk-upload-drafts.md): each file is a tus upload, then
 * a draft made from it. At most `concurrency` files are being sent; the others wait in the order
 * they were added. Making a draft (one small request, while the server attaches the file) holds no
 * place, so the next file's bytes go at once. A paused file gives its place up until resumed; a
 * failed one keeps what it got (a finished upload is not sent again) and Retry goes on from there.
 * No React here: the component reads it through useSyncExternalStore, tests drive it with a fake
 * transport.
 */

/** How many files are sent at once (the issue: three). */
export const BULK_UPLOAD_CONCURRENCY = 3;

export type ItemStatus = 'waiting' | 'uploading' | 'paused' | 'creating' | 'done' | 'failed' | 'cancelled';

export interface QueueItem {
  key: number;
  file: File;
  status: ItemStatus;
  /** Bytes the server has of this file. */
  sent: number;
  total: number;
  /** The finished upload's id, once sent. */
  uploadId?: string;
  /** The draft made from it. */
  resource?: { id: number; title: string };
  /** Why it failed (status `failed`). */
  error?: string;
}

/** One running upload: settles with the upload id; pause keeps what the server has, cancel deletes it. */
export interface UploadTask {
  done: Promise<string>;
  pause(): void;
  resume(): void;
  cancel(): void;
}

export interface BulkTransport {
  upload(file: File, onProgress: (sent: number, total: number) => void): UploadTask;
  /** Makes the draft from a finished upload. */
  create(file: File, uploadId: string): Promise<{ id: number; title: string }>;
  /** A failure in words. */
  message(error: unknown): string;
}

export interface QueueSummary {
  total: number;
  done: number;
  failed: number;
  cancelled: number;
  /** Waiting, uploading, paused or creating. */
  pending: number;
  /** Bytes sent of the files not cancelled, of their total. */
  sent: number;
  bytes: number;
}


export class UploadQueue {
  private items: QueueItem[] = [];
  private readonly tasks = new Map<number, UploadTask>();
  private readonly listeners = new Set<() => void>();
  private nextKey = 1;
  /** Bumped per start of an item: callbacks of a cancelled or replaced run change nothing. */
  private readonly runs = new Map<number, number>();

  constructor(
    private readonly transport: BulkTransport,
    private readonly concurrency: number = BULK_UPLOAD_CONCURRENCY,
  ) {}

  /** The items as they are now (a new array after every change, for useSyncExternalStore). */
  snapshot = (): readonly QueueItem[] => this.items;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  add(files: readonly File[]): void {
    const added = files.map((file): QueueItem => ({ key: this.nextKey++, file, status: 'waiting', sent: 0, total: file.size }));
    this.items = [...this.items, ...added];
    this.changed();
  }

  pause(key: number): void {
    const item = this.find(key);
    if (item?.status !== 'uploading') return;
    this.tasks.get(key)?.pause();
    this.set(key, { status: 'paused' });
  }

  /** A paused file waits for a place again (ahead of those added after it). */
  resume(key: number): void {
    if (this.find(key)?.status === 'paused') this.set(key, { status: 'waiting' });
  }

  retry(key: number): void {
    if (this.find(key)?.status === 'failed') this.set(key, { status: 'waiting', error: undefined });
  }

  /** Stops a file that has no draft yet; its unfinished upload is deleted. */
  cancel(key: number): void {
    const item = this.find(key);
    if (!item || !['waiting', 'uploading', 'paused', 'failed'].includes(item.status)) return;
    this.runs.set(key, (this.runs.get(key) ?? 0) + 1);
    this.tasks.get(key)?.cancel();
    this.tasks.delete(key);
    this.set(key, { status: 'cancelled' });
  }

  /** Pauses every file being sent and holds the waiting ones (they start on resumeAll). */
  pauseAll(): void {
    // All in one change: pausing one at a time would let a waiting one take the freed place.
    for (const item of this.items) if (item.status === 'uploading') this.tasks.get(item.key)?.pause();
    this.items = this.items.map((i) => (i.status === 'uploading' || i.status === 'waiting' ? { ...i, status: 'paused' } : i));
    this.changed();
  }

  resumeAll(): void {
    this.items = this.items.map((i) => (i.status === 'paused' ? { ...i, status: 'waiting' } : i));
    this.changed();
  }

  /** Forgets the finished, failed and cancelled files (a new batch starts with a clean summary). */
  clearFinished(): void {
    this.items = this.items.filter((i) => !['done', 'failed', 'cancelled'].includes(i.status));
    this.changed();
  }

  /** Stops everything still sending (the page goes away); the server keeps what it has. */
  stop(): void {
    for (const task of this.tasks.values()) task.pause();
  }

  private find(key: number) {
    return this.items.find((i) => i.key === key);
  }

  private set(key: number, patch: Partial<QueueItem>) {
    this.items = this.items.map((i) => (i.key === key ? { ...i, ...patch } : i));
    this.changed();
  }

  private changed() {
    this.pump();
    for (const l of this.listeners) l();
  }

  private pump() {
    let active = this.items.filter((i) => i.status === 'uploading').length;
    for (const item of this.items) {
      if (item.status !== 'waiting') continue;
      if (!item.uploadId) {
        if (active >= this.concurrency) continue;
        active++;
      }
      this.items = this.items.map((i) => (i.key === item.key ? { ...i, status: item.uploadId ? 'creating' : 'uploading' } : i));
      void this.run(item.key);
    }
  }

  private async run(key: number) {
    const run = (this.runs.get(key) ?? 0) + 1;
    this.runs.set(key, run);
    const current = () => this.runs.get(key) === run;
    const item = this.find(key)!;
    try {
      let uploadId = item.uploadId;
      if (!uploadId) {
        let task = this.tasks.get(key);
        if (task) task.resume();
        else {
          task = this.transport.upload(item.file, (sent, total) => current() && this.set(key, { sent, total }));
          this.tasks.set(key, task);
        }
        uploadId = await task.done;
        if (!current()) return;
        this.tasks.delete(key);
        this.set(key, { status: 'creating', uploadId, sent: item.total });
      }
      const resource = await this.transport.create(item.file, uploadId);
      if (current()) this.set(key, { status: 'done', resource });
    } catch (error) {
      if (!current()) return;
      // A paused upload's task rejects or stays pending by the transport's choice: paused wins.
      if (this.find(key)?.status === 'paused') return;
      this.tasks.delete(key);
      this.set(key, { status: 'failed', error: this.transport.message(error) });
    }
  }
}

export function summarize(items: readonly QueueItem[]): QueueSummary {
  const count = (s: ItemStatus) => items.filter((i) => i.status === s).length;
  const kept = items.filter((i) => i.status !== 'cancelled');
  return {
    total: items.length,
    done: count('done'),
    failed: count('failed'),
    cancelled: count('cancelled'),
    pending: items.length - count('done') - count('failed') - count('cancelled'),
    sent: kept.reduce((n, i) => n + i.sent, 0),
    bytes: kept.reduce((n, i) => n + i.total, 0),
  };
}
