import { existsSync, rmSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Row } from './table';
import { ADMIN, json, signIn, sleep, startServer } from './server-process';

/** SIGTERM while requests are in flight: they complete with 2xx, the process exits 0, SQLite closes cleanly. */
export async function shutdown(): Promise<Row[]> {
  // Info logs name every request the server has begun, so SIGTERM is sent only once all are in flight.
  // No demo content: its preview jobs (ffmpeg, sharp) only added CPU here (8 → 3 s); the job runner
  // still runs, and the shutdown still stops it.
  const server = await startServer({ TRUST_PROXY: 'true', LOG_LEVEL: 'info', SEED_DEMO: 'false' });
  const begun = () => server.output().split('"msg":"incoming request"').length - 1;
  const cookie = await signIn(server.base, { 'x-forwarded-for': '198.51.100.1' });
  await sleep(50);
  const before = begun();
  // Sign-ins hash with argon2 (tens of ms each, a few at a time), so a batch of them is still being
  // worked on well after the server has read every request. SIGTERM lands in the middle of that.
  // (A request still queued in the kernel's accept backlog is not in flight: it may be refused.)
  let signalAt = 0;
  const after: number[] = [];
  const track = (p: Promise<{ status: number }>) =>
    p.then(
      (r) => {
        if (signalAt) after.push(Date.now() - signalAt);
        return r.status;
      },
      (e: Error) => `error ${e.message}`,
    );
  // One more sign-in sends half its body before SIGTERM and the rest after it, so at least one
  // request is surely in flight at the signal however quickly the machine hashes the others.
  const held = heldSignIn(server.base, '198.51.100.9');
  const inFlight = [
    track(held.done),
    ...Array.from({ length: 6 }, (_, i) => track(json(server.base, 'POST', '/api/auth/login', ADMIN, { 'x-forwarded-for': `198.51.100.${10 + i}` }))),
    track(json(server.base, 'GET', '/api/admin/dashboard', undefined, { cookie })),
  ];
  for (let waited = 0; begun() - before < inFlight.length && waited < 5000; waited += 5) await sleep(5);
  signalAt = Date.now();
  server.child.kill('SIGTERM');
  setTimeout(held.release, 50);
  const statuses = await Promise.all(inFlight);
  if (process.env.STRESS_DEBUG) console.log(statuses, after);
  const code = await server.exited;
  if (process.env.STRESS_DEBUG) console.log('exited', code, Date.now() - signalAt, 'ms after SIGTERM');
  const ok2xx = statuses.filter((s) => typeof s === 'number' && s >= 200 && s < 300).length;
  const file = path.join(server.dataDir, 'resource-vault.db');
  const walLeft = existsSync(`${file}-wal`);
  const db = new Database(file, { readonly: true });
  const integrity = db.pragma('integrity_check', { simple: true });
  db.close();
  rmSync(server.dataDir, { recursive: true, force: true });
  return [
    {
      test: 'Graceful shutdown',
      figure: `SIGTERM with ${statuses.length} requests sent, ${after.length} answered after it (last +${Math.max(0, ...after)} ms)`,
      goal: 'all 2xx, exit 0, no WAL left, integrity ok',
      result: `${ok2xx}/${statuses.length} 2xx, exit ${code}, WAL ${walLeft ? 'left' : 'gone'}, integrity ${integrity}`,
      ok: ok2xx === statuses.length && after.length > 0 && code === 0 && !walLeft && integrity === 'ok',
    },
  ];
}

/** A sign-in whose JSON body is half sent: `release` sends the rest. Its own connection, no keep-alive. */
function heldSignIn(base: string, ip: string): { done: Promise<{ status: number }>; release: () => void } {
  const body = JSON.stringify(ADMIN);
  const cut = body.length >> 1;
  const u = new URL(base);
  const req = http.request({
    host: u.hostname,
    port: u.port,
    method: 'POST',
    path: '/api/auth/login',
    agent: false,
    headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'x-forwarded-for': ip },
  });
  const done = new Promise<{ status: number }>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
    });
    req.on('error', reject);
  });
  req.flushHeaders();
  req.write(body.slice(0, cut));
  return { done, release: () => req.end(body.slice(cut)) };
}
