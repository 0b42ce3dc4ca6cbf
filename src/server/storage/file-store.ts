import type { Readable } from 'node:stream';
import type { DataStore } from '@tus/server';

/**
 * Where hosted files live: bytes under a key (names, types and owners are rows in the database).
 * One interface, two homes: the local disk under DATA_DIR (`local.ts`) and an S3-compatible
 * bucket (`s3.ts`); `file-store-contract.ts` is the test both pass. Every operation streams;
 * nothing holds a whole file in memory. A store brings everything that differs between homes (its
 * tus datastore, its fill level, its start-up cleaning), so callers never ask which one they hold.
 *
 * A key is a relative path of segments of `A-Za-z0-9._-`, each starting with a letter or digit,
 * joined by `/` (e.g. `uploads/3f2a…/original`): never a file-system path, so no key can reach
 * outside the store. Keys are made by the server, not taken from clients.
 */
export interface FileStore {
  /**
   * Stores `body` under `key`, replacing what was there only once every byte has arrived: a
   * reader sees the old file or the new one, never part of one. More than `maxBytes` stops the
   * write (FileTooLargeError) and leaves nothing; so does `signal` aborting (an AbortError) or the
   * body failing. No room: StorageFullError.
   */
  put(key: string, body: Readable, options: PutOptions): Promise<PutResult>;

  /** A stream of the file, or of `range` of it (inclusive byte offsets, as in HTTP). */
  get(key: string, options?: { range?: ByteRange; signal?: AbortSignal }): Promise<GetResult>;

  /** Size, validator and time of the file, or null when there is none. */
  stat(key: string): Promise<FileStat | null>;

  /** Removes the file; a key with no file is not an error. */
  delete(key: string): Promise<void>;

  /** Every file whose key starts with `prefix`, in no set order: for sweeps of orphans and expired uploads. */
  list(prefix: string): AsyncIterable<FileStat>;

  /**
   * A URL a browser can download the file from directly, as an attachment named `fileName`, for a
   * few minutes (an S3 presigned GET); undefined when the store cannot make one and the server
   * streams the file itself (local disk).
   */
  downloadUrl(key: string, options: DownloadUrlOptions): Promise<string | undefined>;

  /**
   * Where the file is on this machine's disk when the store keeps it there (local disk), so a tool
   * that seeks (ffmpeg reads an MP4's index wherever it is) reads it in place instead of a copy;
   * null when the bytes are elsewhere (S3). Callers only read the file. Whether it exists is not checked.
   */
  localPath(key: string): string | null;

  /**
   * The tus datastore that writes resumable uploads into this store, each one's bytes ending up at
   * `uploadKey(id)` (storage/keys.ts). Made once per app: it keeps state of uploads in progress.
   */
  uploadStore(options: { expirationMs: number }): UploadStore;

  /** Bytes the store can still take, or undefined when it has no fill level to ask (a bucket). */
  freeBytes(): Promise<number | undefined>;

  /** Removes what a process that died while writing left behind; run once at start. */
  sweepPartial(): Promise<number>;
}

/** Where tus keeps uploads in a store. */
export interface UploadStore {
  datastore: DataStore;
  /** The datastore's id of an upload id (S3: its key under uploads/). */
  tusId(id: string): string;
}

export interface PutOptions {
  maxBytes: number;
  /** Kept with the object where the store can (S3); the database row is the place of record. */
  contentType?: string;
  signal?: AbortSignal;
}

export interface FileStat {
  key: string;
  size: number;
  /** An opaque validator that changes when the content does (usable as an HTTP ETag). */
  etag: string;
  modifiedAt: Date;
  contentType?: string;
}

export interface PutResult {
  key: string;
  size: number;
  /** SHA-256 of the bytes as they arrived, hex: kept by the caller for integrity checks. */
  sha256: string;
  etag: string;
}

/** Inclusive byte offsets; `end` undefined = to the end of the file. */
export interface ByteRange {
  start: number;
  end?: number;
}

export interface GetResult {
  body: Readable;
  /** The whole file's size. */
  size: number;
  /** Bytes in `body`. */
  contentLength: number;
  /** The inclusive range served, when one was asked for. */
  range?: { start: number; end: number };
  etag: string;
  modifiedAt: Date;
  contentType?: string;
}

export interface DownloadUrlOptions {
  /** The name the browser saves the file as (UTF-8 allowed). */
  fileName: string;
  contentType: string;
  expiresInSeconds?: number;
}

const SEGMENT = '[A-Za-z0-9][A-Za-z0-9._-]{0,254}';
const KEY = new RegExp(`^${SEGMENT}(/${SEGMENT}){0,15}$`);
const KEY_MAX = 1024;

/** Throws InvalidKeyError unless `key` is a store key (see FileStore). */
export function checkKey(key: string): string {
  if (key.length > KEY_MAX || !KEY.test(key)) throw new InvalidKeyError(key);
  return key;
}

/** A prefix for `list`: empty, or a key's beginning (it may end inside a segment or with `/`). */
export function checkPrefix(prefix: string): string {
  if (prefix !== '' && !KEY.test(prefix.replace(/\/$/, ''))) throw new InvalidKeyError(prefix);
  return prefix;
}

/**
 * Errors a store throws. They name what went wrong and carry no HTTP status: the error handler
 * (src/server/errors.ts) answers each with its status, so storage never speaks HTTP.
 */
export abstract class StorageError extends Error {}

export class InvalidKeyError extends StorageError {
  constructor(key: string) {
    super(`Invalid storage key: ${JSON.stringify(key.slice(0, 100))}`);
  }
}

export class FileNotFoundError extends StorageError {
  constructor(public readonly key: string) {
    super('File not found');
  }
}

export class FileTooLargeError extends StorageError {
  constructor(public readonly maxBytes: number) {
    super(`The file is larger than ${maxBytes} bytes`);
  }
}

export class RangeNotSatisfiableError extends StorageError {
  /** `size`, when the store knows it, for the answer's Content-Range. */
  constructor(
    public readonly key: string,
    public readonly size?: number,
  ) {
    super('The requested range is not in the file');
  }
}

/** The store has no room (disk or quota full), so an upload can say so before it starts. */
export class StorageFullError extends StorageError {
  constructor() {
    super('The server has no room for this file');
  }
}

/** The store cannot be written at all (a read-only disk). */
export class StorageReadOnlyError extends StorageError {
  constructor() {
    super('The file store is read-only');
  }
}
