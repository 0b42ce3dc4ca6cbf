import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * `npm start` runs the server as a child of scripts/start.mjs; a supervisor sees only start.mjs's
 * exit code. The child watching lives in scripts/run-server.mjs (start.mjs = build if needed, then
 * that), so it is tested here with a real child process and without building the client.
 */
const RUNNER = path.resolve('scripts/run-server.mjs');

interface Outcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** Runs the runner with `childCode` as the server; `operator` is a signal sent to the runner itself once the child is up. */
function run(childCode: string, operator?: NodeJS.Signals): Promise<Outcome> {
  const launcher = `import(${JSON.stringify(RUNNER)}).then((m) => m.runServer(process.execPath, ['-e', ${JSON.stringify(childCode)}]))`;
  const runner = spawn(process.execPath, ['-e', launcher], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  runner.stderr.on('data', (d) => (stderr += d.toString()));
  runner.stdout.on('data', (d: Buffer) => {
    if (operator && d.toString().includes('child up')) runner.kill(operator);
  });
  return new Promise((resolve) => runner.on('exit', (code, signal) => resolve({ code, signal, stderr })));
}

/** A child that says it is up and then waits (a server); its signal handlers go before this, so they are in place when it says so. */
const UP = `console.log('child up'); setInterval(() => {}, 1000);`;

describe('scripts/start.mjs: the exit code a supervisor sees', () => {
  it.each([
    ['SIGKILL', 137],
    ['SIGBUS', 135],
    ['SIGSEGV', 139],
    ['SIGTERM', 143],
  ] as const)('a server killed by %s (not by the operator) exits %i and says so', async (signal, code) => {
    const out = await run(`process.kill(process.pid, '${signal}'); setInterval(() => {}, 1000);`);
    expect(out.code).toBe(code);
    expect(out.stderr.trim().split('\n')).toContain(`The server died: killed by ${signal}.`);
  });

  it('a server that exits with an error code passes the code on', async () => {
    const out = await run('process.exit(3)');
    expect(out.code).toBe(3);
    expect(out.stderr).toContain('The server exited with code 3.');
  });

  it('a server that exits cleanly exits 0', async () => {
    const out = await run('process.exit(0)');
    expect(out).toMatchObject({ code: 0, stderr: '' });
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('%s sent by the operator is passed on; the server stopping gracefully exits 0', async (signal) => {
    const out = await run(`process.on('${signal}', () => process.exit(0)); ${UP}`, signal);
    expect(out).toMatchObject({ code: 0, stderr: '' });
  });

  it('SIGTERM sent by the operator that kills a server without a handler still exits 0', async () => {
    const out = await run(UP, 'SIGTERM');
    expect(out.code).toBe(0);
  });

  it('a server that dies of something else while stopping exits non-zero', async () => {
    const out = await run(`process.on('SIGTERM', () => process.kill(process.pid, 'SIGKILL')); ${UP}`, 'SIGTERM');
    expect(out.code).toBe(137);
    expect(out.stderr).toContain('The server died: killed by SIGKILL.');
  });
});

/**
 * `npm start` runs the server built into dist/server (scripts/build-server.mjs, decision 460), rebuilt
 * when a source is newer than it; the server processes the tests start (scripts/stress/server-process.ts)
 * run that bundle, so every test of them is a test of it too.
 */
describe('scripts/build-server.mjs: the server npm start runs', () => {
  it('is rebuilt when a server source is newer than the bundle, and only then; the font worker it starts and the owner\'s commands are beside it', async () => {
    const { buildServer, builtFile, COMMANDS, serverBuildStale, SERVER_BUNDLE, SERVER_DIR } = await import('../../../scripts/build-server.mjs');
    await buildServer();
    expect(serverBuildStale()).toBe(false);
    expect(await buildServer()).toBe(false);
    expect(existsSync(path.join(SERVER_DIR, 'font-worker.mjs'))).toBe(true);
    expect(COMMANDS).toEqual(['backup', 'restore', 'admin']);
    for (const name of COMMANDS) expect(existsSync(builtFile(name)), name).toBe(true);
    expect(readFileSync(SERVER_BUNDLE, 'utf8')).toMatch(/\/\/# sourceMappingURL=main\.mjs\.map\s*$/);

    // A source edited after the build (its mtime moved past the bundle's, then put back).
    const source = path.resolve('src/server/main.ts');
    const { atime, mtime } = statSync(source);
    const built = statSync(SERVER_BUNDLE).mtimeMs;
    try {
      utimesSync(source, new Date(), new Date(built + 1000));
      expect(serverBuildStale()).toBe(true);
      expect(await buildServer()).toBe(true);
      expect(statSync(SERVER_BUNDLE).mtimeMs).toBeGreaterThan(built);
    } finally {
      utimesSync(source, atime, mtime);
    }
  });
});
