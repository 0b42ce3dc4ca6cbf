import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import os from 'node:os';
import type { Database } from '../db/connection';
import { claimJob, type JobRow, renewLease, settleJob } from './queries';
import {
  JOB_ABORT_SETTLE_MS,
  JOB_LEASE_MS,
  JOB_POLL_INTERVAL_MS,
  JOB_RETRY_BASE_MS,
  JOB_RETRY_MAX_MS,
  JOB_STOP_GRACE_MS,
  type JobContext,
  type JobDefinition,
  JobFailure,
  onJobQueued,
  retryDelayMs,
} from './queue';

/**
 * Claims due jobs of the kinds it is given and runs them, one at a time per instance unless told
 * otherwise, each under its lease, time limit and abort signal (queue.ts says how a job lives).
 */

/** Listeners a job's abort signal may have before Node warns of a leak (Node's default is 10). */
const JOB_SIGNAL_MAX_LISTENERS = 100;
/** A reason longer than this is cut (it is shown in the admin). */
const REASON_MAX_CHARS = 500;

export interface JobLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

const silent: JobLogger = { info() {}, warn() {}, error() {} };

export interface JobRunnerOptions {
  database: Database;
  jobs: JobDefinition[];
  /** Jobs run at once by this instance. */
  concurrency?: number;
  pollIntervalMs?: number;
  leaseMs?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** The clock for the database's times (leases, retries); tests move it. */
  now?: () => number;
  instanceId?: string;
  log?: JobLogger;
  /** Told each job's outcome on this instance and how long it ran (metrics). */
  onSettled?: (kind: string, outcome: 'ready' | 'retry' | 'failed' | 'aborted', seconds: number) => void;
}

type AbortCause = 'timeout' | 'shutdown' | 'lost';

interface Running {
  abort(cause: AbortCause): void;
  done: Promise<void>;
}

/** Whether `promise` settles within `ms` (the timer is cleared either way, so it never holds the process open). */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const firstLine = (text: string) => (text.split('\n')[0] ?? '').slice(0, REASON_MAX_CHARS);
const minutes = (ms: number) => (ms < 120_000 ? `${Math.round(ms / 1000)} seconds` : `${Math.round(ms / 60_000)} minutes`);

export class JobRunner {
  private readonly database: Database;
  private readonly definitions: Map<string, JobDefinition>;
  private readonly concurrency: number;
  private readonly pollIntervalMs: number;
  private readonly leaseMs: number;
  private readonly retryBaseMs: number;
  private readonly retryMaxMs: number;
  private readonly now: () => number;
  private readonly log: JobLogger;
  private readonly onSettled: NonNullable<JobRunnerOptions['onSettled']>;
  readonly instanceId: string;
  private readonly running = new Map<number, Running>();
  private stopping = false;
  private loop: Promise<void> | undefined;
  private nudge: (() => void) | undefined;
  private unsubscribe: (() => void) | undefined;
  /** Set by a wake during a claim round, so the round that missed the new job does not sleep. */
  private woken = false;
  private readonly wake = () => {
    this.woken = true;
    this.nudge?.();
  };

  constructor(options: JobRunnerOptions) {
    this.database = options.database;
    this.definitions = new Map(options.jobs.map((j) => [j.kind, j]));
    this.concurrency = Math.max(1, options.concurrency ?? 1);
    this.pollIntervalMs = options.pollIntervalMs ?? JOB_POLL_INTERVAL_MS;
    this.leaseMs = options.leaseMs ?? JOB_LEASE_MS;
    this.retryBaseMs = options.retryBaseMs ?? JOB_RETRY_BASE_MS;
    this.retryMaxMs = options.retryMaxMs ?? JOB_RETRY_MAX_MS;
    this.now = options.now ?? Date.now;
    this.log = options.log ?? silent;
    this.onSettled = options.onSettled ?? (() => {});
    this.instanceId = options.instanceId ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  }

  /** Starts claiming and running jobs in the background (polling, and woken when this process enqueues). */
  start(): void {
    if (this.loop) return;
    this.stopping = false;
    this.unsubscribe = onJobQueued(this.database, this.wake);
    this.loop = this.poll();
  }

  /**
   * Stops claiming, waits up to `graceMs` for running jobs, then aborts them: an aborted job goes
   * back to the queue without spending an attempt, for this or another instance to run again.
   */
  async stop(options: { graceMs?: number } = {}): Promise<void> {
    this.stopping = true;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.wake();
    // First the poll loop: a claim it has in flight becomes a running job (waited for below), not one left behind.
    await this.loop;
    this.loop = undefined;
    const all = () => Promise.all([...this.running.values()].map((r) => r.done));
    const finished = await settlesWithin(all(), options.graceMs ?? JOB_STOP_GRACE_MS);
    if (!finished) {
      for (const r of this.running.values()) r.abort('shutdown');
      await all();
    }
  }

  /** Claims one due job and runs it to its end; false when none was due. For tests and one-off runs. */
  async runOnce(): Promise<boolean> {
    const run = await this.claimAndStart();
    if (!run) return false;
    await run.done;
    return true;
  }

