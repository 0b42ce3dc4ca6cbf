import { describe, expect, it } from 'vitest';
import { type BulkTransport, summarize, UploadQueue, type UploadTask } from './upload-queue';

/** A transport whose uploads and creates finish when the test says so. */
function fakeTransport() {
  const uploads = new Map<string, { resolve(id: string): void; reject(e: Error): void; progress(n: number): void; paused: boolean; cancelled: boolean }>();
  const creates = new Map<string, { resolve(): void; reject(e: Error): void }>();
  let started = 0;
  const transport: BulkTransport = {
    upload(file, onProgress): UploadTask {
      started++;
      let resolve!: (id: string) => void;
      let reject!: (e: Error) => void;
      const done = new Promise<string>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      const entry = { resolve, reject, progress: (n: number) => onProgress(n, file.size), paused: false, cancelled: false };
      uploads.set(file.name, entry);
      return { done, pause: () => void (entry.paused = true), resume: () => void (entry.paused = false), cancel: () => void (entry.cancelled = true) };
    },
    create(file, uploadId) {
      return new Promise((res, rej) => creates.set(file.name, { resolve: () => res({ id: Number(uploadId), title: file.name }), reject: rej }));
    },
    message: (e) => (e instanceof Error ? e.message : 'failed'),
  };
  return { transport, uploads, creates, started: () => started };
}

const files = (n: number) => Array.from({ length: n }, (_, i) => new File([new Uint8Array(10)], `f${i}.bin`));
const flush = () => new Promise((r) => setTimeout(r, 0));
const statuses = (q: UploadQueue) => q.snapshot().map((i) => i.status);

describe('UploadQueue', () => {
  it('sends three at a time, each then made a draft, the next starting as one is sent', async () => {
    const t = fakeTransport();
    const q = new UploadQueue(t.transport, 3);
    q.add(files(5));
    expect(statuses(q)).toEqual(['uploading', 'uploading', 'uploading', 'waiting', 'waiting']);
    t.uploads.get('f0.bin')!.progress(4);
    expect(q.snapshot()[0]).toMatchObject({ sent: 4, total: 10 });
    t.uploads.get('f0.bin')!.resolve('11');
    await flush();
    // Making the draft holds no place: the fourth starts while the first's draft is made.
    expect(statuses(q)).toEqual(['creating', 'uploading', 'uploading', 'uploading', 'waiting']);
    t.creates.get('f0.bin')!.resolve();
    await flush();
    expect(statuses(q)).toEqual(['done', 'uploading', 'uploading', 'uploading', 'waiting']);
    expect(q.snapshot()[0]).toMatchObject({ uploadId: '11', resource: { id: 11, title: 'f0.bin' }, sent: 10 });
  });

  it('a failed upload frees its place and Retry starts it again; a failed create retries the create only', async () => {
    const t = fakeTransport();
    const q = new UploadQueue(t.transport, 1);
    q.add(files(2));
    t.uploads.get('f0.bin')!.reject(new Error('The server has no room for this file.'));
    await flush();
    expect(q.snapshot()[0]).toMatchObject({ status: 'failed', error: 'The server has no room for this file.' });
    expect(statuses(q)).toEqual(['failed', 'uploading']);
    t.uploads.get('f1.bin')!.resolve('2');
    await flush();
    t.creates.get('f1.bin')!.reject(new Error('Title is required'));
    await flush();
    expect(q.snapshot()[1]).toMatchObject({ status: 'failed', error: 'Title is required', uploadId: '2' });
    expect(t.started()).toBe(2);
    q.retry(1);
    expect(statuses(q)).toEqual(['uploading', 'failed']);
    expect(t.started()).toBe(3);
    t.uploads.get('f0.bin')!.resolve('1');
    await flush();
    t.creates.get('f0.bin')!.resolve();
    await flush();
    q.retry(2);
    expect(statuses(q)).toEqual(['done', 'creating']);
    expect(t.started()).toBe(3);
    t.creates.get('f1.bin')!.resolve();
    await flush();
    expect(summarize(q.snapshot())).toMatchObject({ total: 2, done: 2, failed: 0, pending: 0 });
  });

  it('a paused file gives its place up and resumes the same upload ahead of later ones; cancel deletes it', async () => {
    const t = fakeTransport();
    const q = new UploadQueue(t.transport, 1);
    q.add(files(3));
    const first = t.uploads.get('f0.bin')!;
    q.pause(1);
    expect(first.paused).toBe(true);
    expect(statuses(q)).toEqual(['paused', 'uploading', 'waiting']);
    q.resume(1);
    expect(statuses(q)).toEqual(['waiting', 'uploading', 'waiting']);
    q.cancel(2);
    expect(t.uploads.get('f1.bin')!.cancelled).toBe(true);
    expect(statuses(q)).toEqual(['uploading', 'cancelled', 'waiting']);
    expect(first.paused).toBe(false);
    expect(t.started()).toBe(2);
    // A cancelled upload's late answer changes nothing.
    t.uploads.get('f1.bin')!.resolve('9');
    first.resolve('1');
    await flush();
    expect(statuses(q)).toEqual(['creating', 'cancelled', 'uploading']);
    expect(summarize(q.snapshot())).toMatchObject({ total: 3, cancelled: 1, pending: 2, bytes: 20 });
  });

  it('pause all holds every file; resume all lets them go again', () => {
    const t = fakeTransport();
    const q = new UploadQueue(t.transport, 2);
    q.add(files(3));
    q.pauseAll();
    expect(statuses(q)).toEqual(['paused', 'paused', 'paused']);
    q.resumeAll();
    expect(statuses(q)).toEqual(['uploading', 'uploading', 'waiting']);
    expect(t.started()).toBe(2);
  });
});
