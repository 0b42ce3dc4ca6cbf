/**
 * Hosted files on loopback (part of `npm run bench`; alone: `npx tsx bench/files.ts`): a file of
 * BENCH_FILE_BYTES (default 1 GiB, random bytes, generated once into $TMPDIR/rv-bench-files/) is
 * 1. copied on the same disk by a plain read-and-write stream with an fsync — the disk's own copy
 *    speed, the baseline, measured in the same run;
 * 2. uploaded with tus (50 MiB PATCHes streamed from the file, as the admin form's client sends
 *    slices of the File) to the real server in its own
 *    process (temp DATA_DIR, SQLite) and attached to a resource (the server hashes it as it writes,
 *    inside the measured time);
 * 3. downloaded through the signed link to a file on the same disk by curl (held to the goal: a
 *    native client, as browsers and download managers are), then again by node:http into a write
 *    stream (printed: with both processes on two cores, that client, not the server, sets its speed).
 * The copy and the downloads then alternate BENCH_FILE_ROUNDS times (default 3): on a shared machine
 * a single pair says more about the load than about the server, so each round's ratio is printed
 * and the median is held to the goal. The server's CPU seconds per GiB are printed beside them:
 * they move less with the load than wall time does.
 * Goals: upload ≥ 0.5× and download ≥ 0.8× the copy speed. The server's RSS is sampled every
 * 100 ms; growth over its idle RSS must stay under 100 MB (nothing buffers a whole file).
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, statSync } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { API } from '../src/contract/api-paths';
import { UPLOAD_CHUNK_BYTES, UPLOADS_PATH } from '../src/contract/files';
import { startServer } from './harness';

const execFileAsync = promisify(execFile);
const BYTES = Number(process.env.BENCH_FILE_BYTES ?? 1024 ** 3);
const ROUNDS = Math.max(1, Number(process.env.BENCH_FILE_ROUNDS ?? 3));
const CACHE = path.join(os.tmpdir(), 'rv-bench-files');
const MB = 1024 * 1024;
export const FILE_GOALS = { upload: 0.5, download: 0.8, rssGrowthBytes: 100 * MB };

async function source(): Promise<string> {
  await fs.mkdir(CACHE, { recursive: true });
  const file = path.join(CACHE, `source-${BYTES}.bin`);
  if (existsSync(file) && statSync(file).size === BYTES) return file;
  let left = BYTES;
  await pipeline(
    Readable.from(
      (function* () {
        while (left > 0) {
          const n = Math.min(16 * MB, left);
          left -= n;
          yield randomBytes(n);
        }
      })(),
    ),
    createWriteStream(file),
  );
  return file;
}

async function fsync(file: string) {
  const h = await fs.open(file, 'r+');
  await h.sync();
  await h.close();
}

async function timed<T>(run: () => Promise<T>): Promise<{ seconds: number; value: T }> {
  const started = performance.now();
  const value = await run();
  return { seconds: (performance.now() - started) / 1000, value };
}

async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export interface FilesBench {
  bytes: number;
  /** One per round, each copy just before its download. */
  copyMBps: number[];
  uploadMBps: number;
  downloadMBps: number[];
  /** Server CPU seconds per GiB moved. */
  uploadCpuPerGiB: number;
  downloadCpuPerGiB: number[];
  /** The same download received by node:http, one per round after the curl one. */
  nodeDownloadMBps: number[];
  idleRss: number;
  maxRssGrowth: number;
  identical: boolean;
}

