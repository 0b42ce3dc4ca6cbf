import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { DatabaseConfig } from '../config';
import type { Database } from '../db/connection';
import { runTool } from '../media/ffmpeg';
import { testMediaTools } from '../testing/media-tools';
import { TEST_DATABASES } from '../testing/test-utils';
import { defineJob, enqueueJob, getJob, JOB_MAX_ATTEMPTS, JobFailure, latestJobs, retryDelayMs, retryJob } from './queue';
import { JobRunner } from './runner';
import { claimJob } from './queries';
import { openShared, type Shared } from '../testing/shared-db';

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await delay(20);
  }
}

const INSTANCE_SCRIPT = path.join(import.meta.dirname, '../testing/jobs-test-instance.ts');

/** Another instance in its own process (see jobs-test-instance.ts); resolves once its runner started. */
async function startInstance(config: DatabaseConfig, env: Record<string, string>): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', INSTANCE_SCRIPT], {
    env: { ...process.env, JOBS_TEST_DATABASE: JSON.stringify(config), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  await until(() => out.includes('ready') || child.exitCode !== null, 60_000);
  if (!out.includes('ready')) throw new Error(`instance did not start: ${out}`);
  return { child, output: () => out };
}

const record = defineJob({
  kind: 'test.record',
  payload: z.object({ n: z.number() }),
  timeLimitMs: 60_000,
  run: async (payload: { n: number }) => ({ doubled: payload.n * 2 }),
});

/** Jobs not yet ready or failed. */
async function unfinished(database: Database): Promise<number> {
  const rows = await database.db
    .withTables<{ media_jobs: { state: string } }>()
    .selectFrom('media_jobs')
    .select('state')
    .where('state', 'in', ['queued', 'processing'])
    .execute();
  return rows.length;
}

/** Processes whose command line holds `marker` (a child that outlived its kill would show here). */
function processesWith(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'latin1').includes(marker)) pids.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}

