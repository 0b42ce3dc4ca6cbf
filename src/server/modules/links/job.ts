import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { defineJob, enqueueJob } from '../../jobs/queue';
import { nowIso } from '../../time';
import { checkLink, type LinkCheckOptions } from './check';
import { type ExternalLink, externalLinks, type LinkedResource, linkedResource, resourcesAfter, writeLinkState } from './store';

/**
 * The link check's jobs (docs/decisions/430-link-checks.md): `link-check` goes through every
 * resource not in the trash in id order, a page at a time, and `link-recheck` checks one
 * resource's links (a visitor's report). Links are checked LINK_CHECK_CONCURRENCY at a time, at
 * most one request a second per host (the pacer, shared by this instance's checks), and each
 * result is written as it comes. A full check stops after LINK_CHECK_SLICE_MS and queues its
 * continuation after the last resource it finished (decision 431): no job holds a worker long,
 * and a check of a large catalogue goes on however often instances restart.
 */

export const LINK_CHECK_KIND = 'link-check';
export const LINK_RECHECK_KIND = 'link-recheck';
/** Links checked at once by one job. */
export const LINK_CHECK_CONCURRENCY = 4;
/** Resources read per page. */
export const LINK_CHECK_PAGE = 25;
/** A full check's job checks pages for this long, then queues the rest as a new job. */
export const LINK_CHECK_SLICE_MS = 60_000;

export const fullCheckJob = { kind: LINK_CHECK_KIND, payload: z.object({ after: z.number().int().min(0) }), maxAttempts: 3 };
export const recheckJob = { kind: LINK_RECHECK_KIND, payload: z.object({ resource: z.number().int().min(1) }), maxAttempts: 2 };

/** The job subject of a resource's re-check (at most one is queued at a time). */
export const recheckSubject = (id: number) => `links:${id}`;

/** Spaces requests to each host by `intervalMs` (a host's turn is booked, then waited for). */
export function createPacer(intervalMs: number) {
  const next = new Map<string, number>();
  return async (url: URL) => {
    const host = url.hostname.toLowerCase();
    const now = Date.now();
    if (next.size > 10_000) for (const [h, at] of next) if (at < now) next.delete(h);
    const at = Math.max(now, next.get(host) ?? 0);
    next.set(host, at + intervalMs);
    if (at > now) await sleep(at - now);
  };
}

export function linkCheckOptions({ config }: AppContext, pace: (url: URL) => Promise<void>): LinkCheckOptions {
  const { allowPrivate, allowAddresses, timeoutMs } = config.linkChecks;
  const allowed = new Set(allowAddresses ?? []);
  return { allowPrivate, allowAddress: (a) => allowed.has(a), timeoutMs, maxRedirects: 5, beforeRequest: pace };
}

/** Checks `links` `LINK_CHECK_CONCURRENCY` at a time, writing each result as it comes; stops taking new ones once `signal` aborts. */
async function checkAll(ctx: AppContext, options: LinkCheckOptions, links: ExternalLink[], signal: AbortSignal): Promise<number> {
  let next = 0;
  let checked = 0;
  const worker = async () => {
    while (next < links.length && !signal.aborted) {
      const link = links[next++]!;
      const result = await checkLink(link.url, options);
      if (signal.aborted) return;
      try {
        await writeLinkState(ctx.database.db, link, result, nowIso());
      } catch (err) {
        // Purged while it was being checked (its row's foreign key is gone): nothing to keep.
        if (await linkedResource(ctx.database.db, link.resourceId, 'any')) throw err;
      }
      checked++;
    }
  };
  await Promise.all(Array.from({ length: LINK_CHECK_CONCURRENCY }, worker));
  return checked;
}

const linksOf = (ctx: AppContext, rows: LinkedResource[]) => rows.flatMap((r) => externalLinks(r, ctx.config.publicUrl));

export function linkJobs(ctx: AppContext) {
  const pace = createPacer(ctx.config.linkChecks.hostIntervalMs);
  const options = linkCheckOptions(ctx, pace);
  const { db } = ctx.database;

  const full = defineJob({
    ...fullCheckJob,
    timeLimitMs: 10 * 60_000,
    async run({ after }, { signal }) {
      const started = Date.now();
      let cursor = after;
      let checked = 0;
      for (;;) {
        const rows = await resourcesAfter(db, cursor, LINK_CHECK_PAGE);
        if (rows.length === 0) return { checked, done: true };
        checked += await checkAll(ctx, options, linksOf(ctx, rows), signal);
        if (signal.aborted) throw signal.reason;
        cursor = rows[rows.length - 1]!.id;
        if (rows.length < LINK_CHECK_PAGE) return { checked, done: true };
        if (Date.now() - started >= LINK_CHECK_SLICE_MS) {
          const rest = await enqueueJob(ctx.database, fullCheckJob, { after: cursor });
          return { checked, done: false, continued_in: rest.id, after: cursor };
        }
      }
    },
  });

  const recheck = defineJob({
    ...recheckJob,
    timeLimitMs: 2 * 60_000,
    async run({ resource }, { signal }) {
      const row = await linkedResource(db, resource, 'not-trashed');
      if (!row) return { checked: 0 };
      const checked = await checkAll(ctx, options, linksOf(ctx, [row]), signal);
      if (signal.aborted) throw signal.reason;
      return { checked };
    },
  });

  return { full, recheck };
}
