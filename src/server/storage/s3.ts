import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { S3Settings } from '../config';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { S3Store } from '@tus/s3-store';
import {
  type ByteRange,
  checkKey,
  checkPrefix,
  type DownloadUrlOptions,
  FileNotFoundError,
  type FileStat,
  type FileStore,
  FileTooLargeError,
  type GetResult,
  type PutOptions,
  type PutResult,
  RangeNotSatisfiableError,
  type UploadStore,
} from './file-store';
import { uploadKey } from './keys';
import { attachmentDisposition } from './send';

/**
 * The file store on an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO, Backblaze B2).
 *
 * Objects only appear whole: a small body is one PutObject, a large one a multipart upload that
 * S3 publishes at CompleteMultipartUpload and that is aborted on any failure, so a failed or
 * refused put leaves no object behind. At most `partBytes × (MAX_PARTS_IN_FLIGHT + 1)` of a body
 * is held in memory.
 */

// ---- Settings ----

export const S3_CONNECT_TIMEOUT_MS = 10_000;
/** A socket that stays silent this long is given up; a slow but moving transfer is not. */
export const S3_IDLE_TIMEOUT_MS = 60_000;
export const S3_DEFAULT_PART_BYTES = 16 * 1024 * 1024;
const MAX_PARTS_IN_FLIGHT = 2;
/** S3's bounds on parts: at least this size except the last, at most MAX_PARTS of them. */
const MIN_PART_BYTES = 5 * 1024 * 1024;
const MAX_PARTS = 10_000;
export const DOWNLOAD_URL_DEFAULT_EXPIRY_SECONDS = 5 * 60;

/**
 * The one place the SDK client is configured, shared with `@tus/s3-store` (its `s3ClientConfig`)
 * so both talk to the bucket the same way. The SDK's default checksums (CRC32 on every upload and
 * download, sent as aws-chunked trailers) are refused or mishandled by several S3-compatible stores,
 * so checksums are only sent where the S3 API requires them.
 */
export function s3ClientConfig(settings: S3Settings): S3ClientConfig {
  // The SDK warns on every start under Node 20 that its releases after January 2027 will need
  // Node 22. The versions in package.json are pinned exactly to releases that run on Node 20
  // (engines), so the notice tells an operator nothing they can act on; Node 22 users never see it.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  return {
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: settings.forcePathStyle ?? false,
    ...(settings.accessKeyId && settings.secretAccessKey
      ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
      : {}),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { connectionTimeout: S3_CONNECT_TIMEOUT_MS, socketTimeout: S3_IDLE_TIMEOUT_MS },
  };
}

/** Options for `new S3Store(...)` from `@tus/s3-store`, on the same client settings. */
export function tusS3StoreOptions(settings: S3Settings, options: { partBytes: number; expirationMs?: number }) {
  return {
    partSize: options.partBytes,
    expirationPeriodInMilliseconds: options.expirationMs ?? 0,
    // Expiry is swept by listing multipart uploads; object tags are not supported by every store.
    useTags: false,
    s3ClientConfig: { bucket: settings.bucket, ...s3ClientConfig(settings) },
  };
}

export class S3FileStore implements FileStore {
  readonly client: S3Client;
  readonly bucket: string;
  private readonly partBytes: number;

  constructor(
    private readonly settings: S3Settings,
    options: { partBytes?: number } = {},
  ) {
    this.bucket = settings.bucket;
    this.client = new S3Client(s3ClientConfig(settings));
    this.partBytes = options.partBytes ?? S3_DEFAULT_PART_BYTES;
    if (this.partBytes < MIN_PART_BYTES) throw new Error(`S3 parts must be at least ${MIN_PART_BYTES} bytes`);
  }

