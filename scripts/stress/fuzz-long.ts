import fc from 'fast-check';
import { checksum, isApiPath, isErrorShape, requestFor, routesFromPrintout } from '../../src/server/testing/hostile-input';
import { createTestApp } from '../../src/server/testing/test-utils';
import type { Row } from './table';
import { pool, send, signIn, startServer, stopServer } from './server-process';

/** 100,000 hostile requests over a real socket to every route; counts each status. */
export async function fuzzLong(total = Number(process.env.STRESS_FUZZ_REQUESTS ?? 100_000)): Promise<Row[]> {
  const probe = await createTestApp('sqlite');
  const routes = routesFromPrintout(probe.app.printRoutes({ commonPrefix: false }));
  await probe.close();

  const server = await startServer();
  const cookie = await signIn(server.base);
  const perRoute = Math.ceil(total / routes.length);
  const requests = routes.flatMap((r) => fc.sample(requestFor(r), { numRuns: perRoute, seed: 7 }));
  requests.length = total;
  const statuses: Record<string, number> = {};
  let badShape = 0;
  const t0 = Date.now();
  await pool(requests.length, 32, async (i) => {
    const r = requests[i];
    const headers = r.url.startsWith('/api/auth/logout') ? r.headers : { ...r.headers, cookie };
    let key: string;
    try {
      const res = await send(server.base, r.method, r.url, headers, r.payload);
      key = String(res.status);
      const path = r.url.split('?')[0];
      if (res.status >= 400 && r.method !== 'HEAD' && (isApiPath(path) || !String(res.headers['content-type']).startsWith('text/html'))) {
        let body: unknown;
        try {
          body = JSON.parse(res.body);
        } catch {
          body = undefined;
        }
        if (!isErrorShape(body)) {
          badShape++;
          if (badShape <= 5) console.log(`  no error shape: ${r.method} ${r.url.slice(0, 120)} → ${res.status} ${res.body.slice(0, 120)}`);
        }
      }
      if (res.status >= 500) console.log(`  5xx: ${r.method} ${r.url.slice(0, 120)} → ${res.status} ${res.body.slice(0, 200)}`);
    } catch (err) {
      // Fastify closes the socket after refusing an oversized body; the client may see that as a reset.
      key = `socket ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`;
      if (process.env.STRESS_DEBUG && !statuses[key]) console.log(`  ${key}: ${r.method} ${r.url.slice(0, 150)} ${JSON.stringify(r.headers).slice(0, 200)} body ${r.payload?.length ?? 0}`);
    }
    statuses[key] = (statuses[key] ?? 0) + 1;
  });
  const seconds = (Date.now() - t0) / 1000;
  const code = await stopServer(server);
  const fivexx = Object.entries(statuses).filter(([k]) => /^5/.test(k)).reduce((a, [, n]) => a + n, 0);
  const breakdown = Object.entries(statuses).sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k}:${n}`).join(' ');
  void checksum;
  return [
    { test: 'Fuzz (long)', figure: `${requests.length} requests to ${routes.length} routes in ${seconds.toFixed(0)} s`, goal: 'no 5xx', result: `${fivexx} 5xx`, ok: fivexx === 0 },
    { test: 'Fuzz statuses', figure: breakdown, goal: '-', result: '-', ok: true },
    { test: 'Fuzz error shape', figure: 'API 4xx with { error: { code, message } }', goal: '0 without', result: `${badShape} without`, ok: badShape === 0 },
    { test: 'Fuzz server exit', figure: 'SIGTERM after the run', goal: 'exit 0', result: `exit ${code}`, ok: code === 0 },
  ];
}