describe.each(TEST_DATABASES)('media jobs on %s', (kind) => {
  let shared: Shared;
  const runners: JobRunner[] = [];
  const children: ChildProcess[] = [];
  const runner = (database: Database, options: Partial<ConstructorParameters<typeof JobRunner>[0]> = {}) => {
    const r = new JobRunner({ database, jobs: [record], ...options });
    runners.push(r);
    return r;
  };

  beforeEach(async () => {
    shared = await openShared(kind);
  });
  afterEach(async () => {
    for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
    for (const r of runners.splice(0)) await r.stop({ graceMs: 0 });
    await shared.close();
  });

  it('runs a job as soon as this instance enqueues it (no poll wait) and keeps its result', async () => {
    const r = runner(shared.a, { pollIntervalMs: 60_000 });
    r.start();
    await delay(50); // the runner has polled once and is now asleep for a minute
    const job = await enqueueJob(shared.a, record, { n: 21 }, { subject: 'resource:1:preview' });
    expect(job.state).toBe('queued');
    await until(async () => (await getJob(shared.a, job.id))?.state === 'ready', 5_000);
    const done = await getJob(shared.a, job.id);
    expect(done).toMatchObject({ state: 'ready', attempts: 1, error: null, result: { doubled: 42 } });
    expect(done!.finishedAt).not.toBeNull();
    expect((await latestJobs(shared.a, ['resource:1:preview'])).get('resource:1:preview')?.id).toBe(job.id);
  });

  it('refuses a payload its kind does not accept, and fails a stored job whose payload is invalid', async () => {
    await expect(enqueueJob(shared.a, record, { n: 'x' } as never)).rejects.toThrow();
    const loose = defineJob({ ...record, payload: z.any() });
    const job = await enqueueJob(shared.a, loose, { n: 'x' });
    await runner(shared.a).runOnce();
    const failed = await getJob(shared.a, job.id);
    expect(failed?.state).toBe('failed');
    expect(failed?.error).toMatch(/^The job’s data is not valid/);
    expect(failed?.attempts).toBe(1);
  });

  it('runs each job exactly once with two runners on one database', async () => {
    const runs = new Map<number, number>();
    const counting = defineJob({
      ...record,
      run: async (_p: { n: number }, { jobId }) => {
        runs.set(jobId, (runs.get(jobId) ?? 0) + 1);
        await delay(10);
        return null;
      },
    });
    const ids: number[] = [];
    for (let n = 0; n < 30; n++) ids.push((await enqueueJob(shared.a, counting, { n })).id);
    const r1 = new JobRunner({ database: shared.a, jobs: [counting], pollIntervalMs: 10, concurrency: 2, instanceId: 'one' });
    const r2 = new JobRunner({ database: shared.b, jobs: [counting], pollIntervalMs: 10, concurrency: 2, instanceId: 'two' });
    runners.push(r1, r2);
    r1.start();
    r2.start();
    await until(async () => (await unfinished(shared.a)) === 0);
    for (const id of ids) expect(runs.get(id), `job ${id}`).toBe(1);
    expect(runs.size).toBe(ids.length);
  });

  it('runs each job exactly once with two instances in their own processes on one database', async () => {
    if (!shared.childConfig) {
      // In-process PGlite cannot be reached from another process; the in-process runners above cover it.
      expect(kind).toBe('postgres');
      return;
    }
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rv-jobs-log-'));
    const log = path.join(dir, 'runs.log');
    try {
      const config = shared.childConfig;
      const instances = await Promise.all([0, 1].map(() => startInstance(config, { JOBS_TEST_MODE: 'run', JOBS_TEST_LOG: log, JOBS_TEST_WORK_MS: '50' })));
      children.push(...instances.map((i) => i.child));
      const ids: number[] = [];
      for (let n = 0; n < 40; n++) ids.push((await enqueueJob(shared.a, record, { n })).id);
      await until(() => {
        try {
          return readFileSync(log, 'utf8').trim().split('\n').length >= ids.length;
        } catch {
          return false;
        }
      }, 60_000);
      await until(async () => (await unfinished(shared.a)) === 0);
      const lines = readFileSync(log, 'utf8').trim().split('\n').map((l) => l.split(' ').map(Number));
      const perJob = new Map<number, number>();
      for (const [id] of lines) perJob.set(id, (perJob.get(id) ?? 0) + 1);
      for (const id of ids) expect(perJob.get(id), `job ${id} ran once`).toBe(1);
      const pids = new Set(lines.map(([, pid]) => pid));
      expect(pids.size, 'both instances took jobs').toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('claims again a job whose instance stopped renewing its lease, once the lease has run out', async () => {
    let clock = Date.now();
    const job = await enqueueJob(shared.a, record, { n: 1 }, { now: clock });
    // An instance claims it and dies before finishing: nothing renews or settles the claim.
    const dead = await claimJob(shared.b, { kinds: ['test.record'], token: 'dead', instance: 'dead', now: clock, leaseMs: 30_000 });
    expect(dead?.id).toBe(job.id);
    const survivor = runner(shared.a, { leaseMs: 30_000, now: () => clock });
    clock += 29_000;
    expect(await survivor.runOnce(), 'the lease still holds').toBe(false);
    clock += 2_000;
    expect(await survivor.runOnce()).toBe(true);
    expect(await getJob(shared.a, job.id)).toMatchObject({ state: 'ready', attempts: 2, result: { doubled: 2 } });
  });

  it('finishes the job of an instance killed with SIGKILL in the middle of it, after the lease', async () => {
    if (!shared.childConfig) {
      expect(kind).toBe('postgres');
      return;
    }
    const job = await enqueueJob(shared.a, record, { n: 5 });
    const leaseMs = 1500;
    const instance = await startInstance(shared.childConfig, { JOBS_TEST_MODE: 'hang', JOBS_TEST_LEASE_MS: String(leaseMs) });
    children.push(instance.child);
    await until(() => instance.output().includes(`started ${job.id}`), 30_000);
    instance.child.kill('SIGKILL');
    await until(() => instance.child.exitCode !== null || instance.child.signalCode !== null);
    expect(await getJob(shared.a, job.id)).toMatchObject({ state: 'processing', attempts: 1 });
    const survivor = runner(shared.a, { pollIntervalMs: 50, leaseMs });
    survivor.start();
    await until(async () => (await getJob(shared.a, job.id))?.state === 'ready', 30_000);
    expect(await getJob(shared.a, job.id)).toMatchObject({ state: 'ready', attempts: 2, result: { doubled: 10 } });
  });

  it('retries a failing job with growing delays, then succeeds', async () => {
    let clock = Date.now();
    let calls = 0;
    const flaky = defineJob({
      ...record,
      maxAttempts: 3,
      run: async () => {
        calls++;
        if (calls < 3) throw new Error(`disk busy ${calls}`);
        return 'ok';
      },
    });
    const job = await enqueueJob(shared.a, flaky, { n: 1 }, { now: clock });
    const r = new JobRunner({ database: shared.a, jobs: [flaky], now: () => clock, retryBaseMs: 1000, retryMaxMs: 60_000 });
    expect(await r.runOnce()).toBe(true);
    expect(await getJob(shared.a, job.id)).toMatchObject({ state: 'queued', attempts: 1, error: 'Processing failed: disk busy 1' });
    clock += 999;
    expect(await r.runOnce(), 'not before the first delay').toBe(false);
    clock += 1;
    expect(await r.runOnce()).toBe(true);
    expect(await getJob(shared.a, job.id)).toMatchObject({ state: 'queued', attempts: 2, error: 'Processing failed: disk busy 2' });
    clock += 1999;
    expect(await r.runOnce(), 'the second delay is twice the first').toBe(false);
    clock += 1;
    expect(await r.runOnce()).toBe(true);
    expect(await getJob(shared.a, job.id)).toMatchObject({ state: 'ready', attempts: 3, error: null, result: 'ok' });
    expect(retryDelayMs(1, 1000, 60_000)).toBe(1000);
    expect(retryDelayMs(10, 1000, 60_000)).toBe(60_000);
  });

  it('gives up after the last attempt, and fails at once on a failure that says not to retry', async () => {
    let clock = Date.now();
    const always = defineJob({ ...record, kind: 'test.always', run: async () => Promise.reject(new Error('store unreachable')) });
    const permanent = defineJob({ ...record, kind: 'test.permanent', run: async () => Promise.reject(new JobFailure('This file is not a video.', false)) });
    const r = new JobRunner({ database: shared.a, jobs: [always, permanent], now: () => clock, retryBaseMs: 10 });
    const a = await enqueueJob(shared.a, always, { n: 1 }, { now: clock });
    for (let i = 0; i < JOB_MAX_ATTEMPTS; i++) {
      clock += 60_000;
      expect(await r.runOnce()).toBe(true);
    }
    expect(await getJob(shared.a, a.id)).toMatchObject({ state: 'failed', attempts: JOB_MAX_ATTEMPTS, error: 'Processing failed: store unreachable' });
    clock += 60_000;
    expect(await r.runOnce(), 'a failed job is not claimed').toBe(false);

    const p = await enqueueJob(shared.a, permanent, { n: 1 }, { now: clock });
    expect(await r.runOnce()).toBe(true);
    expect(await getJob(shared.a, p.id)).toMatchObject({ state: 'failed', attempts: 1, error: 'This file is not a video.' });
  });

  it('stops a job at its time limit and kills the child process it runs', async () => {
    const marker = `rv-time-limit-${randomBytes(6).toString('hex')}`;
    const tools = testMediaTools();
    const endless = defineJob({
      ...record,
      kind: 'test.endless',
      timeLimitMs: 2000,
      // ffmpeg reading an endless synthetic source: it never ends by itself.
      run: (_p: { n: number }, { signal }) =>
        runTool(tools, tools.ffmpeg, ['-hide_banner', '-nostdin', '-re', '-f', 'lavfi', '-i', 'testsrc2=s=64x64', '-metadata', `comment=${marker}`, '-f', 'null', '-'], {
          signal,
          timeoutMs: 600_000,
        }),
    });
    const job = await enqueueJob(shared.a, endless, { n: 1 });
    const r = new JobRunner({ database: shared.a, jobs: [endless] });
    const running = r.runOnce();
    await until(() => processesWith(marker).length > 0, 10_000);
    await running;
    expect(processesWith(marker), 'the child process is gone').toEqual([]);
    expect(await getJob(shared.a, job.id)).toMatchObject({ state: 'failed', attempts: 1, error: 'Processing took longer than the limit of 2 seconds and was stopped.' });
  });

  it('lets an admin retry a failed job, which then runs with fresh attempts', async () => {
    let fail = true;
    const once = defineJob({ ...record, run: async () => (fail ? Promise.reject(new JobFailure('ffmpeg is not installed', false)) : 'done') });
    const r = new JobRunner({ database: shared.a, jobs: [once], pollIntervalMs: 60_000 });
    const job = await enqueueJob(shared.a, once, { n: 1 });
    await r.runOnce();
    expect(await getJob(shared.a, job.id)).toMatchObject({ state: 'failed', error: 'ffmpeg is not installed' });
    expect(await retryJob(shared.a, 999_999), 'no such job').toBe(false);
    fail = false;
    r.start();
    await delay(50);
    expect(await retryJob(shared.a, job.id)).toBe(true);
    await until(async () => (await getJob(shared.a, job.id))?.state === 'ready', 5_000);
    expect(await getJob(shared.a, job.id)).toMatchObject({ state: 'ready', attempts: 1, error: null, result: 'done' });
    expect(await retryJob(shared.a, job.id), 'only a failed job is retried').toBe(false);
  });

  it('stop() lets the running job finish; past the grace it aborts it and puts it back without spending an attempt', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = defineJob({ ...record, run: async (_p: { n: number }, { signal }) => Promise.race([gate.then(() => 'finished'), new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)))]) });
    const first = await enqueueJob(shared.a, slow, { n: 1 });
    const r1 = new JobRunner({ database: shared.a, jobs: [slow], pollIntervalMs: 10 });
    r1.start();
    await until(async () => (await getJob(shared.a, first.id))?.state === 'processing');
    const stopping = r1.stop({ graceMs: 10_000 });
    await delay(50);
    release();
    await stopping;
    expect(await getJob(shared.a, first.id)).toMatchObject({ state: 'ready', result: 'finished' });

    const never = defineJob({ ...record, run: async (_p: { n: number }, { signal }) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))) });
    const second = await enqueueJob(shared.a, never, { n: 2 });
    const r2 = new JobRunner({ database: shared.a, jobs: [never], pollIntervalMs: 10 });
    r2.start();
    await until(async () => (await getJob(shared.a, second.id))?.state === 'processing');
    await r2.stop({ graceMs: 50 });
    expect(await getJob(shared.a, second.id)).toMatchObject({ state: 'queued', attempts: 0, error: null });
  });

  it('fails a job that keeps dying with its instance, once it has been claimed more times than its attempts', async () => {
    let clock = Date.now();
    const job = await enqueueJob(shared.a, record, { n: 1 }, { now: clock });
    for (let i = 0; i < JOB_MAX_ATTEMPTS; i++) {
      expect(await claimJob(shared.a, { kinds: ['test.record'], token: `dead-${i}`, instance: 'dead', now: clock, leaseMs: 1000 })).toBeDefined();
      clock += 1001;
    }
    expect(await runner(shared.a, { now: () => clock }).runOnce(), 'nothing left to run').toBe(false);
    const failed = await getJob(shared.a, job.id);
    expect(failed?.state).toBe('failed');
    expect(failed?.error).toBe(`Processing stopped ${JOB_MAX_ATTEMPTS} times before it finished (the server stopped or restarted during it).`);
  });

  it('a runner that lost its job to another instance does not overwrite the outcome', async () => {
    let clock = Date.now();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = defineJob({ ...record, run: async () => gate.then(() => 'late') });
    const job = await enqueueJob(shared.a, slow, { n: 1 }, { now: clock });
    const first = new JobRunner({ database: shared.a, jobs: [slow], now: () => clock, leaseMs: 1_000_000 });
    const running = first.runOnce();
    await until(async () => (await getJob(shared.a, job.id))?.state === 'processing');
    clock += 1_000_001;
    const other = new JobRunner({ database: shared.b, jobs: [record], now: () => clock });
    expect(await other.runOnce()).toBe(true);
    release();
    await running;
    expect(await getJob(shared.a, job.id)).toMatchObject({ state: 'ready', attempts: 2, result: { doubled: 2 } });
  });
});
