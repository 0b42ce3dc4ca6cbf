import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { buildServer, SERVER_ARGS } from '../build-server.mjs';

/** The real server as a child process (`node dist/server/main.mjs`, built first when stale), as `npm start` runs it. */

export const ADMIN = { username: 'stress_root', password: 'stress-root-password-1' };

export interface ServerProcess {
  child: ChildProcess;
  pid: number;
  port: number;
  base: string;
  /** DATA_DIR: the one given, or a temporary folder that stopServer removes. */
  dataDir: string;
  ownsDataDir: boolean;
  /** Resolves with the exit code (or the signal name) once the process has ended. */
  exited: Promise<number | string>;
  /** Everything the process has written so far (stdout and stderr). */
  output(): string;
}

export const tempDir = (name: string) => mkdtempSync(path.join(os.tmpdir(), `rv-stress-${name}-`));

export async function startServer(env: Record<string, string> = {}): Promise<ServerProcess> {
  const dataDir = env.DATA_DIR ?? tempDir('data');
  await buildServer();
  const child = spawn(process.execPath, SERVER_ARGS, {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: process.env.STRESS_LOG_LEVEL ?? 'warn',
      SEED_DEMO: 'true',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      ...env,
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', process.env.STRESS_DEBUG ? 'inherit' : 'pipe'],
  });
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  let out = '';
  const port = await new Promise<number>((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /running at http:\/\/[^:]+:(\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    };
    child.stdout!.on('data', onData);
    if (process.env.STRESS_DEBUG) child.stdout!.on('data', (d: Buffer) => process.stdout.write(d));
    child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    void exited.then((code) => reject(new Error(`server exited (${code}) before listening:\n${out.slice(-2000)}`)));
    setTimeout(() => reject(new Error(`server did not start in 60 s:\n${out.slice(-2000)}`)), 60_000).unref();
  });
  return { child, pid: child.pid!, port, base: `http://127.0.0.1:${port}`, dataDir, ownsDataDir: !env.DATA_DIR, exited, output: () => out };
}

export async function stopServer(s: ServerProcess): Promise<number | string> {
  if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGTERM');
  const code = await s.exited;
  if (s.ownsDataDir) rmSync(s.dataDir, { recursive: true, force: true });
  return code;
}

export function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

export interface Res {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** A raw HTTP request: the path goes on the wire exactly as given (no URL normalisation, unlike fetch). */
export function send(base: string, method: string, rawPath: string, headers: Record<string, string> = {}, body?: string): Promise<Res> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: u.hostname, port: u.port, method, path: rawPath, headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
    if (body !== undefined) req.write(body);
    req.end();
  });
}

export const json = (base: string, method: string, p: string, payload?: unknown, headers: Record<string, string> = {}) =>
  send(base, method, p, payload === undefined ? headers : { 'content-type': 'application/json', ...headers }, payload === undefined ? undefined : JSON.stringify(payload));

export async function signIn(base: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await json(base, 'POST', '/api/auth/login', ADMIN, headers);
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.body}`);
  const c = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((x) => x.startsWith('rv_session='));
  if (!c) throw new Error('no session cookie');
  return c.split(';')[0];
}

/** Runs tasks with at most `limit` in flight. */
export async function pool<T>(count: number, limit: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      out[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
  return out;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
