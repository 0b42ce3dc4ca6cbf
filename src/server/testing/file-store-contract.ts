import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileNotFoundError, type FileStore, FileTooLargeError, InvalidKeyError, RangeNotSatisfiableError } from '../storage/file-store';

/**
 * What every FileStore does, as tests: `describeFileStore('local', …)` in local.test.ts, and the
 * S3 store runs the same file against its test server. Test-only (imports vitest).
 */
export function describeFileStore(name: string, open: () => Promise<{ store: FileStore; close(): Promise<void> }>) {
  describe(`file store contract: ${name}`, () => {
    let store: FileStore;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ store, close } = await open());
    });
    afterAll(async () => {
      await close?.();
    });

    const body = (s: string | Buffer) => Readable.from([Buffer.from(s)]);
    const read = async (key: string, range?: { start: number; end?: number }) => text((await store.get(key, { range })).body);
    const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
    let n = 0;
    const key = (prefix = 'contract') => `${prefix}/${Date.now().toString(36)}-${n++}`;

    it('stores a stream under a key and gives it back, with its size, validator, time and SHA-256', async () => {
      const k = key();
      const bytes = randomBytes(200_000);
      const stored = await store.put(k, Readable.from([bytes.subarray(0, 70_000), bytes.subarray(70_000)]), { maxBytes: 1_000_000 });
      expect(stored).toMatchObject({ key: k, size: 200_000, sha256: sha256(bytes) });
      expect(stored.etag).toBeTruthy();
      const got = await store.get(k);
      const chunks: Buffer[] = [];
      for await (const c of got.body) chunks.push(c as Buffer);
      expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
      expect(got).toMatchObject({ size: 200_000, contentLength: 200_000, etag: stored.etag });
      const stat = await store.stat(k);
      expect(stat).toMatchObject({ key: k, size: 200_000, etag: stored.etag });
      expect(Math.abs(stat!.modifiedAt.getTime() - Date.now())).toBeLessThan(10 * 60_000);
    });

    it('takes a body that arrives in many chunks (a request body)', async () => {
      const k = key();
      async function* chunks() {
        for (let i = 0; i < 64; i++) yield Buffer.alloc(64 * 1024, i);
      }
      const stored = await store.put(k, Readable.from(chunks()), { maxBytes: 64 * 64 * 1024 });
      expect(stored.size).toBe(64 * 64 * 1024);
    });

    it('replaces a file whole, with a new validator', async () => {
      const k = key();
      const first = await store.put(k, body('first version'), { maxBytes: 100 });
      const second = await store.put(k, body('second, longer version'), { maxBytes: 100 });
      expect(await read(k)).toBe('second, longer version');
      expect(second.etag).not.toBe(first.etag);
    });

    it('refuses a body over maxBytes and keeps nothing of it (nor loses the file it would have replaced)', async () => {
      const k = key();
      await expect(store.put(k, body('x'.repeat(101)), { maxBytes: 100 })).rejects.toBeInstanceOf(FileTooLargeError);
      expect(await store.stat(k)).toBeNull();
      await store.put(k, body('kept'), { maxBytes: 100 });
      await expect(store.put(k, body('y'.repeat(1000)), { maxBytes: 100 })).rejects.toBeInstanceOf(FileTooLargeError);
      expect(await read(k)).toBe('kept');
      expect(await store.put(k, body('z'.repeat(100)), { maxBytes: 100 })).toMatchObject({ size: 100 });
    });

    it('stops a write when its signal aborts, and keeps nothing of it', async () => {
      const k = key();
      const controller = new AbortController();
      async function* slow() {
        yield Buffer.from('a first chunk');
        controller.abort();
        await new Promise((r) => setTimeout(r, 20));
        yield Buffer.from('never stored');
      }
      await expect(store.put(k, Readable.from(slow()), { maxBytes: 1000, signal: controller.signal })).rejects.toThrow();
      expect(await store.stat(k)).toBeNull();
    });

    it('a failing body stream stores nothing', async () => {
      const k = key();
      async function* broken() {
        yield Buffer.from('partial');
        throw new Error('connection lost');
      }
      await expect(store.put(k, Readable.from(broken()), { maxBytes: 1000 })).rejects.toThrow('connection lost');
      expect(await store.stat(k)).toBeNull();
    });

    it('serves byte ranges as HTTP does, and refuses one that starts past the end', async () => {
      const k = key();
      await store.put(k, body('0123456789'), { maxBytes: 100 });
      expect(await read(k, { start: 2, end: 5 })).toBe('2345');
      expect(await read(k, { start: 7 })).toBe('789');
      expect(await read(k, { start: 8, end: 1000 })).toBe('89');
      const part = await store.get(k, { range: { start: 8, end: 1000 } });
      expect(part).toMatchObject({ size: 10, contentLength: 2, range: { start: 8, end: 9 } });
      part.body.destroy();
      await expect(store.get(k, { range: { start: 10 } })).rejects.toBeInstanceOf(RangeNotSatisfiableError);
    });

    it('keeps an empty file', async () => {
      const k = key();
      expect(await store.put(k, body(''), { maxBytes: 10 })).toMatchObject({ size: 0, sha256: sha256('') });
      expect(await read(k)).toBe('');
    });

    it('says plainly when there is no file, and deleting twice is fine', async () => {
      const k = key();
      await expect(store.get(k)).rejects.toBeInstanceOf(FileNotFoundError);
      expect(await store.stat(k)).toBeNull();
      await store.put(k, body('short-lived'), { maxBytes: 100 });
      await store.delete(k);
      await store.delete(k);
      expect(await store.stat(k)).toBeNull();
      await expect(store.get(k)).rejects.toBeInstanceOf(FileNotFoundError);
    });

    it('lists the files under a prefix, and only those', async () => {
      const root = key('list');
      await store.put(`${root}/a`, body('a'), { maxBytes: 10 });
      await store.put(`${root}/sub/b`, body('bb'), { maxBytes: 10 });
      await store.put(`${root}-other/c`, body('ccc'), { maxBytes: 10 });
      const under = async (prefix: string) => {
        const keys: string[] = [];
        for await (const f of store.list(prefix)) keys.push(f.key);
        return keys.sort();
      };
      expect(await under(`${root}/`)).toEqual([`${root}/a`, `${root}/sub/b`]);
      expect(await under(root)).toEqual([`${root}-other/c`, `${root}/a`, `${root}/sub/b`]);
      const sizes: number[] = [];
      for await (const f of store.list(`${root}/sub/`)) sizes.push(f.size);
      expect(sizes).toEqual([2]);
    });

    it.each(['', '../escape', 'a/../../escape', '/absolute', 'a//b', './a', 'a/./b', '.hidden', 'a\\b', 'a/b/', 'nul\u0000', 'white space', 'x'.repeat(2000)])(
      'refuses the key %j',
      async (bad) => {
        await expect(store.put(bad, body('x'), { maxBytes: 10 })).rejects.toBeInstanceOf(InvalidKeyError);
        await expect(store.get(bad)).rejects.toBeInstanceOf(InvalidKeyError);
        await expect(store.stat(bad)).rejects.toBeInstanceOf(InvalidKeyError);
        await expect(store.downloadUrl(bad, { fileName: 'x', contentType: 'text/plain' })).rejects.toBeInstanceOf(InvalidKeyError);
        await expect(store.delete(bad)).rejects.toBeInstanceOf(InvalidKeyError);
      },
    );

    it('a download URL, where the store gives one, serves the file as an attachment', async () => {
      const k = key();
      await store.put(k, body('signed'), { maxBytes: 10 });
      const url = await store.downloadUrl(k, { fileName: 'file.txt', contentType: 'text/plain', expiresInSeconds: 60 });
      if (url === undefined) return; // the local disk: the server streams its files itself
      const res = await fetch(url);
      expect(await res.text()).toBe('signed');
      expect(res.headers.get('content-disposition')).toMatch(/^attachment/);
    });

  });
}
