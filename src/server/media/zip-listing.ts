import { PassThrough, type Readable } from 'node:stream';
import yauzl from 'yauzl';
import { extensionOf } from '../../contract/apps';

/**
 * What a ZIP download holds, read from its central directory and never extracted (issue 33): each
 * file's path and size, the count of each extension and the total. Bounded, whatever the archive
 * claims: at most `maxEntries` entries and `maxDirectoryBytes` of directory read, within
 * `timeoutMs`; an archive that would unpack to more than `maxRatio` times its size (a zip bomb) or
 * `maxTotalBytes` is "too large to list"; a truncated or malformed one, or one naming a path
 * outside itself (`../`, `/etc/…`), is "broken" with the reason. Nested archives are entries like
 * any other: never opened. What the packing computer added (`isSystemEntry`) is left out of the
 * listing, its counts and its total, though the bounds still count it.
 */
export const ZIP_LIMITS = {
  maxEntries: 10_000,
  maxDirectoryBytes: 16 * 1024 * 1024,
  maxRatio: 1_000,
  maxTotalBytes: 1024 ** 4,
  timeoutMs: 30_000,
};
export type ZipLimits = typeof ZIP_LIMITS;

export interface ZipEntry {
  path: string;
  size: number;
}

export type ZipListing =
  | { status: 'listed'; entries: ZipEntry[]; total_size: number; extensions: Record<string, number> }
  | { status: 'too-large'; reason: string }
  | { status: 'broken'; reason: string };

/** Where the archive's bytes are: its size, and a stream of any range of it (inclusive offsets, as FileStore.get). */
export interface ZipSource {
  size: number;
  read(range: { start: number; end: number }, signal: AbortSignal): Promise<Readable>;
}

class TooLarge extends Error {}

/**
 * Files an operating system adds to an archive, not the pack's (decision 467): macOS's `__MACOSX/`
 * folder (an AppleDouble `._` twin of each file, with the same extension) and `._` files, its
 * `.DS_Store`, Windows's `Thumbs.db` and `desktop.ini`.
 */
const SYSTEM_NAMES = new Set(['.ds_store', 'thumbs.db', 'desktop.ini']);
function isSystemEntry(path: string): boolean {
  if (path.startsWith('__MACOSX/') || path.includes('/__MACOSX/')) return true;
  const base = path.slice(path.lastIndexOf('/') + 1);
  return base.startsWith('._') || SYSTEM_NAMES.has(base.toLowerCase());
}

const formatBytes = (n: number) => (n >= 1024 ** 3 ? `${(n / 1024 ** 3).toFixed(1)} GB` : n >= 1024 ** 2 ? `${(n / 1024 ** 2).toFixed(1)} MB` : `${Math.ceil(n / 1024)} KB`);

/** Serves yauzl's reads from `source`, refusing to read more than `budget` bytes in all. */
class BudgetedReader extends yauzl.RandomAccessReader {
  private left: number;
  constructor(
    private readonly source: ZipSource,
    budget: number,
    private readonly signal: AbortSignal,
  ) {
    super();
    this.left = budget;
  }

  override _readStreamForRange(start: number, end: number): Readable {
    const out = new PassThrough();
    this.left -= end - start;
    if (this.left < 0) {
      process.nextTick(() => out.destroy(new TooLarge('Its directory is too large to list')));
      return out;
    }
    if (end <= start) {
      out.end();
      return out;
    }
    // Whatever the source does, the listing's deadline ends the read.
    const onAbort = () => out.destroy(this.signal.reason instanceof Error ? this.signal.reason : new Error('aborted'));
    this.signal.addEventListener('abort', onAbort, { once: true });
    out.on('close', () => this.signal.removeEventListener('abort', onAbort));
    this.source.read({ start, end: end - 1 }, this.signal).then(
      (stream) => {
        stream.on('error', (err) => out.destroy(err));
        stream.pipe(out);
      },
      (err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))),
    );
    return out;
  }
}

function brokenReason(message: string): string {
  const outside = /^(?:invalid relative path|absolute path): (.*)$/.exec(message);
  if (outside) return `A file name points outside the archive: ${outside[1]!.slice(0, 200)}`;
  if (/^invalid characters in fileName/.test(message)) return 'A file name holds a backslash, which ZIP names never do';
  if (/end of central directory record signature not found/i.test(message)) return 'Not a ZIP, or an incomplete one: its directory is missing';
  return `Not a readable ZIP: ${message.slice(0, 200)}`;
}

/** Lists the ZIP in `source` within `limits`; never throws for what the archive holds. */
export async function listZip(source: ZipSource, limits: ZipLimits = ZIP_LIMITS): Promise<ZipListing> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new TooLarge('Listing it took too long')), limits.timeoutMs);
  const reader = new BudgetedReader(source, limits.maxDirectoryBytes, controller.signal);
  let zip: yauzl.ZipFile | undefined;
  try {
    zip = await yauzl.fromRandomAccessReaderPromise(reader, source.size, { lazyEntries: true, autoClose: false });
    if (zip.entryCount > limits.maxEntries) {
      return { status: 'too-large', reason: `It holds ${zip.entryCount.toLocaleString('en')} entries, more than the ${limits.maxEntries.toLocaleString('en')} listed` };
    }
    const entries: ZipEntry[] = [];
    const extensions: Record<string, number> = {};
    let total = 0;
    let listed = 0;
    for await (const entry of zip.eachEntry()) {
      if (controller.signal.aborted) throw controller.signal.reason;
      total += entry.uncompressedSize;
      if (total > limits.maxTotalBytes || total > limits.maxRatio * Math.max(source.size, 1)) {
        return { status: 'too-large', reason: `It would unpack to more than ${formatBytes(total)} from ${formatBytes(source.size)}: more than any real pack` };
      }
      if (entry.fileName.endsWith('/') || isSystemEntry(entry.fileName)) continue;
      entries.push({ path: entry.fileName, size: entry.uncompressedSize });
      listed += entry.uncompressedSize;
      const ext = extensionOf(entry.fileName);
      extensions[ext] = (extensions[ext] ?? 0) + 1;
    }
    return { status: 'listed', entries, total_size: listed, extensions };
  } catch (err) {
    const reason = controller.signal.aborted ? controller.signal.reason : err;
    if (reason instanceof TooLarge) return { status: 'too-large', reason: reason.message };
    return { status: 'broken', reason: brokenReason(reason instanceof Error ? reason.message : String(reason)) };
  } finally {
    clearTimeout(timer);
    controller.abort();
    zip?.close();
  }
}
