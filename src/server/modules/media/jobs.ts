import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import os from 'node:os';
import type { Transaction } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../../db/connection';
import type { Tables } from '../../db/schema';
import { claimJob, findJob, insertJob, type JobRow, type JobState, latestJobsFor, renewLease, requeueFailedJob, settleJob } from './queries';

/**
 * Media jobs kept in the database (migration 014): typed by `kind` with a JSON payload checked by
 * the kind's zod schema, claimed with a lease so that each runs once across instances and a job
 * whose instance died is claimed again when the lease runs out, retried with exponential backoff
 * up to a number of attempts (a JobFailure that says `retry: false` fails at once), stopped at a
 * time limit through an AbortSignal, and run one at a time per instance unless told otherwise.
 * See docs/decisions/140-media-jobs.md.
 */

export const JOB_POLL_INTERVAL_MS = 1000;
export const JOB_LEASE_MS = 60_000;
export const JOB_MAX_ATTEMPTS = 3;
/** The first retry waits this long, each next one twice as long, up to JOB_RETRY_MAX_MS. */
export const JOB_RETRY_BASE_MS = 10_000;
export const JOB_RETRY_MAX_MS = 10 * 60_000;
/**
 * stop() waits this long for running jobs before aborting them (an aborted job is queued again
 * without spending an attempt). With JOB_ABORT_SETTLE_MS it must stay well inside the 10 s after
 * which a stopping server exits 1 (src/server/main.ts): a preview can take minutes, a stop may not.
 */
export const JOB_STOP_GRACE_MS = 2_000;
/** After aborting a handler, the runner waits this long for it to return before moving on. */
export const JOB_ABORT_SETTLE_MS = 3_000;
/** Listeners a job's abort signal may have before Node warns of a leak (Node's default is 10). */
const JOB_SIGNAL_MAX_LISTENERS = 100;
/** A reason longer than this is cut (it is shown in the admin). */
const REASON_MAX_CHARS = 500;

export interface JobContext {
  /** Aborted at the time limit, at shutdown, or when this instance lost the job: stop, and kill child processes. */
  signal: AbortSignal;
  jobId: number;
  /** 1 for the first run. */
  attempt: number;
}

export interface JobDefinition<P = unknown, R = unknown> {
  kind: string;
  payload: z.ZodType<P>;
  timeLimitMs: number;
  maxAttempts?: number;
  run(payload: P, context: JobContext): Promise<R>;
}

export function defineJob<P, R>(definition: JobDefinition<P, R>): JobDefinition<P, R> {
  return definition;
}

/**
 * A failure a handler explains: `message` is shown to the admin; `retry: false` fails the job at
 * once; `inputRefused`: the input itself is at fault, so no later run (nor the admin's retry) can help.
 */
export class JobFailure extends Error {
  constructor(
    message: string,
    public readonly retry: boolean,
    public readonly inputRefused = false,
  ) {
    super(message);
    this.name = 'JobFailure';
  }
}

