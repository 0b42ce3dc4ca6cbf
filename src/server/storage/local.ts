import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, type Stats } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, statfs, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStore as TusFileStore } from '@tus/file-store';
import {
  type ByteRange,
  checkKey,
  checkPrefix,
  FileNotFoundError,
  type FileStat,
  type FileStore,
  FileTooLargeError,
  type GetResult,
  type PutOptions,
  type PutResult,
  RangeNotSatisfiableError,
  StorageError,
  StorageFullError,
  StorageReadOnlyError,
  type UploadStore,
} from './file-store';
import { UPLOAD_KEY_PREFIX } from './keys';

/**
 * @tus/file-store, except that a write the disk refuses keeps the disk's error: its own `write`
 * turns every failure into tus's 500 "Something went wrong receiving the file", so a full disk
 * became a 500. Now ENOSPC reaches the tus bridge, which answers 507 (files/uploads.ts); the bytes
 * written before it stay, and the client resumes from there once there is room.
 */
class LocalTusStore extends TusFileStore {
  override async write(readable: Readable, fileId: string, offset: number): Promise<number> {
    let received = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        done(null, chunk);
      },
    });
    await pipeline(readable, counter, createWriteStream(path.join(this.directory, fileId), { flags: 'r+', start: offset }));
    return offset + received;
  }
}

/** Partly written files, beside the store's files on the same filesystem (so a rename is atomic). */
const TEMP_DIR = '.partial';
/** Reads of 1 MiB: a multi-GB download or hash takes a sixteenth of the reads and socket writes of the 64 KiB default. */
const READ_CHUNK_BYTES = 1024 * 1024;
/** A partial file this old was left by a process that died mid-write. */
const STALE_TEMP_MS = 24 * 60 * 60 * 1000;

/**
 * Files on the local disk under `root` (DATA_DIR/files by default), one file per key. A put writes
 * a temporary file, flushes it to disk, renames it over the key's file and flushes the directory:
 * after a crash the key holds the old file or the whole new one. Key segments start with a
 * letter or digit, so no key names the temporary folder, `.` or `..`. No content type is kept:
 * the database row has it.
 */
export class LocalFileStore implements FileStore {
  constructor(readonly root: string) {}

  private pathOf(key: string): string {
    return path.join(this.root, ...checkKey(key).split('/'));
  }

  private keyOf(file: string): string {
    return path.relative(this.root, file).split(path.sep).join('/');
  }

