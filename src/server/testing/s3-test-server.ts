import fs from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * An S3-compatible server for tests: `s3rver` (an npm package) on a free loopback port, storing its
 * buckets in a temporary directory that `stop()` removes. Use its fixed credentials. s3rver checks
 * that a signed request's access key exists and that a presigned URL has not expired; it does not
 * verify SigV4 signatures themselves (real stores do), so tampering cannot be tested against it.
 *
 * s3rver 3.7 implements CreateMultipartUpload, UploadPart and CompleteMultipartUpload but answers
 * ListParts and AbortMultipartUpload with 405 MethodNotAllowed and ListMultipartUploads with
 * NotImplemented, and every maintained fork on npm needs Node 22 or more. `@tus/s3-store` needs all
 * three (ListParts on every PATCH and HEAD, Abort on termination, ListMultipartUploads for the expiry
 * sweep). With `multipart: 'complete'` (the default) this module serves those three from s3rver's
 * own multipart directory, after s3rver's signature check, and refuses a completion whose non-final
 * parts are under 5 MiB as S3 does (EntityTooSmall; s3rver itself accepts any size).
 * `multipart: 's3rver'` leaves s3rver's calls as published. Either way a write is answered only once
 * s3rver's file holds every byte (readAfterWrite below).
 * See docs/decisions/100-media-s3-test-server.md.
 */

const require = createRequire(import.meta.url);

export const S3_TEST_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;
export const S3_TEST_REGION = 'us-east-1';
/** S3's smallest part except the last one. */
export const S3_MIN_PART_BYTES = 5 * 1024 * 1024;
const LIST_PAGE_MAX = 1000;

export interface S3TestServer {
  endpoint: string;
  bucket: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** Where s3rver keeps the buckets (removed by stop()). */
  directory: string;
  stop(): Promise<void>;
}

export interface S3TestServerOptions {
  bucket?: string;
  multipart?: 'complete' | 's3rver';
}

// s3rver ships no types; these are the parts used here.
type Middleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void> | void;
interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  params: Record<string, string | undefined>;
  state: Record<string, unknown>;
  status: number;
  body: unknown;
}
interface S3rverStore {
  getResourcePath(bucket: string, key: string | undefined, resource: string): string;
  putObject(object: { bucket: string; key: string }): Promise<{ size: number; md5: string }>;
  putPart(bucket: string, uploadId: string, partNumber: number, content: unknown): Promise<{ size: number; md5: string }>;
}
interface S3rverInstance {
  middleware: Middleware[];
  store: S3rverStore;
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer?: Server;
}
type S3rverConstructor = new (options: Record<string, unknown>) => S3rverInstance;
type S3ErrorConstructor = new (code: string, message?: string, detail?: Record<string, string>) => Error;

