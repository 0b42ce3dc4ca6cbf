import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database } from '../db/connection';
import type { JobState, MediaJobsTable, Tables } from '../db/schema';

export type { JobState };
export type JobRow = Selectable<MediaJobsTable>;

const iso = (ms: number) => new Date(ms).toISOString();

/** `db` may be a transaction: the job is queued with the rest of a save, or not at all. */
export async function insertJob(
  db: Kysely<Tables>,
  job: { kind: string; payload: string; subject: string | null; maxAttempts: number; now: number },
): Promise<JobRow> {
  const at = iso(job.now);
  return db
    .insertInto('media_jobs')
    .values({ kind: job.kind, payload: job.payload, subject: job.subject, state: 'queued', max_attempts: job.maxAttempts, run_at: at, created_at: at, updated_at: at })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Claims the next job of one of `kinds` that is due, or whose lease ran out (its instance died),
 * in one statement: PostgreSQL locks the chosen row and skips rows another instance is claiming
 * (`FOR UPDATE SKIP LOCKED`); SQLite runs the UPDATE with its database write lock held, so the
 * subquery and the update see the same rows. The claim token fences the claimer's later writes.
 */
export async function claimJob(
  database: Database,
  claim: { kinds: string[]; token: string; instance: string; now: number; leaseMs: number },
): Promise<JobRow | undefined> {
  if (claim.kinds.length === 0) return undefined;
  const now = iso(claim.now);
  const db = database.db;
  const next = db
    .selectFrom('media_jobs')
    .select('id')
    .where('kind', 'in', claim.kinds)
    .where((eb) =>
      eb.or([
        eb.and([eb('state', '=', 'queued'), eb('run_at', '<=', now)]),
        eb.and([eb('state', '=', 'processing'), eb('lease_expires_at', '<=', now)]),
      ]),
    )
    .orderBy('run_at')
    .orderBy('id')
    .limit(1)
    .$if(database.dialect === 'postgres', (q) => q.forUpdate().skipLocked());
  return db
    .updateTable('media_jobs')
    .set({
      state: 'processing',
      attempts: sql<number>`attempts + 1`,
      claim_token: claim.token,
      claimed_by: claim.instance,
      lease_expires_at: iso(claim.now + claim.leaseMs),
      updated_at: now,
    })
    .where('id', '=', next)
    .returningAll()
    .executeTakeFirst();
}

// The claimer's later writes name its claim token: they hold only while its claim does (another
// instance may have taken the job after the lease ran out).

export async function renewLease(database: Database, id: number, token: string, now: number, leaseMs: number): Promise<boolean> {
  const r = await database.db
    .updateTable('media_jobs')
    .set({ lease_expires_at: iso(now + leaseMs), updated_at: iso(now) })
    .where('id', '=', id)
    .where('claim_token', '=', token)
    .where('state', '=', 'processing')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Ends a claim: ready with a result, failed with a reason, or queued again at `runAt`. */
export async function settleJob(
  database: Database,
  id: number,
  token: string,
  outcome:
    | { state: 'ready'; result: string; now: number }
    | { state: 'failed'; error: string; inputRefused?: boolean; now: number }
    | { state: 'queued'; error: string | null; runAt: number; now: number; refundAttempt?: boolean },
): Promise<boolean> {
  const now = iso(outcome.now);
  const common = { claim_token: null, claimed_by: null, lease_expires_at: null, updated_at: now };
  const values =
    outcome.state === 'ready'
      ? { ...common, state: 'ready' as const, result: outcome.result, error: null, input_refused: 0, finished_at: now }
      : outcome.state === 'failed'
        ? { ...common, state: 'failed' as const, error: outcome.error, input_refused: outcome.inputRefused ? 1 : 0, finished_at: now }
        : {
            ...common,
            state: 'queued' as const,
            error: outcome.error,
            input_refused: 0,
            run_at: iso(outcome.runAt),
            ...(outcome.refundAttempt ? { attempts: sql<number>`attempts - 1` } : {}),
          };
  const r = await database.db
    .updateTable('media_jobs')
    .set(values)
    .where('id', '=', id)
    .where('claim_token', '=', token)
    .where('state', '=', 'processing')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** A failed job queued again with fresh attempts; false when it is not (or no longer) failed. */
export async function requeueFailedJob(db: Kysely<Tables>, id: number, now: number): Promise<boolean> {
  const at = iso(now);
  const r = await db
    .updateTable('media_jobs')
    .set({ state: 'queued', attempts: 0, run_at: at, error: null, input_refused: 0, result: null, finished_at: null, updated_at: at })
    .where('id', '=', id)
    .where('state', '=', 'failed')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function findJob(database: Database, id: number): Promise<JobRow | undefined> {
  return database.db.selectFrom('media_jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The newest job for each of `subjects`. */
export async function latestJobsFor(database: Database, subjects: string[]): Promise<JobRow[]> {
  if (subjects.length === 0) return [];
  const db = database.db;
  return db
    .selectFrom('media_jobs')
    .selectAll()
    .where('id', 'in', db.selectFrom('media_jobs').select((eb) => eb.fn.max('id').as('id')).where('subject', 'in', subjects).groupBy('subject'))
    .execute();
}

/** The kind, state and reason of each of these jobs, by id (a page of resources' preview jobs in one query). */
export async function jobStates(database: Database, ids: number[]): Promise<Map<number, Pick<JobRow, 'id' | 'kind' | 'state' | 'error' | 'input_refused'>>> {
  if (ids.length === 0) return new Map();
  const rows = await database.db.selectFrom('media_jobs').select(['id', 'kind', 'state', 'error', 'input_refused']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [Number(r.id), r]));
}