  async put(key: string, body: Readable, { maxBytes, signal }: PutOptions): Promise<PutResult> {
    const target = this.pathOf(key);
    const tempDir = path.join(this.root, TEMP_DIR);
    const temp = path.join(tempDir, `${randomBytes(12).toString('hex')}.part`);
    const hash = createHash('sha256');
    let size = 0;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > maxBytes) return done(new FileTooLargeError(maxBytes));
        hash.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await mkdir(tempDir, { recursive: true });
      await mkdir(path.dirname(target), { recursive: true });
      await pipeline(body, count, createWriteStream(temp, { flags: 'wx' }), { signal });
      await fsync(temp);
      await rename(temp, target);
      await fsync(path.dirname(target));
    } catch (err) {
      await rm(temp, { force: true });
      throw storeError(err, key);
    }
    const { size: stored, etag } = fileStat(key, await stat(target));
    return { key, size: stored, etag, sha256: hash.digest('hex') };
  }

  async get(key: string, options: { range?: ByteRange; signal?: AbortSignal } = {}): Promise<GetResult> {
    const file = this.pathOf(key);
    // Opened once: the stream reads the file the stat describes, even if a put replaces it meanwhile.
    const handle = await open(file, 'r').catch((err: unknown) => {
      throw storeError(err, key);
    });
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) throw new FileNotFoundError(key);
      const { start, end } = resolveRange(key, options.range, stats.size);
      const { etag, modifiedAt } = fileStat(key, stats);
      const served = { size: stats.size, contentLength: end - start + 1, ...(options.range ? { range: { start, end } } : {}), etag, modifiedAt };
      if (end < start) {
        // An empty file: nothing to read.
        await handle.close();
        return { body: Readable.from([]), ...served };
      }
      return { body: handle.createReadStream({ start, end, signal: options.signal, autoClose: true, highWaterMark: READ_CHUNK_BYTES }), ...served };
    } catch (err) {
      await handle.close();
      throw storeError(err, key);
    }
  }

  async stat(key: string): Promise<FileStat | null> {
    try {
      const stats = await stat(this.pathOf(key));
      return stats.isFile() ? fileStat(key, stats) : null;
    } catch (err) {
      if (isMissing(err)) return null;
      throw storeError(err, key);
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await unlink(this.pathOf(key));
    } catch (err) {
      if (!isMissing(err)) throw storeError(err, key);
    }
  }

  async *list(prefix: string): AsyncIterable<FileStat> {
    checkPrefix(prefix);
    // Start at the deepest folder the prefix names whole; filter the rest by key.
    const folder = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
    for await (const file of walk(path.join(this.root, ...folder.split('/').filter(Boolean)))) {
      const key = this.keyOf(file);
      if (!key.startsWith(prefix) || key.startsWith(`${TEMP_DIR}/`)) continue;
      const stats = await stat(file).catch(() => undefined);
      if (stats?.isFile()) yield fileStat(key, stats);
    }
  }

  /** The server streams local files itself (with its own signed, short-lived link). */
  async downloadUrl(key: string): Promise<undefined> {
    checkKey(key);
    return undefined;
  }

  localPath(key: string): string {
    return this.pathOf(key);
  }

  /** @tus/file-store writes `uploads/<id>` (the bytes, at uploadKey) and `uploads/<id>.json` under the root. */
  uploadStore({ expirationMs }: { expirationMs: number }): UploadStore {
    const directory = path.join(this.root, UPLOAD_KEY_PREFIX.replace(/\/$/, ''));
    return { datastore: new LocalTusStore({ directory, expirationPeriodInMilliseconds: expirationMs }), tusId: (id) => id };
  }

  async freeBytes(): Promise<number | undefined> {
    try {
      const s = await statfs(this.root);
      return Number(s.bavail) * Number(s.bsize);
    } catch {
      return undefined; // the folder does not exist yet: the store makes it; a full disk still fails the write
    }
  }

  /** Removes partial files left by a process that died while writing them. */
  async sweepPartial(olderThanMs = STALE_TEMP_MS): Promise<number> {
    let removed = 0;
    const dir = path.join(this.root, TEMP_DIR);
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      const file = path.join(dir, name);
      const stats = await stat(file).catch(() => undefined);
      if (stats && Date.now() - stats.mtimeMs > olderThanMs) {
        await rm(file, { force: true });
        removed++;
      }
    }
    return removed;
  }
}

function fileStat(key: string, stats: Stats): FileStat {
  return { key, size: stats.size, etag: `"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}-${stats.ino.toString(16)}"`, modifiedAt: stats.mtime };
}

/** HTTP's rules: an end past the file is the file's end; a start past it cannot be served. */
function resolveRange(key: string, range: ByteRange | undefined, size: number): { start: number; end: number } {
  if (!range) return { start: 0, end: size - 1 };
  const end = Math.min(range.end ?? size - 1, size - 1);
  if (!Number.isSafeInteger(range.start) || range.start < 0 || range.start >= size || end < range.start) throw new RangeNotSatisfiableError(key, size);
  return { start: range.start, end };
}

async function fsync(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function* walk(dir: string): AsyncIterable<string> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((err: unknown) => {
    if (isMissing(err)) return [];
    throw err;
  });
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile()) yield full;
  }
}

const isMissing = (err: unknown) => (err as NodeJS.ErrnoException)?.code === 'ENOENT' || (err as NodeJS.ErrnoException)?.code === 'ENOTDIR';

/** The disk's errors as the store's: a missing file, no room, a read-only disk. Others pass through. */
function storeError(err: unknown, key: string): unknown {
  if (err instanceof StorageError) return err;
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return new FileNotFoundError(key);
  if (code === 'ENOSPC' || code === 'EDQUOT') return new StorageFullError();
  if (code === 'EROFS') return new StorageReadOnlyError();
  return err;
}
