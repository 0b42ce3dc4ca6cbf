/**
 * `npm run bench`: the real server (SQLite in a temp DATA_DIR, demo data) against a bare
 * Fastify ceiling, one measure at a time, each server in its own process.
 * BENCH_DURATION (seconds, default 5) and BENCH_CONNECTIONS (default 10) tune the load.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compare, formatTable, startServer, type BenchOptions, type Server } from './harness';
import { API_MEASURES } from './measures';

const options: BenchOptions = {
  duration: Number(process.env.BENCH_DURATION ?? 5),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 10),
  warmup: 1,
};

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rv-bench-'));
const servers: Server[] = [];
try {
  const app = await startServer('app-server.ts', { DATA_DIR: dataDir, LOG_LEVEL: 'warn', SEED_DEMO: 'true', DATABASE_URL: undefined });
  servers.push(app);
  const bare = await startServer('bare-server.ts');
  servers.push(bare);

  console.log(
    `\nAPI benchmark: SQLite with demo data, ${options.connections} connections, ${options.duration} s per run ` +
      `(after ${options.warmup} s warm-up); ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)} at start\n` +
      'ceiling = bare Fastify answering a constant body of the same size; ratio = ours / ceiling;\n' +
      'CPU µs/req = server process CPU per request (robust when other work shares the cores); CPU ratio = ceiling CPU / ours\n',
  );
  const rows = await compare(app, bare, API_MEASURES, options);
  console.log(`${formatTable(rows)}\n`);
} finally {
  for (const s of servers) await s.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
