import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
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
  /** CPU time (user + system, µs) the server process has used so far. */
  cpuMicros(): Promise<number>;
  /** The server process's resident set size, bytes. */
  rssBytes(): Promise<number>;
  /** Runs a statement on the server's own database connection, as a write the server makes (an admin's save). */
  run(statement: string): Promise<void>;
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
  // BENCH_CPU_PROF=dir: each server writes a V8 CPU profile there when it stops (open it in Chrome DevTools).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', path.join(HERE, script)], {
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
        cpuMicros: () =>
          new Promise<number>((done) => {
            const onMessage = (m: { cpu?: NodeJS.CpuUsage }) => {
              if (!m.cpu) return;
              child.off('message', onMessage);
              done(m.cpu.user + m.cpu.system);
            };
            child.on('message', onMessage);
            child.send('cpu');
          }),
        rssBytes: () =>
          new Promise<number>((done) => {
            const onMessage = (m: { rss?: number }) => {
              if (m.rss === undefined) return;
              child.off('message', onMessage);
              done(m.rss);
            };
            child.on('message', onMessage);
            child.send('rss');
          }),
        run: (statement) =>
          new Promise<void>((done, fail) => {
            const onMessage = (m: { ran?: boolean; error?: string }) => {
              if (m.ran === undefined) return;
              child.off('message', onMessage);
              if (m.ran) done();
              else fail(new Error(m.error));
            };
            child.on('message', onMessage);
            child.send({ run: statement });
          }),
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
  /** Server CPU per answered request (µs): stable even when the machine is busy with other work. */
  cpuPerRequest: number;
  /** Failed requests and non-2xx answers: a fast error is not a fast endpoint. */
  failures: number;
}

let visitors = 0;
/** Another client address each time (2^32 of them: none repeats within a run). */
const nextVisitor = () => {
  const i = ++visitors;
  return `${(i >>> 24) & 255 || 1}.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
};

export async function load(server: Server, m: Measure, seconds: number, connections: number): Promise<Load> {
  const cpuBefore = await server.cpuMicros();
  const r = await autocannon({
    url: server.url + m.path,
    method: m.method,
    headers: m.headers,
    body: m.body,
    connections,
    duration: seconds,
    requests: m.distinctVisitors ? [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'x-forwarded-for': nextVisitor() } }) }] : undefined,
  });
  const cpu = (await server.cpuMicros()) - cpuBefore;
  return {
    reqPerSec: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    cpuPerRequest: cpu / Math.max(1, r.requests.total),
    failures: r.errors + r.timeouts + r.non2xx,
  };
}

export interface Row {
  measure: string;
  goal?: Measure['goal'];
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
    const connections = m.connections ?? o.connections;
    if (o.warmup > 0) {
      await load(app, m, o.warmup, connections);
      await load(bare, ceilingMeasure, o.warmup, connections);
    }
    const ours = await load(app, m, o.duration, connections);
    const ceiling = await load(bare, ceilingMeasure, o.duration, connections);
    rows.push({ measure: m.name, goal: m.goal, bytes, ours, ceiling });
    process.stderr.write(`  measured: ${m.name}\n`);
  }
  return rows;
}

export function formatTable(rows: Row[]): string {
  const header = ['measure', 'bytes', 'req/s', 'p50 ms', 'p99 ms', 'ceiling req/s', 'ratio', 'CPU µs/req', 'ceiling CPU µs/req', 'CPU ratio', 'failures', 'goal', 'result'];
  const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
  const body = rows.map((r) => [
    r.measure,
    String(r.bytes),
    r.ours.reqPerSec.toFixed(0),
    r.ours.p50.toFixed(1),
    r.ours.p99.toFixed(1),
    r.ceiling.reqPerSec.toFixed(0),
    pct(r.ours.reqPerSec / r.ceiling.reqPerSec),
    r.ours.cpuPerRequest.toFixed(0),
    r.ceiling.cpuPerRequest.toFixed(0),
    // Ceiling CPU / ours: the share of the bare-route throughput one core could reach.
    pct(r.ceiling.cpuPerRequest / r.ours.cpuPerRequest),
    String(r.ours.failures + r.ceiling.failures),
    r.goal?.text ?? '',
    r.goal ? (r.goal.met({ reqPerSec: r.ours.reqPerSec, p99: r.ours.p99, ratio: r.ours.reqPerSec / r.ceiling.reqPerSec }) ? 'pass' : 'FAIL') : '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  return [line(header), `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`, ...body.map(line)].join('\n');
}

/** A fresh database beside the one in `url`, so the bench never touches real or test data. */
export async function freshPgDatabase(url: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Fresh statistics after a bulk load, as an owner's autovacuum would soon have them. */
export async function vacuumAnalyze(url: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query('vacuum analyze');
  } finally {
    await c.end();
  }
}