/** A job as the admin sees it. */
export interface JobView {
  id: number;
  kind: string;
  subject: string | null;
  state: JobState;
  attempts: number;
  maxAttempts: number;
  /** The last failure's reason: why it failed, or why it is waiting to be tried again. */
  error: string | null;
  result: unknown;
  runAt: string;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

function view(row: JobRow): JobView {
  return {
    id: row.id,
    kind: row.kind,
    subject: row.subject,
    state: row.state,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    error: row.error,
    result: row.result === null ? null : (JSON.parse(row.result) as unknown),
    runAt: row.run_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at,
  };
}

/** Runners of this process by database handle, woken when this process enqueues. */
const wakers = new WeakMap<Database, Set<() => void>>();
const wakeRunners = (database: Database) => wakers.get(database)?.forEach((wake) => wake());

/** Wakes this process's runners: after committing a transaction that queued jobs (enqueueJob's `trx`). */
export const wakeJobRunners = wakeRunners;

/**
 * Queues a job (its payload checked by the kind's schema) and wakes this process's runners at once.
 * With `trx` the job is queued in that transaction and nobody is woken: the caller calls
 * wakeJobRunners after the commit (a runner woken earlier would not see the job yet).
 */
export async function enqueueJob<P>(
  database: Database,
  definition: Pick<JobDefinition<P>, 'kind' | 'payload' | 'maxAttempts'>,
  payload: P,
  options: { subject?: string; now?: number; trx?: Transaction<Tables> } = {},
): Promise<JobView> {
  const checked = definition.payload.parse(payload);
  const row = await insertJob(options.trx ?? database.db, {
    kind: definition.kind,
    payload: JSON.stringify(checked),
    subject: options.subject ?? null,
    maxAttempts: definition.maxAttempts ?? JOB_MAX_ATTEMPTS,
    now: options.now ?? Date.now(),
  });
  if (!options.trx) wakeRunners(database);
  return view(row);
}

/** An admin's retry of a failed job: queued again with fresh attempts. False when the job is not failed. */
export async function retryJob(database: Database, id: number, now = Date.now()): Promise<boolean> {
  const retried = await requeueFailedJob(database, id, now);
  if (retried) wakeRunners(database);
  return retried;
}

export async function getJob(database: Database, id: number): Promise<JobView | undefined> {
  const row = await findJob(database, id);
  return row && view(row);
}

/** The newest job of each subject (a resource's preview shows its latest processing). */
export async function latestJobs(database: Database, subjects: string[]): Promise<Map<string, JobView>> {
  const rows = await latestJobsFor(database, subjects);
  return new Map(rows.map((r) => [r.subject!, view(r)]));
}

export function retryDelayMs(attempt: number, baseMs = JOB_RETRY_BASE_MS, maxMs = JOB_RETRY_MAX_MS): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
}

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
  readonly instanceId: string;
  private readonly running = new Map<number, Running>();
  private stopping = false;
  private loop: Promise<void> | undefined;
  private nudge: (() => void) | undefined;
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
    this.instanceId = options.instanceId ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  }

  /** Starts claiming and running jobs in the background (polling, and woken when this process enqueues). */
  start(): void {
    if (this.loop) return;
    this.stopping = false;
    let set = wakers.get(this.database);
    if (!set) wakers.set(this.database, (set = new Set()));
    set.add(this.wake);
    this.loop = this.poll();
  }

  /**
   * Stops claiming, waits up to `graceMs` for running jobs, then aborts them: an aborted job goes
   * back to the queue without spending an attempt, for this or another instance to run again.
   */
  async stop(options: { graceMs?: number } = {}): Promise<void> {
    this.stopping = true;
    wakers.get(this.database)?.delete(this.wake);
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
        this.log.error({ err: error }, 'media jobs: claiming failed');
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
          (error: unknown) => this.log.warn({ err: error, job: row.id }, 'media jobs: renewing a lease failed'),
        );
      }, this.leaseMs / 3);
      let outcome: { ok: true; value: unknown } | { ok: false; error: unknown };
      try {
        outcome = await this.runHandler(definition, row, context);
      } finally {
        clearTimeout(timer);
        clearInterval(heartbeat);
      }
      await this.settle(row, token, outcome, cause);
    })().catch((error: unknown) => this.log.error({ err: error, job: row.id }, 'media jobs: recording a job’s outcome failed'));
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
    if (!late) this.log.warn({ job: row.id, kind: row.kind }, 'media jobs: a handler did not stop after its abort');
    return { ok: false, error: context.signal.reason };
  }

  private async settle(row: JobRow, token: string, outcome: { ok: true; value: unknown } | { ok: false; error: unknown }, cause: AbortCause | undefined): Promise<void> {
    const now = this.now();
    if (cause === 'lost') return; // another instance owns the job now
    if (cause === 'shutdown') {
      await settleJob(this.database, row.id, token, { state: 'queued', error: row.error, runAt: now, now, refundAttempt: true });
      return;
    }
    let written: boolean;
    if (outcome.ok && !cause) {
      written = await settleJob(this.database, row.id, token, { state: 'ready', result: JSON.stringify(outcome.value ?? null), now });
    } else {
      const error = outcome.ok ? undefined : outcome.error;
      const explained = error instanceof JobFailure;
      const reason = explained ? firstLine(error.message) : `Processing failed: ${firstLine(error instanceof Error ? error.message : String(error))}`;
      if (!explained) this.log.error({ err: error, job: row.id, kind: row.kind }, 'media jobs: a job failed');
      const retry = (!explained || error.retry) && cause !== 'timeout' && row.attempts < row.max_attempts;
      written = retry
        ? await settleJob(this.database, row.id, token, { state: 'queued', error: reason, runAt: now + retryDelayMs(row.attempts, this.retryBaseMs, this.retryMaxMs), now })
        : await settleJob(this.database, row.id, token, { state: 'failed', error: reason, inputRefused: explained && error.inputRefused, now });
    }
    if (!written) this.log.warn({ job: row.id }, 'media jobs: the job was taken over before its outcome was written');
  }
}
