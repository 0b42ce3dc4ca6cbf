// `npm test`: the whole suite, in order — the programs it needs (Chromium and ffmpeg, installed when
// missing); types, lint and the client build side by side (each is one process on one core); unit +
// API tests (SQLite and PostgreSQL); browser end-to-end. Stops after the first stage with a failing step.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A step: its name and command. A group of steps runs at once; its output is printed step by step when all have ended. */
const stages = [
  [['chromium and ffmpeg', 'node', ['scripts/ensure-tools.mjs']]],
  [
    ['types', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']],
    ['lint (and import cycles)', 'npm', ['run', '--silent', 'lint']],
    ['build', 'npx', ['vite', 'build', '--logLevel', 'warn']],
  ],
  [['unit + API (SQLite, PostgreSQL)', 'npx', ['vitest', 'run']]],
  [['browser end-to-end', 'npx', ['vitest', 'run', '--config', 'vitest.e2e.config.ts']]],
];

// What the unit and the browser runs share: the demo media, made once with ffmpeg by whichever test asks first
// (src/server/testing/test-utils.ts, sharedDemoMedia).
const shared = mkdtempSync(path.join(tmpdir(), 'rv-npm-test-'));
process.env.RV_TEST_SHARED_DIR = shared;
process.on('exit', () => rmSync(shared, { recursive: true, force: true }));
process.on('SIGINT', () => process.exit(130));

const pg = process.env.TEST_DATABASE_URL ? `PostgreSQL at ${process.env.TEST_DATABASE_URL.replace(/\/\/[^@]*@/, '//')}` : 'in-process PostgreSQL (PGlite)';
console.log(`Tests use SQLite and ${pg}.`);
const started = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** Runs one step: its output straight through when it runs alone, else kept and returned. */
function run([name, cmd, args], alone) {
  const t0 = Date.now();
  if (alone) console.log(`\n▶ ${name}`);
  const child = spawn(cmd, args, { stdio: alone ? 'inherit' : ['ignore', 'pipe', 'pipe'], env: process.env });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  return new Promise((resolve) => {
    child.on('error', (error) => resolve({ name, status: 1, output: `${output}${error.message}\n`, took: seconds(t0) }));
    child.on('close', (status) => resolve({ name, status: status ?? 1, output, took: seconds(t0) }));
  });
}

for (const stage of stages) {
  const alone = stage.length === 1;
  const results = await Promise.all(stage.map((step) => run(step, alone)));
  let failed;
  for (const r of results) {
    if (!alone) {
      console.log(`\n▶ ${r.name}`);
      process.stdout.write(r.output);
    }
    console.log(r.status === 0 ? `✓ ${r.name} (${r.took})` : `\n✗ ${r.name} failed (${r.took})`);
    failed ??= r.status === 0 ? undefined : r.status;
  }
  if (failed !== undefined) {
    console.error(`Total: ${seconds(started)}`);
    process.exit(failed);
  }
}
console.log(`\nTotal: ${seconds(started)}`);
