import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { GetObjectCommand, ListMultipartUploadsCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkKey, FileNotFoundError, FileTooLargeError, RangeNotSatisfiableError } from './file-store';
import { S3FileStore, s3ClientConfig } from './s3';
import type { S3Settings } from '../config';
import { attachmentDisposition } from './send';
import { S3_MIN_PART_BYTES, startS3TestServer, type S3TestServer } from '../testing/s3-test-server';

let s3: S3TestServer;
let settings: S3Settings;
let store: S3FileStore;

beforeAll(async () => {
  s3 = await startS3TestServer();
  settings = { bucket: s3.bucket, region: s3.region, endpoint: s3.endpoint, forcePathStyle: true, ...s3.credentials };
  store = new S3FileStore(settings, { partBytes: S3_MIN_PART_BYTES });
});

afterAll(async () => {
  store?.close();
  await s3?.stop();
});

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** `data` in uneven chunks, as a network body arrives. */
function streamOf(data: Buffer, chunkBytes = 65_537): Readable {
  return Readable.from(
    (function* () {
      for (let i = 0; i < data.length; i += chunkBytes) yield data.subarray(i, i + chunkBytes);
    })(),
  );
}

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The S3 operations the store sends from now on. */
function recordCommands(): string[] {
  const names: string[] = [];
  store.client.middlewareStack.add(
    (next, context) => (args) => {
      names.push(context.commandName!.replace(/Command$/, ''));
      return next(args);
    },
    { step: 'initialize', name: `record-${names.length}-${Math.random()}` },
  );
  return names;
}

async function openMultipartUploads(): Promise<string[]> {
  const res = await store.client.send(new ListMultipartUploadsCommand({ Bucket: settings.bucket }));
  return (res.Uploads ?? []).map((u) => u.Key!);
}

