import { Readable } from 'node:stream';
import yazl from 'yazl';
import type { ZipSource } from '../media/zip-listing';

/** A real ZIP of `entries` (stored unless `compress`: tests need its structure, not its size). */
export async function zipOf(entries: readonly { name: string; data?: Buffer | string }[], { compress = false } = {}): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const e of entries) {
    if (e.name.endsWith('/')) zip.addEmptyDirectory(e.name);
    else zip.addBuffer(Buffer.from(e.data ?? ''), e.name, { compress, mtime: new Date(0) });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** `bytes` as a ZipSource, counting what was read of it. */
export function bufferSource(bytes: Buffer): ZipSource & { bytesRead: number } {
  const source = {
    size: bytes.length,
    bytesRead: 0,
    read: async ({ start, end }: { start: number; end: number }) => {
      source.bytesRead += end - start + 1;
      return Readable.from([bytes.subarray(start, end + 1)]);
    },
  };
  return source;
}

/** Overwrites every central directory record's uncompressed size with `size` (what a zip bomb claims). */
export function claimUncompressedSize(zip: Buffer, size: number): Buffer {
  const out = Buffer.from(zip);
  for (let i = out.indexOf(CENTRAL_HEADER); i !== -1; i = out.indexOf(CENTRAL_HEADER, i + 4)) out.writeUInt32LE(size, i + 24);
  return out;
}
const CENTRAL_HEADER = Buffer.from([0x50, 0x4b, 0x01, 0x02]);

/** Replaces `from` with `to` (the same length) in every file name of the archive: names yazl would refuse. */
export function renameInPlace(zip: Buffer, from: string, to: string): Buffer {
  if (from.length !== to.length) throw new Error('renameInPlace keeps lengths');
  const out = Buffer.from(zip);
  const needle = Buffer.from(from);
  for (let i = out.indexOf(needle); i !== -1; i = out.indexOf(needle, i + 1)) out.write(to, i);
  return out;
}

/**
 * A real ZIP of `count` empty files named f0.txt, f1.txt, …, with ZIP64 end records when `count`
 * passes 65,535 — written directly, as yazl takes half a minute for 100,000 entries.
 */
export function emptyFilesZip(count: number): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (let i = 0; i < count; i++) {
    const name = Buffer.from(`f${i}.txt`);
    const local = Buffer.alloc(30 + name.length);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt16LE(name.length, 26);
    name.copy(local, 30);
    const central = Buffer.alloc(46 + name.length);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    name.copy(central, 46);
    locals.push(local);
    centrals.push(central);
    offset += local.length;
  }
  const directory = Buffer.concat(centrals);
  const zip64 = Buffer.alloc(56 + 20);
  zip64.writeUInt32LE(0x06064b50, 0);
  zip64.writeBigUInt64LE(44n, 4);
  zip64.writeUInt16LE(45, 12);
  zip64.writeUInt16LE(45, 14);
  zip64.writeBigUInt64LE(BigInt(count), 24);
  zip64.writeBigUInt64LE(BigInt(count), 32);
  zip64.writeBigUInt64LE(BigInt(directory.length), 40);
  zip64.writeBigUInt64LE(BigInt(offset), 48);
  zip64.writeUInt32LE(0x07064b50, 56);
  zip64.writeBigUInt64LE(BigInt(offset + directory.length), 64);
  zip64.writeUInt32LE(1, 72);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(count, 0xffff), 8);
  end.writeUInt16LE(Math.min(count, 0xffff), 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, ...(count > 0xffff ? [zip64] : []), end]);
}
