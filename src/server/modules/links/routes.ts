import { Cron } from 'croner';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { API } from '../../../contract/api-paths';
import { idParamsSchema } from '../../../contract/common';
import { ERROR_CODES, errorBodySchema } from '../../../contract/errors';
import { linkCheckQueuedSchema, linkHealthQuerySchema, linkHealthSchema, REPORT_LINK_LIMIT } from '../../../contract/links';
import type { AppContext, Module } from '../../context';
import type { Database } from '../../db/connection';
import { notFound } from '../../errors';
import { HttpError } from '../../http-error';
import { enqueueJob, wakeJobRunners } from '../../jobs/queue';
import { dayOf } from '../../time';
import { auditActor, recordAudit } from '../audit/record';
import { hitRateLimit } from '../auth/queries';
import { createSalts, rateLimitKey } from '../downloads/visitor';
import { fullCheckJob, LINK_CHECK_KIND, LINK_RECHECK_KIND, linkJobs, recheckJob, recheckSubject } from './job';
import { brokenLinksPage, claimScheduledRun, countBrokenLinks, externalLinks, linkedResource, lockCheckQueue, pendingJob, recordScheduledJob } from './store';

const docs = { tags: ['link health'], security: [{ session: [] }] };
/** A visitor's reports are counted per address over this window (as downloads are). */
const REPORT_WINDOW_MS = 60_000;

/**
 * Queues the scheduled check of `slot` (the cron time, ISO-8601) unless another instance has: the
 * instance whose link_check_runs insert wins queues the job in the same transaction. A check still
 * queued or running (a large catalogue's slices) goes on instead of a second one starting. Answers
 * the job's id, or null when nothing was queued.
 */
export async function queueScheduledRun(database: Database, slot: string, now = new Date()): Promise<number | null> {
  const jobId = await database.db.transaction().execute(async (trx) => {
    await lockCheckQueue(trx, database.dialect);
    if (!(await claimScheduledRun(trx, slot, now))) return null;
    if ((await pendingJob(trx, LINK_CHECK_KIND)) !== undefined) return null;
    const job = await enqueueJob(database, fullCheckJob, { after: 0 }, { trx, subject: `scheduled:${slot}` });
    await recordScheduledJob(trx, slot, job.id);
    return job.id;
  });
  if (jobId !== null) wakeJobRunners(database);
  return jobId;
}

/** The cron schedule of this instance: each instance fires, one queues (queueScheduledRun). */
function startSchedule(app: FastifyInstance, { database }: AppContext, schedule: string): void {
  let cron: Cron | undefined;
  let firing: Promise<unknown> = Promise.resolve();
  app.addHook('onReady', async () => {
    cron = new Cron(schedule, { protect: true, unref: true }, (self: Cron) => {
      // The scheduled time itself (not the moment this instance's timer fired): the same on every instance.
      const slot = self.previousRuns(1, new Date(Date.now() + 1000))[0] ?? new Date();
      const queued = queueScheduledRun(database, slot.toISOString()).then(
        (job) => {
          if (job !== null) app.log.info({ job, slot }, 'link check queued');
        },
        (err: unknown) => app.log.warn({ err }, 'could not queue the link check'),
      );
      firing = queued;
      return queued;
    });
  });
  app.addHook('onClose', async () => {
    cron?.stop();
    await firing;
  });
}

/**
 * Link health (issue 32; docs/decisions/430-link-checks.md): the scheduled check of every external
 * link, the admins' list of broken ones and "Check now", and a visitor's "Report a broken link".
 */
export const linksModule: Module = (app, ctx) => {
  const { config, database } = ctx;
  const { db } = database;
  const { full, recheck } = linkJobs(ctx);
  ctx.jobs.register(full, recheck);
  if (config.linkChecks.schedule) startSchedule(app, ctx, config.linkChecks.schedule);
  const saltOf = createSalts(db);

  app.get(
    API.adminLinkHealth,
    {
      config: { access: 'admin' },
      schema: {
        ...docs,
        summary: 'Broken external links (download and thumbnail) of resources not in the trash, in resource order; paged',
        querystring: linkHealthQuerySchema,
        response: { 200: linkHealthSchema, 400: errorBodySchema },
      },
    },
    async function linkHealthHandler(request, reply) {
      const { page, limit } = request.query;
      reply.header('cache-control', 'no-store');
      const [items, total, running] = await Promise.all([brokenLinksPage(db, page, limit), countBrokenLinks(db), pendingJob(db, LINK_CHECK_KIND)]);
      return { items, total, page, running: running !== undefined };
    },
  );

  app.post(
    API.adminLinkHealthRun,
    {
      config: { access: 'admin' },
      schema: {
        ...docs,
        summary: 'Check every external link now: queues the check (or answers the one already queued or running)',
        response: { 202: linkCheckQueuedSchema },
      },
    },
    async function runLinkCheckHandler(request, reply) {
      const { jobId, queued } = await db.transaction().execute(async (trx) => {
        await lockCheckQueue(trx, database.dialect);
        const pending = await pendingJob(trx, LINK_CHECK_KIND);
        const id = pending ?? (await enqueueJob(database, fullCheckJob, { after: 0 }, { trx, subject: 'manual' })).id;
        await recordAudit(trx, auditActor(request), { action: 'links.check', target: { type: 'link_check', id }, changes: { queued: pending === undefined } });
        return { jobId: id, queued: pending === undefined };
      });
      if (queued) wakeJobRunners(database);
      return reply.status(202).send({ job_id: jobId });
    },
  );

  app.post(
    API.reportLink(':id'),
    {
      schema: {
        tags: ['resources'],
        summary: "A visitor's report of a broken link: queues a re-check of this resource's links (202, no body)",
        params: idParamsSchema,
        response: { 202: z.null().describe('Queued (no body)'), 404: errorBodySchema, 429: errorBodySchema },
      },
    },
    async function reportLinkHandler(request, reply) {
      const { id } = request.params;
      const now = new Date();
      const hit = await hitRateLimit(db, `report-link:${rateLimitKey(await saltOf(dayOf(now)), request.ip)}`, now.toISOString(), new Date(now.getTime() + REPORT_WINDOW_MS).toISOString());
      if (hit.count > REPORT_LINK_LIMIT) throw tooManyReports(Date.parse(hit.resetAt) - now.getTime());
      const row = await linkedResource(db, id, 'public');
      if (!row) throw notFound('Resource not found');
      const subject = recheckSubject(id);
      // Nothing external to check, or a re-check already waiting: nothing more to queue.
      if (externalLinks(row, config.publicUrl).length > 0 && (await pendingJob(db, LINK_RECHECK_KIND, subject)) === undefined) {
        await enqueueJob(database, recheckJob, { resource: id }, { subject });
      }
      // No body at all (an empty 202), not a JSON null.
      return reply.status(202).send(undefined as unknown as null);
    },
  );
};

function tooManyReports(retryMs: number): HttpError {
  const seconds = Math.max(1, Math.ceil(retryMs / 1000));
  return new HttpError(429, ERROR_CODES.rateLimited, `Too many reports. Try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`, undefined, {
    'retry-after': String(seconds),
  });
}