export async function startS3TestServer(options: S3TestServerOptions = {}): Promise<S3TestServer> {
  const S3rver = require('s3rver') as S3rverConstructor;
  const bucket = options.bucket ?? 'resource-vault-test';
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'rv-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  readAfterWrite(server.store);
  if ((options.multipart ?? 'complete') === 'complete') {
    // Koa composes its middleware when the server starts listening: insert before s3rver's router
    // (the last one), after its XML encoder and virtual-host rewrite.
    server.middleware.splice(server.middleware.length - 1, 0, multipartCompletion(server));
  }
  let address: AddressInfo;
  try {
    address = await server.run();
  } catch (err) {
    await fs.rm(directory, { recursive: true, force: true });
    throw err;
  }
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    bucket,
    region: S3_TEST_REGION,
    credentials: { ...S3_TEST_CREDENTIALS },
    directory,
    async stop() {
      // SDK clients keep idle sockets open; without this close() would wait for them to time out.
      server.httpServer?.closeAllConnections();
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}

/**
 * s3rver answers a PUT of an object or a part once the bytes have passed its MD5 hash, not once its
 * file holds them: a read right after (a GET, a multipart completion concatenating its parts, the
 * ListParts below) can find the file short or empty while the machine is busy. S3 reads back what it
 * has acknowledged, so the store here answers only once the file has every byte.
 */
function readAfterWrite(store: S3rverStore): void {
  const putObject = store.putObject.bind(store);
  const putPart = store.putPart.bind(store);
  store.putObject = async (object) => {
    const stored = await putObject(object);
    await untilWritten(store.getResourcePath(object.bucket, object.key, 'object'), stored.size);
    return stored;
  };
  store.putPart = async (bucket, uploadId, partNumber, content) => {
    const stored = await putPart(bucket, uploadId, partNumber, content);
    await untilWritten(path.join(store.getResourcePath(bucket, undefined, 'uploads'), uploadId, String(partNumber)), stored.size);
    return stored;
  };
}

const WRITE_WAIT_MS = 10_000;

async function untilWritten(file: string, size: number): Promise<void> {
  const end = Date.now() + WRITE_WAIT_MS;
  while (((await fs.stat(file).catch(() => null))?.size ?? -1) < size) {
    if (Date.now() > end) throw new Error(`s3rver had not written ${size} bytes to ${file} after ${WRITE_WAIT_MS} ms`);
    await delay(2);
  }
}

/** ListParts, AbortMultipartUpload, ListMultipartUploads and S3's part-size rule, over s3rver's store. */
function multipartCompletion(server: S3rverInstance): Middleware {
  const S3Error = require('s3rver/lib/models/error') as S3ErrorConstructor;
  const authenticate = (require('s3rver/lib/middleware/authentication') as () => Middleware)();

  const uploadsDir = (bucket: string) => server.store.getResourcePath(bucket, undefined, 'uploads');
  const noSuchUpload = () =>
    new S3Error(
      'NoSuchUpload',
      'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.',
    );

  async function uploadDirFor(bucket: string, key: string, uploadId: string): Promise<string> {
    if (!/^[0-9a-f]+$/.test(uploadId)) throw noSuchUpload();
    const dir = path.join(uploadsDir(bucket), uploadId);
    const storedKey = await fs.readFile(path.join(dir, 'key'), 'utf8').catch(() => null);
    if (storedKey !== key) throw noSuchUpload();
    return dir;
  }

  async function parts(dir: string) {
    const names = (await fs.readdir(dir)).filter((n) => /^\d+$/.test(n));
    const found = await Promise.all(
      names.map(async (name) => {
        const [stat, md5] = await Promise.all([fs.stat(path.join(dir, name)), fs.readFile(path.join(dir, `${name}.md5`), 'utf8')]);
        return { PartNumber: Number(name), Size: stat.size, ETag: JSON.stringify(md5), LastModified: stat.mtime.toISOString() };
      }),
    );
    return found.sort((a, b) => a.PartNumber - b.PartNumber);
  }

  return async function multipart(ctx, next) {
    const match = /^\/([^/]+)(?:\/(.*))?$/.exec(ctx.path);
    if (!match) return next();
    const bucket = decodeURIComponent(match[1]);
    const key = match[2] ? decodeURIComponent(match[2]) : undefined;
    const uploadId = typeof ctx.query.uploadId === 'string' ? ctx.query.uploadId : undefined;
    const handled =
      (key !== undefined && uploadId !== undefined && ['GET', 'DELETE', 'POST'].includes(ctx.method)) ||
      (key === undefined && ctx.method === 'GET' && 'uploads' in ctx.query);
    if (!handled) return next();

    ctx.params = { bucket, key };
    await authenticate(ctx, async () => {});
    await fs.access(path.dirname(uploadsDir(bucket))).catch(() => {
      throw new S3Error('NoSuchBucket', 'The specified bucket does not exist', { BucketName: bucket });
    });

    if (key === undefined) {
      const ids = await fs.readdir(uploadsDir(bucket)).catch(() => [] as string[]);
      const uploads = await Promise.all(
        ids.map(async (id) => {
          const keyFile = path.join(uploadsDir(bucket), id, 'key');
          const [uploadKey, stat] = await Promise.all([fs.readFile(keyFile, 'utf8'), fs.stat(keyFile)]);
          return { Key: uploadKey, UploadId: id, Initiated: stat.mtime.toISOString(), StorageClass: 'STANDARD' };
        }),
      );
      uploads.sort((a, b) => (a.Key === b.Key ? a.UploadId.localeCompare(b.UploadId) : a.Key < b.Key ? -1 : 1));
      ctx.body = {
        ListMultipartUploadsResult: {
          Bucket: bucket,
          MaxUploads: LIST_PAGE_MAX,
          IsTruncated: false,
          ...(uploads.length > 0 ? { Upload: uploads } : {}),
        },
      };
      return;
    }

    const dir = await uploadDirFor(bucket, key, uploadId!);
    if (ctx.method === 'DELETE') {
      await fs.rm(dir, { recursive: true, force: true });
      ctx.status = 204;
      ctx.body = null;
      return;
    }
    const all = await parts(dir);
    if (ctx.method === 'POST') {
      const small = all.slice(0, -1).find((p) => p.Size < S3_MIN_PART_BYTES);
      if (small) {
        throw Object.assign(new S3Error('EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed object size.'), {
          status: 400,
        });
      }
      return next();
    }
    const marker = Number(ctx.query['part-number-marker'] ?? 0);
    const max = Math.min(Number(ctx.query['max-parts'] ?? LIST_PAGE_MAX), LIST_PAGE_MAX);
    const after = all.filter((p) => p.PartNumber > marker);
    const page = after.slice(0, max);
    const truncated = after.length > page.length;
    ctx.body = {
      ListPartsResult: {
        Bucket: bucket,
        Key: key,
        UploadId: uploadId,
        PartNumberMarker: marker,
        ...(truncated ? { NextPartNumberMarker: page[page.length - 1].PartNumber } : {}),
        MaxParts: max,
        IsTruncated: truncated,
        StorageClass: 'STANDARD',
        ...(page.length > 0 ? { Part: page } : {}),
      },
    };
  };
}