  private async poll(): Promise<void> {
    while (!this.stopping) {
      this.woken = false;
      try {
        while (!this.stopping && this.running.size < this.concurrency && (await this.claimAndStart())) {
          // claimed one; look for another while a slot is free
        }
      } catch (error) {
        // The database may be restarting: keep polling.
        this.log.error({ err: error }, 'jobs: claiming failed');
      }
      if (this.stopping) break;
      if (this.woken) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.pollIntervalMs);
        this.nudge = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.nudge = undefined;
    }
  }

  private async claimAndStart(): Promise<Running | undefined> {
    for (;;) {
      const token = randomUUID();
      const row = await claimJob(this.database, { kinds: [...this.definitions.keys()], token, instance: this.instanceId, now: this.now(), leaseMs: this.leaseMs });
      if (!row) return undefined;
      if (row.attempts > row.max_attempts) {
        // Claimed again after its lease ran out, more times than it may run: its runs keep dying with their instance.
        await settleJob(this.database, row.id, token, {
          state: 'failed',
          error: `Processing stopped ${row.attempts - 1} times before it finished (the server stopped or restarted during it).`,
          now: this.now(),
        });
        continue;
      }
      const running = this.execute(row, token);
      this.running.set(row.id, running);
      void running.done.finally(() => {
        this.running.delete(row.id);
        this.wake();
      });
      return running;
    }
  }

  private execute(row: JobRow, token: string): Running {
    const definition = this.definitions.get(row.kind)!;
    const controller = new AbortController();
    // One job's signal goes to every step it runs at once (a preview stores a dozen files in parallel).
    setMaxListeners(JOB_SIGNAL_MAX_LISTENERS, controller.signal);
    let cause: AbortCause | undefined;
    const abort = (why: AbortCause) => {
      if (cause) return;
      cause = why;
      const messages: Record<AbortCause, string> = {
        timeout: `Processing took longer than the limit of ${minutes(definition.timeLimitMs)} and was stopped.`,
        shutdown: 'The server is stopping.',
        lost: 'Another instance took over the job.',
      };
      controller.abort(new JobFailure(messages[why], false));
    };
    const context: JobContext = { signal: controller.signal, jobId: row.id, attempt: row.attempts };
    const done = (async () => {
      const timer = setTimeout(() => abort('timeout'), definition.timeLimitMs);
      const heartbeat = setInterval(() => {
        renewLease(this.database, row.id, token, this.now(), this.leaseMs).then(
          (held) => held || abort('lost'),
          (error: unknown) => this.log.warn({ err: error, job: row.id }, 'jobs: renewing a lease failed'),
        );
      }, this.leaseMs / 3);
      let outcome: { ok: true; value: unknown } | { ok: false; error: unknown };
      const started = performance.now();
      try {
        outcome = await this.runHandler(definition, row, context);
      } finally {
        clearTimeout(timer);
        clearInterval(heartbeat);
      }
      const settled = await this.settle(row, token, outcome, cause);
      this.onSettled(row.kind, settled, (performance.now() - started) / 1000);
    })().catch((error: unknown) => this.log.error({ err: error, job: row.id }, 'jobs: recording a job’s outcome failed'));
    return { abort, done };
  }

  private async runHandler(definition: JobDefinition, row: JobRow, context: JobContext): Promise<{ ok: true; value: unknown } | { ok: false; error: unknown }> {
    let payload: unknown;
    try {
      payload = definition.payload.parse(JSON.parse(row.payload));
    } catch (error) {
      return { ok: false, error: new JobFailure(`The job’s data is not valid: ${firstLine((error as Error).message)}`, false) };
    }
    const settled = (async () => definition.run(payload, context))().then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    const aborted = new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve(), { once: true }));
    const first = await Promise.race([settled, aborted.then(() => undefined)]);
    if (first) return first;
    // Aborted: give the handler a moment to kill its children and return, then move on without it.
    const late = await settlesWithin(settled, JOB_ABORT_SETTLE_MS);
    if (!late) this.log.warn({ job: row.id, kind: row.kind }, 'jobs: a handler did not stop after its abort');
    return { ok: false, error: context.signal.reason };
  }

  /** Writes the job's outcome; what it was, for metrics. */
  private async settle(row: JobRow, token: string, outcome: { ok: true; value: unknown } | { ok: false; error: unknown }, cause: AbortCause | undefined): Promise<'ready' | 'retry' | 'failed' | 'aborted'> {
    const now = this.now();
    if (cause === 'lost') return 'aborted'; // another instance owns the job now
    if (cause === 'shutdown') {
      await settleJob(this.database, row.id, token, { state: 'queued', error: row.error, runAt: now, now, refundAttempt: true });
      return 'aborted';
    }
    let written: boolean;
    let settled: 'ready' | 'retry' | 'failed';
    if (outcome.ok && !cause) {
      settled = 'ready';
      written = await settleJob(this.database, row.id, token, { state: 'ready', result: JSON.stringify(outcome.value ?? null), now });
    } else {
      const error = outcome.ok ? undefined : outcome.error;
      const explained = error instanceof JobFailure;
      const reason = explained ? firstLine(error.message) : `Processing failed: ${firstLine(error instanceof Error ? error.message : String(error))}`;
      if (!explained) this.log.error({ err: error, job: row.id, kind: row.kind }, 'jobs: a job failed');
      const retry = (!explained || error.retry) && cause !== 'timeout' && row.attempts < row.max_attempts;
      settled = retry ? 'retry' : 'failed';
      written = retry
        ? await settleJob(this.database, row.id, token, { state: 'queued', error: reason, runAt: now + retryDelayMs(row.attempts, this.retryBaseMs, this.retryMaxMs), now })
        : await settleJob(this.database, row.id, token, { state: 'failed', error: reason, inputRefused: explained && error.inputRefused, now });
    }
    if (!written) this.log.warn({ job: row.id }, 'jobs: the job was taken over before its outcome was written');
    return settled;
  }
}
