import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite } from '../../db/connection';
import { migrateToLatest } from '../../db/migrate';
import { LocalFileStore } from '../../storage/local';
import { LOCAL_FILES_DIR } from '../../storage/open';

/** Big enough that the CLI is still writing it when the test sees the `.partial` grow. */
const BIG_BYTES = 64 * 1024 * 1024;

/** The CLI with this site's DATA_DIR (SQLite, local store), as an owner runs it. */
function cli(script: 'backup' | 'restore', args: string[], dataDir: string): ChildProcess & { output: Promise<{ code: number | null; signal: string | null; out: string; err: string }> } {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  delete env.STORAGE;
  delete env.SESSION_SECRET;
  // What `npm run backup|restore` runs (package.json): the command built with the server, in this one
  // process, so a kill -9 of it stops the command itself (the tsx command ran scripts in a child of its
  // own, which a kill -9 left running: the backup went on writing, and finished).
  const child = spawn(process.execPath, ['scripts/command.mjs', script, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const output = new Promise<{ code: number | null; signal: string | null; out: string; err: string }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, out, err })),
  );
  return Object.assign(child, { output });
}

describe('the backup and restore commands', () => {
  let dir: string;
  let site: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'rv-backup-cli-'));
    site = path.join(dir, 'site');
    const database = openSqlite(path.join(site, 'resource-vault.db'));
    await migrateToLatest(database.db, 'sqlite');
    const key = `uploads/${'a'.repeat(32)}`;
    const store = new LocalFileStore(path.join(site, LOCAL_FILES_DIR));
    const zeros = Buffer.alloc(1024 * 1024);
    await store.put(key, Readable.from((function* () { for (let i = 0; i < BIG_BYTES / zeros.length; i++) yield zeros; })()), { maxBytes: BIG_BYTES });
    const now = new Date().toISOString();
    await database.db.insertInto('files').values({ key, kind: 'download', name: 'big.zip', size: BIG_BYTES, sha256: '0'.repeat(64), content_type: 'application/zip', image: null, created_at: now, detached_at: null }).execute();
    await database.close();
  }, 60_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('killed half-way (kill -9), leaves no archive: only its .partial, which the next run replaces', async () => {
    const out = path.join(dir, 'site.tar');
    const child = cli('backup', ['--out', out], site);
    // Wait for the archive to be on its way, then kill the process at once.
    while (!(existsSync(`${out}.partial`) && statSync(`${out}.partial`).size > 2 * 1024 * 1024)) {
      expect(child.exitCode, 'the backup finished before it could be killed').toBeNull();
      await sleep(5);
    }
    child.kill('SIGKILL');
    const killed = await child.output;
    expect(killed.signal).toBe('SIGKILL');
    // Nothing goes on writing it.
    const left = statSync(`${out}.partial`).size;
    await sleep(500);
    expect(existsSync(out)).toBe(false);
    expect(statSync(`${out}.partial`).size).toBe(left);
    expect(left).toBeLessThan(BIG_BYTES);

    const done = await cli('backup', ['--out', out], site).output;
    expect(done.err).toBe('');
    expect(done.code).toBe(0);
    expect(done.out).toMatch(/^Backed up \d+ rows \(migration \w+\) and 1 files \(67108864 bytes\) to .*site\.tar/);
    expect(existsSync(`${out}.partial`)).toBe(false);
    expect(statSync(out).size).toBeGreaterThan(BIG_BYTES);

    const restored = await cli('restore', [out], path.join(dir, 'restored')).output;
    expect(restored.code, restored.err).toBe(0);
    expect(restored.out).toMatch(/Restored 1 files \(67108864 bytes\)/);
    expect(statSync(path.join(dir, 'restored', LOCAL_FILES_DIR, 'uploads', 'a'.repeat(32))).size).toBe(BIG_BYTES);

    const refused = await cli('restore', [out], path.join(dir, 'restored')).output;
    expect(refused.code).toBe(1);
    expect(refused.err.trim()).toBe('restore: the target database is not empty (it has files): restore into an empty one, or add --force to replace what it holds');
  }, 120_000);
});
