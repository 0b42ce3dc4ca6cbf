import zlib from 'node:zlib';

/**
 * A ZIP archive of `entries`, deflated, written in memory: for small generated archives (the demo
 * seed's hosted files). No ZIP64, so at most 65,535 entries of under 4 GiB — far more than a demo needs.
 */
export function zipArchive(entries: { name: string; data: Buffer }[], modified = new Date(Date.UTC(2024, 0, 1))): Buffer {
  const time = (modified.getUTCHours() << 11) | (modified.getUTCMinutes() << 5) | Math.floor(modified.getUTCSeconds() / 2);
  const date = ((modified.getUTCFullYear() - 1980) << 9) | ((modified.getUTCMonth() + 1) << 5) | modified.getUTCDate();
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const fileName = Buffer.from(name, 'utf8');
    const packed = zlib.deflateRawSync(data);
    const crc = zlib.crc32(data);
    // The local header and the central directory entry share these fields; the central one has
    // "version made by" before them, so they start two bytes later.
    const header = (size: number, signature: number, at: number) => {
      const h = Buffer.alloc(size);
      h.writeUInt32LE(signature, 0);
      h.writeUInt16LE(20, at); // version needed: deflate
      h.writeUInt16LE(0x0800, at + 2); // UTF-8 names
      h.writeUInt16LE(8, at + 4); // deflate
      h.writeUInt16LE(time, at + 6);
      h.writeUInt16LE(date, at + 8);
      h.writeUInt32LE(crc, at + 10);
      h.writeUInt32LE(packed.length, at + 14);
      h.writeUInt32LE(data.length, at + 18);
      h.writeUInt16LE(fileName.length, at + 22);
      return h;
    };
    const local = header(30, 0x04034b50, 4);
    const central = header(46, 0x02014b50, 6);
    central.writeUInt16LE(20, 4); // version made by
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, packed);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + packed.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}
