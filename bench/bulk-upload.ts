/**
 * Bulk upload on loopback (part of `npm run bench`; alone: `npx tsx bench/bulk-upload.ts`):
 * BENCH_BULK_FILES files (default 100) of BENCH_BULK_BYTES (default 5 MiB) each, three at a time
 * as the admin list's queue sends them (src/client/features/admin/bulk-upload/upload-queue.ts),
 * 1. through tus alone (create, one PATCH, nothing more) — the baseline;
 * 2. through the real flow: the tus upload, then POST /api/admin/resources making a draft of it
 *    (title from the file name, the upload attached: sniffed, its row written), beside the next uploads.
 * The two alternate BENCH_BULK_ROUNDS times (default 3) and the median ratio is held to the goal:
 * the flow's throughput ≥ 0.8× tus alone. Real server process, temp DATA_DIR, SQLite, local store.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { API } from '../src/contract/api-paths';
import { titleFromFileName } from '../src/contract/file-title';
import { UPLOADS_PATH } from '../src/contract/files';
import { BULK_UPLOAD_CONCURRENCY } from '../src/client/features/admin/bulk-upload/upload-queue';
import { startServer } from './harness';

const FILES = Number(process.env.BENCH_BULK_FILES ?? 100);
const BYTES = Number(process.env.BENCH_BULK_BYTES ?? 5 * 1024 * 1024);
const ROUNDS = Math.max(1, Number(process.env.BENCH_BULK_ROUNDS ?? 3));
const MB = 1024 * 1024;
export const BULK_UPLOAD_GOAL = 0.8;

export interface BulkUploadBench {
  files: number;
  bytes: number;
  /** Seconds per round. */
  tusSeconds: number[];
  flowSeconds: number[];
}

/** Runs `work` over 0..n-1 with at most `limit` at once. */
async function pool(n: number, limit: number, work: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, n) }, async () => {
      while (next < n) await work(next++);
    }),
  );
}

export async function bulkUploadBench(): Promise<BulkUploadBench> {
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'rv-bench-bulk-'));
  const server = await startServer('app-server.ts', {
    DATA_DIR: path.join(work, 'data'),
    DATABASE_URL: undefined,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
    ADMIN_USERNAME: 'bench',
    ADMIN_PASSWORD: 'bench-password-long-enough',
  });
  try {
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bench', password: 'bench-password-long-enough' }),
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
    const headers = { cookie, origin: server.url };
    const body = randomBytes(BYTES);

    // One file's bytes: the shared random body, its first bytes made its own (each file hashes differently).
    const bytesOf = (round: number, i: number) => {
      const b = Buffer.from(body);
      b.writeUInt32BE(round, 0);
      b.writeUInt32BE(i, 4);
      return b;
    };
    const tus = async (name: string, bytes: Buffer): Promise<string> => {
      const created = await fetch(`${server.url}${UPLOADS_PATH}`, {
        method: 'POST',
        headers: { ...headers, 'tus-resumable': '1.0.0', 'upload-length': String(bytes.length), 'upload-metadata': `filename ${Buffer.from(name).toString('base64')}` },
      });
      if (created.status !== 201) throw new Error(`upload creation: ${created.status} ${await created.text()}`);
      const url = new URL(created.headers.get('location')!, server.url).toString();
      const res = await fetch(url, {
        method: 'PATCH',
        headers: { ...headers, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
        body: new Blob([new Uint8Array(bytes)]),
      });
      if (res.status !== 204) throw new Error(`PATCH: ${res.status} ${await res.text()}`);
      return url.slice(url.lastIndexOf('/') + 1);
    };
    const draft = async (name: string, uploadId: string) => {
      const res = await fetch(`${server.url}${API.adminResources}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ title: titleFromFileName(name), description: name, category: 'sound_effects', status: 'draft', download_upload_id: uploadId }),
      });
      if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`);
    };
    const timed = async (run: () => Promise<void>) => {
      const started = performance.now();
      await run();
      return (performance.now() - started) / 1000;
    };

    const tusSeconds: number[] = [];
    const flowSeconds: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const ids: string[] = [];
      tusSeconds.push(await timed(() => pool(FILES, BULK_UPLOAD_CONCURRENCY, async (i) => void ids.push(await tus(`tus_only-${round}-${i}.bin`, bytesOf(2 * round, i))))));
      // The baseline's uploads are not wanted: deleted so the disk holds one round at a time.
      await pool(ids.length, BULK_UPLOAD_CONCURRENCY, async (i) => void (await fetch(`${server.url}${UPLOADS_PATH}/${ids[i]}`, { method: 'DELETE', headers: { ...headers, 'tus-resumable': '1.0.0' } })));
      // As the queue does: a draft is made beside the next uploads (it holds no upload place); done when the last is made.
      flowSeconds.push(
        await timed(async () => {
          const drafts: Promise<void>[] = [];
          await pool(FILES, BULK_UPLOAD_CONCURRENCY, async (i) => {
            const name = `bulk_pack-${round}-${i}_v2.bin`;
            const id = await tus(name, bytesOf(2 * round + 1, i));
            drafts.push(draft(name, id));
          });
          await Promise.all(drafts);
        }),
      );
    }
    return { files: FILES, bytes: BYTES, tusSeconds, flowSeconds };
  } finally {
    await server.stop();
    await fs.rm(work, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

export function formatBulkUploadBench(r: BulkUploadBench): string {
  const total = (r.files * r.bytes) / MB;
  const mbps = (s: number) => (total / s).toFixed(0);
  const ratios = r.flowSeconds.map((s, i) => r.tusSeconds[i] / s);
  const ratio = median(ratios);
  const list = (xs: (number | string)[]) => xs.map((x) => (typeof x === 'number' ? x.toFixed(1) : x)).join(' / ');
  return [
    `Bulk upload: ${r.files} files × ${(r.bytes / MB).toFixed(0)} MiB, ${BULK_UPLOAD_CONCURRENCY} at a time, loopback, SQLite, local store; ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)}; ${r.tusSeconds.length} rounds`,
    '',
    '| measure | seconds (each round) | MiB/s (each round) | ratio to tus alone (each round) | median ratio | goal |',
    '| --- | --- | --- | --- | --- | --- |',
    `| tus alone (create + one PATCH per file) | ${list(r.tusSeconds)} | ${list(r.tusSeconds.map(mbps))} | 1.00 | 1.00 | baseline |`,
    `| bulk upload (tus + create draft per file) | ${list(r.flowSeconds)} | ${list(r.flowSeconds.map(mbps))} | ${ratios.map((x) => x.toFixed(2)).join(' / ')} | ${ratio.toFixed(2)} | ≥ ${BULK_UPLOAD_GOAL} ${ratio >= BULK_UPLOAD_GOAL ? 'ok' : 'MISSED'} |`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(formatBulkUploadBench(await bulkUploadBench()));
}
