import type { Transaction } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../db/connection';
import type { Tables } from '../db/schema';
import { findJob, insertJob, type JobRow, type JobState, latestJobsFor, requeueFailedJob } from './queries';

/**
 * The job queue, kept in the database (migration 014, table `media_jobs`): typed by
 * `kind` with a JSON payload checked by the kind's zod schema, claimed with a lease so that each
 * runs once across instances and a job whose instance died is claimed again when the lease runs
 * out, retried with exponential backoff up to a number of attempts (a JobFailure that says
 * `retry: false` fails at once), stopped at a time limit through an AbortSignal. It knows no
 * feature: a feature registers its kinds (a handler each) with the app's JobKinds (module.ts),
 * and the runner (runner.ts) runs them. See docs/decisions/140-media-jobs.md and
 * docs/decisions/353-a-job-queue-of-its-own.md.
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

/** A runner's wake-up call when this process queues a job on `database`; returns the unsubscribe. */
export function onJobQueued(database: Database, wake: () => void): () => void {
  let set = wakers.get(database);
  if (!set) wakers.set(database, (set = new Set()));
  set.add(wake);
  return () => set.delete(wake);
}

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

/**
 * An admin's retry of a failed job: queued again with fresh attempts. False when the job is not
 * failed. With `trx`, written in it: the caller wakes the runners after the commit.
 */
export async function retryJob(database: Database, id: number, options: { now?: number; trx?: Transaction<Tables> } = {}): Promise<boolean> {
  const retried = await requeueFailedJob(options.trx ?? database.db, id, options.now ?? Date.now());
  if (retried && !options.trx) wakeRunners(database);
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

