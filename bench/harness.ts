import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { Measure } from './measures';

const HERE = path.dirname(fileURLToPath(import.meta.url));

export interface BenchOptions {
  /** Seconds of measured load per target. */
  duration: number;
  connections: number;
  /** Seconds of unmeasured load first, so the JIT and caches are warm. */
  warmup: number;
}

export interface Server {
  url: string;
  stop(): Promise<void>;
}

/**
 * Runs a server script (in bench/) in its own process, so server and load generator each get
 * a core instead of sharing one event loop. The script reports `{ port }` over IPC.
 */
export function startServer(script: string, env: Record<string, string | undefined> = {}): Promise<Server> {
  const childEnv = { ...process.env, ...env };
  // An explicit undefined removes an inherited variable (e.g. DATABASE_URL for the SQLite run).
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete childEnv[k];
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(HERE, script)], {
    env: childEnv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not report a port within 120 s`));
    }, 120_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited early with code ${code}`));
    });
    child.once('message', (msg: { port: number }) => {
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve({
        url: `http://127.0.0.1:${msg.port}`,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

export interface Load {
  reqPerSec: number;
  p50: number;
  p99: number;
  /** Failed requests and non-2xx answers: a fast error is not a fast endpoint. */
  failures: number;
}

export async function load(url: string, m: Measure, seconds: number, connections: number): Promise<Load> {
  const r = await autocannon({ url, method: m.method, headers: m.headers, body: m.body, connections, duration: seconds });
  return { reqPerSec: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, failures: r.errors + r.timeouts + r.non2xx };
}

export interface Row {
  measure: string;
  bytes: number;
  ours: Load;
  ceiling: Load;
}

/** Each measure against our server, then the bare route with a body of the same size. */
export async function compare(app: Server, bare: Server, measures: Measure[], o: BenchOptions): Promise<Row[]> {
  const rows: Row[] = [];
  for (const m of measures) {
    const probe = await fetch(app.url + m.path, { method: m.method, headers: m.headers, body: m.body });
    if (!probe.ok) throw new Error(`${m.name}: ${m.method} ${m.path} answered ${probe.status}`);
    // Uncompressed size: autocannon sends no Accept-Encoding, so neither side compresses.
    const bytes = (await probe.arrayBuffer()).byteLength;
    const ceilingMeasure: Measure = { ...m, path: `/bare/${bytes}` };
    if (o.warmup > 0) {
      await load(app.url + m.path, m, o.warmup, o.connections);
      await load(bare.url + ceilingMeasure.path, ceilingMeasure, o.warmup, o.connections);
    }
    const ours = await load(app.url + m.path, m, o.duration, o.connections);
    const ceiling = await load(bare.url + ceilingMeasure.path, ceilingMeasure, o.duration, o.connections);
    rows.push({ measure: m.name, bytes, ours, ceiling });
    process.stderr.write(`  measured: ${m.name}\n`);
  }
  return rows;
}

export function formatTable(rows: Row[]): string {
  const header = ['measure', 'bytes', 'req/s', 'p50 ms', 'p99 ms', 'ceiling req/s', 'ratio', 'failures'];
  const body = rows.map((r) => [
    r.measure,
    String(r.bytes),
    r.ours.reqPerSec.toFixed(0),
    r.ours.p50.toFixed(1),
    r.ours.p99.toFixed(1),
    r.ceiling.reqPerSec.toFixed(0),
    `${((r.ours.reqPerSec / r.ceiling.reqPerSec) * 100).toFixed(0)}%`,
    String(r.ours.failures + r.ceiling.failures),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  return [line(header), `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`, ...body.map(line)].join('\n');
}
