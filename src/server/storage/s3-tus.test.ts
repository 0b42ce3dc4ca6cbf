import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ListMultipartUploadsCommand, S3Client } from '@aws-sdk/client-s3';
import { S3Store } from '@tus/s3-store';
import { Server as TusServer } from '@tus/server';
import { Upload as TusUpload } from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3FileStore, s3ClientConfig, tusS3StoreOptions } from './s3';
import type { S3Settings } from '../config';
import { S3_MIN_PART_BYTES, startS3TestServer, type S3TestServer } from '../testing/s3-test-server';

// @tus/s3-store against s3rver, through @tus/server answering real HTTP from tus-js-client: an
// upload begun on one instance is resumed and finished on a second instance sharing the bucket.

const PREFIX = 'uploads/';
const TUS_PATH = '/files';
const PART_BYTES = S3_MIN_PART_BYTES;
/** Smaller than a part, so PATCHes leave `.part` objects that the next one picks up. */
const CHUNK_BYTES = 4 * 1024 * 1024;

let s3: S3TestServer;
let settings: S3Settings;
let files: S3FileStore;
const instances: http.Server[] = [];

/** One app instance's tus endpoint: its own S3Store on the shared bucket, ids under PREFIX. */
async function startInstance(expirationMs = 0): Promise<{ url: string; store: S3Store }> {
  const store = new S3Store(tusS3StoreOptions(settings, { partBytes: PART_BYTES, expirationMs }));
  const tus = new TusServer({
    path: TUS_PATH,
    datastore: store,
    namingFunction: () => `${PREFIX}${randomBytes(16).toString('hex')}`,
    generateUrl: (_req, { proto, host, path, id }) => `${proto}://${host}${path}/${id.slice(PREFIX.length)}`,
    getFileIdFromRequest: (_req, lastPath) => (lastPath && /^[0-9a-f]{32}$/.test(lastPath) ? PREFIX + lastPath : undefined),
  });
  const server = http.createServer((req, res) => void tus.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  instances.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${TUS_PATH}`, store };
}

function upload(data: Buffer, options: { endpoint: string; uploadUrl?: string; stopAfterBytes?: number }) {
  return new Promise<{ url: string; completed: boolean; firstOffset: number }>((resolve, reject) => {
    let firstOffset = -1;
    const tus: TusUpload = new TusUpload(data, {
      endpoint: options.endpoint,
      uploadUrl: options.uploadUrl ?? null,
      chunkSize: CHUNK_BYTES,
      retryDelays: null,
      storeFingerprintForResuming: false,
      metadata: { filename: 'pack.zip', filetype: 'application/zip' },
      onProgress: (sent) => {
        if (firstOffset < 0) firstOffset = sent;
      },
      onChunkComplete: (_chunk, accepted) => {
        if (options.stopAfterBytes !== undefined && accepted >= options.stopAfterBytes) {
          void tus.abort().then(() => resolve({ url: tus.url!, completed: false, firstOffset }));
        }
      },
      onSuccess: () => resolve({ url: tus.url!, completed: true, firstOffset }),
      onError: reject,
    });
    tus.start();
  });
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function readAll(key: string): Promise<Buffer> {
  const { body } = await files.get(key);
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function openMultipartUploads(): Promise<string[]> {
  const client = new S3Client(s3ClientConfig(settings));
  try {
    const res = await client.send(new ListMultipartUploadsCommand({ Bucket: settings.bucket }));
    return (res.Uploads ?? []).map((u) => u.Key!);
  } finally {
    client.destroy();
  }
}

async function head(url: string) {
  const res = await fetch(url, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0' } });
  return { status: res.status, offset: res.headers.get('upload-offset'), length: res.headers.get('upload-length') };
}

beforeAll(async () => {
  s3 = await startS3TestServer();
  settings = { bucket: s3.bucket, region: s3.region, endpoint: s3.endpoint, forcePathStyle: true, ...s3.credentials };
  files = new S3FileStore(settings);
});

afterAll(async () => {
  for (const server of instances) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  files?.close();
  await s3?.stop();
});

describe('@tus/s3-store on the S3 test server', () => {
  it('resumes on a second instance an upload begun on the first, and the bucket holds the exact bytes', async () => {
    const a = await startInstance();
    const b = await startInstance();
    const data = randomBytes(3 * PART_BYTES + 1234);

    const begun = await upload(data, { endpoint: a.url, stopAfterBytes: 2 * CHUNK_BYTES });
    expect(begun.completed).toBe(false);
    const id = begun.url.slice(begun.url.lastIndexOf('/') + 1);
    const onB = `${b.url}/${id}`;
    // B knows the offset A reached: the complete parts (ListParts) plus the pending `.part` object.
    expect(await head(onB)).toEqual({ status: 200, offset: String(2 * CHUNK_BYTES), length: String(data.length) });
    expect(await openMultipartUploads()).toEqual([PREFIX + id]);

    const finished = await upload(data, { endpoint: b.url, uploadUrl: onB });
    expect(finished.completed).toBe(true);
    expect(finished.firstOffset).toBe(2 * CHUNK_BYTES);

    const stored = await readAll(PREFIX + id);
    expect(stored.length).toBe(data.length);
    expect(sha256(stored)).toBe(sha256(data));
    expect(await head(`${a.url}/${id}`)).toMatchObject({ status: 200, offset: String(data.length) });
    expect(await openMultipartUploads()).toEqual([]);
    expect(await files.stat(`${PREFIX}${id}.part`)).toBeNull();
    expect(await files.stat(`${PREFIX}${id}.info`)).not.toBeNull();
  });

  it('a file smaller than one part is uploaded in one PATCH', async () => {
    const a = await startInstance();
    const data = randomBytes(1000);
    const done = await upload(data, { endpoint: a.url });
    const id = done.url.slice(done.url.lastIndexOf('/') + 1);
    expect(sha256(await readAll(PREFIX + id))).toBe(sha256(data));
  });

  it('termination aborts the multipart upload and removes the upload', async () => {
    const a = await startInstance();
    const begun = await upload(randomBytes(2 * PART_BYTES), { endpoint: a.url, stopAfterBytes: CHUNK_BYTES });
    const id = begun.url.slice(begun.url.lastIndexOf('/') + 1);
    expect(await openMultipartUploads()).toContain(PREFIX + id);

    const res = await fetch(begun.url, { method: 'DELETE', headers: { 'Tus-Resumable': '1.0.0' } });
    expect(res.status).toBe(204);
    expect(await openMultipartUploads()).not.toContain(PREFIX + id);
    expect(await files.stat(`${PREFIX}${id}.info`)).toBeNull();
    expect((await head(begun.url)).status).toBe(404);
  });

  it('the expiry sweep removes unfinished uploads and leaves finished ones', async () => {
    const expirationMs = 1000;
    const a = await startInstance(expirationMs);
    const unfinished = await upload(randomBytes(2 * PART_BYTES), { endpoint: a.url, stopAfterBytes: CHUNK_BYTES });
    const finished = await upload(randomBytes(1000), { endpoint: a.url });
    const unfinishedId = PREFIX + unfinished.url.slice(unfinished.url.lastIndexOf('/') + 1);
    const finishedId = PREFIX + finished.url.slice(finished.url.lastIndexOf('/') + 1);
    await new Promise((resolve) => setTimeout(resolve, expirationMs + 1100));

    expect(await a.store.deleteExpired()).toBeGreaterThan(0);
    expect(await openMultipartUploads()).not.toContain(unfinishedId);
    expect(await files.stat(`${unfinishedId}.info`)).toBeNull();
    expect(await files.stat(`${unfinishedId}.part`)).toBeNull();
    expect(await files.stat(finishedId)).not.toBeNull();
  });
});
