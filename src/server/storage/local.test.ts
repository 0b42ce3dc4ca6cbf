import { mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { describeFileStore } from '../testing/file-store-contract';
import { LocalFileStore } from './local';

const tempRoot = () => mkdtempSync(path.join(os.tmpdir(), 'rv-files-'));

describeFileStore('local disk', async () => {
  const dir = tempRoot();
  return { store: new LocalFileStore(path.join(dir, 'files')), close: async () => rmSync(dir, { recursive: true, force: true }) };
});

describe('local file store on disk', () => {
  // Not in the contract: s3rver, the S3 test server, writes an object in place (real S3 does not).
  it('two writers racing on one key leave one of their files, whole', async () => {
    const dir = tempRoot();
    const store = new LocalFileStore(dir);
    const a = 'a'.repeat(300_000);
    const b = 'b'.repeat(200_000);
    const put = (s: string) => store.put('race', Readable.from([Buffer.from(s)]), { maxBytes: 1e6 });
    await Promise.all([put(a), put(b)]);
    expect([a, b]).toContain(await text((await store.get('race')).body));
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every file inside its folder, one file per key, and no partial file after a write', async () => {
    const dir = tempRoot();
    const store = new LocalFileStore(path.join(dir, 'files'));
    await store.put('uploads/abc/original', Readable.from([Buffer.from('hello')]), { maxBytes: 10 });
    await store.put('../outside', Readable.from([Buffer.from('x')]), { maxBytes: 10 }).catch(() => {});
    expect(readdirSync(dir)).toEqual(['files']);
    expect(statSync(path.join(dir, 'files', 'uploads', 'abc', 'original')).size).toBe(5);
    expect(readdirSync(path.join(dir, 'files', '.partial'))).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('sweeps partial files left by a process that died mid-write, and only old ones', async () => {
    const dir = tempRoot();
    const store = new LocalFileStore(dir);
    mkdirSync(path.join(dir, '.partial'));
    writeFileSync(path.join(dir, '.partial', 'old.part'), 'left behind');
    writeFileSync(path.join(dir, '.partial', 'new.part'), 'being written');
    const dayAgo = new Date(Date.now() - 25 * 60 * 60 * 1000);
    utimesSync(path.join(dir, '.partial', 'old.part'), dayAgo, dayAgo);
    expect(await store.sweepPartial()).toBe(1);
    expect(existsSync(path.join(dir, '.partial', 'new.part'))).toBe(true);
    // Partial files are never listed as files.
    const keys: string[] = [];
    for await (const f of store.list('')) keys.push(f.key);
    expect(keys).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  });
});
