// `npm test`: the whole suite, in order — the programs it needs (Chromium and ffmpeg, installed when
// missing), types, lint, client build, unit + API tests (SQLite and PostgreSQL), browser end-to-end.
// Stops at the first failing step.
import { spawnSync } from 'node:child_process';

const steps = [
  ['chromium and ffmpeg', 'node', ['scripts/ensure-tools.mjs']],
  ['types', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']],
  ['lint (and import cycles)', 'npm', ['run', '--silent', 'lint']],
  ['build', 'npx', ['vite', 'build', '--logLevel', 'warn']],
  ['unit + API (SQLite, PostgreSQL)', 'npx', ['vitest', 'run']],
  ['browser end-to-end', 'npx', ['vitest', 'run', '--config', 'vitest.e2e.config.ts']],
];

const pg = process.env.TEST_DATABASE_URL ? `PostgreSQL at ${process.env.TEST_DATABASE_URL.replace(/\/\/[^@]*@/, '//')}` : 'in-process PostgreSQL (PGlite)';
console.log(`Tests use SQLite and ${pg}.`);
const started = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
for (const [name, cmd, args] of steps) {
  console.log(`\n▶ ${name}`);
  const t0 = Date.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: process.env });
  if (r.status !== 0) {
    console.error(`\n✗ ${name} failed (${seconds(t0)})`);
    console.error(`Total: ${seconds(started)}`);
    process.exit(r.status ?? 1);
  }
  console.log(`✓ ${name} (${seconds(t0)})`);
}
console.log(`\nTotal: ${seconds(started)}`);