export async function filesBench(): Promise<FilesBench> {
  const src = await source();
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'rv-bench-files-run-'));
  const dataDir = path.join(work, 'data');
  const server = await startServer('app-server.ts', {
    DATA_DIR: dataDir,
    DATABASE_URL: undefined,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
    ADMIN_USERNAME: 'bench',
    ADMIN_PASSWORD: 'bench-password-long-enough',
    UPLOAD_MAX_BYTES: String(Math.max(BYTES, 2 * MB)),
  });
  try {
    const copy = async () => {
      const { seconds } = await timed(async () => {
        await pipeline(createReadStream(src), createWriteStream(path.join(work, 'copy.bin')));
        await fsync(path.join(work, 'copy.bin'));
      });
      await fs.rm(path.join(work, 'copy.bin'));
      return seconds;
    };
    const cpuPerGiB = async <T>(run: () => Promise<T>) => {
      const before = await server.cpuMicros();
      const value = await run();
      return { value, cpuPerGiB: ((await server.cpuMicros()) - before) / 1e6 / (BYTES / 1024 ** 3) };
    };

    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bench', password: 'bench-password-long-enough' }),
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
    const headers = { cookie, origin: server.url };

    const idleRss = await server.rssBytes();
    let maxRss = idleRss;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        maxRss = Math.max(maxRss, await server.rssBytes());
        await new Promise((r) => setTimeout(r, 100));
      }
    })();

    // tus as a browser's client speaks it (tus-js-client slices the File; here: the file read in
    // 50 MiB ranges, each streamed as one PATCH body, nothing held whole).
    const upload = await cpuPerGiB(() => timed(async () => {
      const created = await fetch(`${server.url}${UPLOADS_PATH}`, {
        method: 'POST',
        headers: { ...headers, 'tus-resumable': '1.0.0', 'upload-length': String(BYTES), 'upload-metadata': `filename ${Buffer.from('bench.bin').toString('base64')}` },
      });
      if (created.status !== 201) throw new Error(`upload creation: ${created.status} ${await created.text()}`);
      const url = new URL(created.headers.get('location')!, server.url).toString();
      for (let offset = 0; offset < BYTES; offset += UPLOAD_CHUNK_BYTES) {
        const end = Math.min(BYTES, offset + UPLOAD_CHUNK_BYTES);
        const res = await fetch(url, {
          method: 'PATCH',
          headers: { ...headers, 'tus-resumable': '1.0.0', 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream', 'content-length': String(end - offset) },
          body: Readable.toWeb(createReadStream(src, { start: offset, end: end - 1, highWaterMark: MB })) as ReadableStream,
          duplex: 'half',
        } as RequestInit);
        if (res.status !== 204) throw new Error(`PATCH at ${offset}: ${res.status} ${await res.text()}`);
      }
      return url.slice(url.lastIndexOf('/') + 1);
    }));
    const created = await fetch(`${server.url}${API.adminResources}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Bench', description: 'x', category: 'typography', thumbnail_url: '/thumbnails/1.svg', download_upload_id: upload.value.value }),
    });
    const resource = (await created.json()) as { id: number; file: { sha256: string } };
    const out = path.join(work, 'downloaded.bin');
    const download = (client: 'curl' | 'node') =>
      cpuPerGiB(() =>
        timed(async () => {
          const { download_url } = (await (await fetch(`${server.url}${API.download(resource.id)}`, { method: 'POST' })).json()) as { download_url: string };
          if (client === 'curl') {
            // A native client, as browsers and download managers are: the server's speed, not the client's.
            await execFileAsync('curl', ['--silent', '--fail', '--output', out, download_url]);
          } else {
            // node:http into a write stream: a client of the baseline's kind, which the client itself limits.
            const res = await new Promise<http.IncomingMessage>((resolve, reject) => http.get(download_url, resolve).on('error', reject));
            await pipeline(res, createWriteStream(out));
          }
          await fsync(out);
        }),
      );
    const mbps = (s: number) => BYTES / MB / s;
    const copies: number[] = [];
    const downloads: { seconds: number; cpuPerGiB: number }[] = [];
    const nodeDownloads: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      copies.push(await copy());
      const d = await download('curl');
      downloads.push({ seconds: d.value.seconds, cpuPerGiB: d.cpuPerGiB });
      nodeDownloads.push((await download('node')).value.seconds);
    }
    sampling = false;
    await sampler;
    const identical = (await sha256File(out)) === resource.file.sha256 && resource.file.sha256 === (await sha256File(src));
    return {
      bytes: BYTES,
      copyMBps: copies.map(mbps),
      uploadMBps: mbps(upload.value.seconds),
      downloadMBps: downloads.map((d) => mbps(d.seconds)),
      nodeDownloadMBps: nodeDownloads.map(mbps),
      uploadCpuPerGiB: upload.cpuPerGiB,
      downloadCpuPerGiB: downloads.map((d) => d.cpuPerGiB),
      idleRss,
      maxRssGrowth: maxRss - idleRss,
      identical,
    };
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

export function formatFilesBench(r: FilesBench): string {
  const mark = (ok: boolean) => (ok ? 'ok' : 'MISSED');
  const copy = median(r.copyMBps);
  const up = r.uploadMBps / copy;
  const ratios = r.downloadMBps.map((d, i) => d / r.copyMBps[i]);
  const down = median(ratios);
  const nodeRatios = r.nodeDownloadMBps.map((d, i) => d / r.copyMBps[i]);
  const list = (xs: number[], digits = 0) => xs.map((x) => x.toFixed(digits)).join(' / ');
  return [
    `Hosted files: ${(r.bytes / MB).toFixed(0)} MiB on loopback, SQLite, local store; ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)}; ${r.copyMBps.length} rounds of copy then download`,
    '',
    `| measure | MiB/s (each round) | ratio to disk copy (each round) | median ratio | server CPU s/GiB | goal |`,
    `| --- | --- | --- | --- | --- | --- |`,
    `| disk copy (read + write + fsync) | ${list(r.copyMBps)} | 1.00 | 1.00 | | baseline |`,
    `| upload (tus, 50 MiB chunks, SHA-256 while writing; once) | ${r.uploadMBps.toFixed(0)} | ${up.toFixed(2)} (to the median copy) | ${up.toFixed(2)} | ${r.uploadCpuPerGiB.toFixed(2)} | ≥ ${FILE_GOALS.upload} ${mark(up >= FILE_GOALS.upload)} |`,
    `| download (signed link, curl to disk + fsync) | ${list(r.downloadMBps)} | ${list(ratios, 2)} | ${down.toFixed(2)} | ${list(r.downloadCpuPerGiB, 2)} | ≥ ${FILE_GOALS.download} ${mark(down >= FILE_GOALS.download)} |`,
    `| the same, node:http to disk + fsync | ${list(r.nodeDownloadMBps)} | ${list(nodeRatios, 2)} | ${median(nodeRatios).toFixed(2)} | | (the client's limit) |`,
    '',
    `Server RSS: ${(r.idleRss / MB).toFixed(0)} MiB idle, grew at most ${(r.maxRssGrowth / MB).toFixed(0)} MiB (goal < 100 MB: ${mark(r.maxRssGrowth < FILE_GOALS.rssGrowthBytes)}); downloaded bytes identical: ${r.identical}`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(formatFilesBench(await filesBench()));
}
