// `npm start`: builds the client and the server when missing or older than their sources, then runs the
// server (which migrates, seeds an empty database and listens).
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { buildServer, newestMtime, SERVER_ARGS } from './build-server.mjs';
import { runServer } from './run-server.mjs';

const BUILT = 'dist/client/index.html';
const SOURCES = ['index.html', 'vite.config.ts', 'src/client', 'src/contract', 'public'];

const stale = !existsSync(BUILT) || SOURCES.some((s) => newestMtime(s) > statSync(BUILT).mtimeMs);
if (stale) {
  console.log('Building the web client…');
  const r = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

await buildServer();
runServer(process.execPath, SERVER_ARGS);