  async put(key: string, body: Readable, options: PutOptions): Promise<PutResult> {
    checkKey(key);
    const partBytes = Math.max(this.partBytes, Math.ceil(options.maxBytes / MAX_PARTS));
    const signal = options.signal;
    const hash = createHash('sha256');
    let size = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let uploadId: string | undefined;
    const etags: string[] = [];
    const started: Promise<unknown>[] = [];
    const active = new Set<Promise<unknown>>();

    const takePart = (bytes: number): Buffer => {
      const all = Buffer.concat(pending, pendingBytes);
      const part = all.subarray(0, bytes);
      // A copy, so the remainder (at most one incoming chunk) does not keep the whole part alive.
      const rest = Buffer.from(all.subarray(bytes));
      pending = rest.length > 0 ? [rest] : [];
      pendingBytes = rest.length;
      return part;
    };

    const uploadPart = async (data: Buffer) => {
      uploadId ??= (
        await this.client.send(
          new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: options.contentType }),
          { abortSignal: signal },
        )
      ).UploadId;
      while (active.size >= MAX_PARTS_IN_FLIGHT) await Promise.race(active);
      const partNumber = started.length + 1;
      const sent = this.client
        .send(
          new UploadPartCommand({
            Bucket: this.bucket,
            Key: key,
            UploadId: uploadId,
            PartNumber: partNumber,
            Body: data,
            ContentLength: data.length,
          }),
          { abortSignal: signal },
        )
        .then((res) => {
          etags[partNumber - 1] = res.ETag ?? '';
        });
      // Failures surface through Promise.race / Promise.all below.
      sent.catch(() => {});
      active.add(sent);
      started.push(sent);
      void sent.then(
        () => active.delete(sent),
        () => active.delete(sent),
      );
    };

    try {
      for await (const chunk of body as AsyncIterable<Buffer | string>) {
        signal?.throwIfAborted();
        const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        size += buf.length;
        if (size > options.maxBytes) throw new FileTooLargeError(options.maxBytes);
        hash.update(buf);
        pending.push(buf);
        pendingBytes += buf.length;
        while (pendingBytes >= partBytes) await uploadPart(takePart(partBytes));
      }
      signal?.throwIfAborted();

      let etag: string;
      if (uploadId === undefined) {
        const res = await this.client.send(
          new PutObjectCommand({
            Bucket: this.bucket,
            Key: key,
            Body: takePart(pendingBytes),
            ContentLength: size,
            ContentType: options.contentType,
          }),
          { abortSignal: signal },
        );
        etag = res.ETag ?? '';
      } else {
        if (pendingBytes > 0) await uploadPart(takePart(pendingBytes));
        await Promise.all(started);
        const res = await this.client.send(
          new CompleteMultipartUploadCommand({
            Bucket: this.bucket,
            Key: key,
            UploadId: uploadId,
            MultipartUpload: { Parts: etags.map((ETag, i) => ({ ETag, PartNumber: i + 1 })) },
          }),
          { abortSignal: signal },
        );
        etag = res.ETag ?? '';
      }
      return { key, size, sha256: hash.digest('hex'), etag };
    } catch (err) {
      body.destroy();
      await Promise.allSettled(started);
      if (uploadId !== undefined) {
        await this.client
          .send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }))
          .catch(() => {
            // The bucket's lifecycle rule for incomplete uploads (README) removes what this could not.
          });
      }
      throw err;
    }
  }

  async get(key: string, options: { range?: ByteRange; signal?: AbortSignal } = {}): Promise<GetResult> {
    checkKey(key);
    const { range } = options;
    try {
      const res = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(range ? { Range: `bytes=${range.start}-${range.end ?? ''}` } : {}),
        }),
        { abortSignal: options.signal },
      );
      const served = res.ContentRange ? /^bytes (\d+)-(\d+)\/(\d+)$/.exec(res.ContentRange) : null;
      return {
        body: res.Body as Readable,
        size: served ? Number(served[3]) : (res.ContentLength ?? 0),
        contentLength: res.ContentLength ?? 0,
        ...(range && served ? { range: { start: Number(served[1]), end: Number(served[2]) } } : {}),
        etag: res.ETag ?? '',
        modifiedAt: res.LastModified ?? new Date(0),
        contentType: res.ContentType,
      };
    } catch (err) {
      if (isS3Error(err, 'NoSuchKey')) throw new FileNotFoundError(key);
      if (isS3Error(err, 'InvalidRange')) throw new RangeNotSatisfiableError(key);
      throw err;
    }
  }

  async stat(key: string): Promise<FileStat | null> {
    checkKey(key);
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return {
        key,
        size: res.ContentLength ?? 0,
        etag: res.ETag ?? '',
        modifiedAt: res.LastModified ?? new Date(0),
        contentType: res.ContentType,
      };
    } catch (err) {
      if (isS3Error(err, 'NotFound')) return null;
      throw err;
    }
  }

  /** Removing a key that is not there is not an error (S3 answers the same). */
  async delete(key: string): Promise<void> {
    checkKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async *list(prefix: string): AsyncGenerator<FileStat> {
    checkPrefix(prefix);
    let token: string | undefined;
    do {
      const res = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const item of res.Contents ?? []) {
        if (item.Key === undefined) continue;
        yield { key: item.Key, size: item.Size ?? 0, etag: item.ETag ?? '', modifiedAt: item.LastModified ?? new Date(0) };
      }
      token = res.IsTruncated ? res.NextContinuationToken : undefined;
    } while (token);
  }

  /** The bytes are in the bucket: a reader copies them first. */
  localPath(key: string): null {
    checkKey(key);
    return null;
  }

  /**
   * A presigned GET that makes the bucket answer with `Content-Disposition: attachment` and the
   * given type, so a stored HTML or SVG file is downloaded, never rendered.
   */
  async downloadUrl(key: string, options: DownloadUrlOptions): Promise<string> {
    checkKey(key);
    return getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
        ResponseContentDisposition: attachmentDisposition(options.fileName),
        ResponseContentType: options.contentType,
      }),
      { expiresIn: options.expiresInSeconds ?? DOWNLOAD_URL_DEFAULT_EXPIRY_SECONDS },
    );
  }

  /**
   * @tus/s3-store: a multipart upload straight into `uploadKey(id)`, never the whole file on local
   * disk (each part, S3_DEFAULT_PART_BYTES, is staged in os.tmpdir() while it is sent, then deleted).
   */
  uploadStore({ expirationMs }: { expirationMs: number }): UploadStore {
    return { datastore: new S3Store(tusS3StoreOptions(this.settings, { partBytes: S3_DEFAULT_PART_BYTES, expirationMs })), tusId: uploadKey };
  }

  /** A bucket has no fill level to ask; a quota it runs into fails the write. */
  async freeBytes(): Promise<undefined> {
    return undefined;
  }

  /** Nothing to do here: a put aborts its own multipart upload, and the files sweep lists those tus left. */
  async sweepPartial(): Promise<number> {
    return 0;
  }

  close(): void {
    this.client.destroy();
  }
}

function isS3Error(err: unknown, name: string): boolean {
  return err instanceof S3ServiceException && err.name === name;
}