describe('S3FileStore on the S3 test server', () => {
  it('stores a small body whole and reads it back with its stat', async () => {
    const data = Buffer.from('a small file\n');
    const put = await store.put('files/small.txt', streamOf(data, 3), { maxBytes: 1000, contentType: 'text/plain' });
    expect(put).toMatchObject({ key: 'files/small.txt', size: data.length, sha256: sha256(data) });

    const stat = await store.stat('files/small.txt');
    expect(stat).toMatchObject({ key: 'files/small.txt', size: data.length, etag: put.etag, contentType: 'text/plain' });
    expect(Math.abs(stat!.modifiedAt.getTime() - Date.now())).toBeLessThan(60_000);

    const got = await store.get('files/small.txt');
    expect(got).toMatchObject({ size: data.length, contentLength: data.length, etag: put.etag });
    expect(await readAll(got.body)).toEqual(data);
  });

  it('stores an empty body', async () => {
    const put = await store.put('files/empty', streamOf(Buffer.alloc(0)), { maxBytes: 10 });
    expect(put.size).toBe(0);
    expect((await store.stat('files/empty'))?.size).toBe(0);
  });

  it('streams a body larger than a part as a multipart upload and stores the exact bytes', async () => {
    const data = randomBytes(2 * S3_MIN_PART_BYTES + 12_345);
    const sent = recordCommands();
    const put = await store.put('files/large.bin', streamOf(data), { maxBytes: data.length });
    expect(put).toMatchObject({ size: data.length, sha256: sha256(data) });
    expect(sent).toEqual(['CreateMultipartUpload', 'UploadPart', 'UploadPart', 'UploadPart', 'CompleteMultipartUpload']);
    expect(sha256(await readAll((await store.get('files/large.bin')).body))).toBe(put.sha256);
    expect(await openMultipartUploads()).toEqual([]);
  });

  it('refuses a body over the limit and leaves neither an object nor an open multipart upload', async () => {
    const data = randomBytes(2 * S3_MIN_PART_BYTES);
    const sent = recordCommands();
    const put = store.put('files/too-large.bin', streamOf(data), { maxBytes: S3_MIN_PART_BYTES + 200_000 });
    await expect(put).rejects.toBeInstanceOf(FileTooLargeError);
    expect(sent).toEqual(['CreateMultipartUpload', 'UploadPart', 'AbortMultipartUpload']);
    expect(await store.stat('files/too-large.bin')).toBeNull();
    expect(await openMultipartUploads()).toEqual([]);
  });

  it('an aborted put stores nothing', async () => {
    const controller = new AbortController();
    const data = randomBytes(3 * S3_MIN_PART_BYTES);
    let read = 0;
    const body = streamOf(data).on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > 1.5 * S3_MIN_PART_BYTES) controller.abort();
    });
    const sent = recordCommands();
    await expect(store.put('files/aborted.bin', body, { maxBytes: data.length, signal: controller.signal })).rejects.toThrow();
    expect(sent).toEqual(['CreateMultipartUpload', 'UploadPart', 'AbortMultipartUpload']);
    expect(await store.stat('files/aborted.bin')).toBeNull();
    expect(await openMultipartUploads()).toEqual([]);
  });

  it('serves byte ranges', async () => {
    const data = Buffer.from('0123456789abcdefghij');
    await store.put('files/range.txt', streamOf(data), { maxBytes: 100 });

    const middle = await store.get('files/range.txt', { range: { start: 5, end: 9 } });
    expect(middle).toMatchObject({ size: 20, contentLength: 5, range: { start: 5, end: 9 } });
    expect((await readAll(middle.body)).toString()).toBe('56789');

    const tail = await store.get('files/range.txt', { range: { start: 15 } });
    expect(tail).toMatchObject({ size: 20, contentLength: 5, range: { start: 15, end: 19 } });
    expect((await readAll(tail.body)).toString()).toBe('fghij');

    await expect(store.get('files/range.txt', { range: { start: 20 } })).rejects.toBeInstanceOf(RangeNotSatisfiableError);
  });

  it('a missing key: get throws FileNotFoundError, stat is null, delete succeeds', async () => {
    await expect(store.get('files/missing')).rejects.toBeInstanceOf(FileNotFoundError);
    expect(await store.stat('files/missing')).toBeNull();
    await store.delete('files/missing');
  });

  it('deletes and lists by prefix', async () => {
    for (const key of ['list/a/1', 'list/a/2', 'list/b/1']) await store.put(key, streamOf(Buffer.from(key)), { maxBytes: 100 });
    const listed = [];
    for await (const item of store.list('list/a/')) listed.push(item);
    expect(listed.map((i) => [i.key, i.size])).toEqual([
      ['list/a/1', 8],
      ['list/a/2', 8],
    ]);
    await store.delete('list/a/1');
    const after = [];
    for await (const item of store.list('list/')) after.push(item.key);
    expect(after).toEqual(['list/a/2', 'list/b/1']);
  });

  it('a presigned download URL is an attachment with the original name and type, and resumes with Range', async () => {
    const data = Buffer.from('<html><script>alert(1)</script></html>');
    await store.put('files/page.html', streamOf(data), { maxBytes: 100, contentType: 'text/html' });
    const fileName = 'Café «pack» 100%.html';
    const url = await store.downloadUrl('files/page.html', { fileName, contentType: 'application/octet-stream' });
    expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('300');

    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(attachmentDisposition(fileName));
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(data);

    const part = await fetch(url, { headers: { Range: 'bytes=6-13' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 6-13/${data.length}`);
    expect(await part.text()).toBe('<script>');
  });

  it('an expired download URL is refused', async () => {
    await store.put('files/short-lived', streamOf(Buffer.from('x')), { maxBytes: 10 });
    // Signed with a clock 5 s behind, so its second of validity is over without waiting it out.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - 5000 });
    let url: string;
    try {
      url = await store.downloadUrl('files/short-lived', { fileName: 'x.txt', contentType: 'text/plain', expiresInSeconds: 1 });
    } finally {
      vi.useRealTimers();
    }
    expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('1');
    const res = await fetch(url);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('Request has expired');
  });

  it('sends streamed bodies plainly: the SDK default (aws-chunked with checksum trailers) would be stored as data', async () => {
    const client = new S3Client(s3ClientConfig(settings));
    try {
      await client.send(
        new PutObjectCommand({
          Bucket: settings.bucket,
          Key: 'files/streamed',
          Body: Readable.from([Buffer.from('hello '), Buffer.from('world')]),
          ContentLength: 11,
        }),
      );
      const res = await client.send(new GetObjectCommand({ Bucket: settings.bucket, Key: 'files/streamed' }));
      expect(await res.Body!.transformToString()).toBe('hello world');
    } finally {
      client.destroy();
    }
  });

  it('refuses keys that could escape a prefix or are not ours', async () => {
    for (const key of ['../x', '/abs', 'a//b', 'a/./b', 'a/../b', '', 'a\u0000b', 'a b', 'ü', 'x'.repeat(1025)]) {
      expect(() => checkKey(key), key).toThrow('Invalid storage key');
    }
    expect(() => checkKey('uploads/2f/abc.part')).not.toThrow();
    await expect(store.put('../escape', streamOf(Buffer.from('x')), { maxBytes: 10 })).rejects.toThrow('Invalid storage key');
  });
});
