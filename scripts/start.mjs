// `npm start`: builds the client and the server when missing or older than their sources, then runs the
// server (which migrates, seeds an empty database and listens).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { buildServer, SERVER_ARGS } from './build-server.mjs';
import { runServer } from './run-server.mjs';

const BUILT = 'dist/client/index.html';
const SOURCES = ['index.html', 'vite.config.ts', 'src/client', 'src/contract', 'public'];

function newestMtime(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(p).reduce((m, f) => Math.max(m, newestMtime(path.join(p, f))), st.mtimeMs);
}

const stale = !existsSync(BUILT) || SOURCES.some((s) => newestMtime(s) > statSync(BUILT).mtimeMs);
if (stale) {
  console.log('Building the web client…');
  const r = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

await buildServer();
runServer(process.execPath, SERVER_ARGS);
