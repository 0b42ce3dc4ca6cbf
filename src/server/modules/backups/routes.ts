import { Cron } from 'croner';
import { z } from 'zod';
import { API } from '../../../contract/api-paths';
import { backupListSchema, backupQueuedSchema } from '../../../contract/backups';
import { errorBodySchema } from '../../../contract/errors';
import type { Module } from '../../context';
import { notFound } from '../../errors';
import { sendStoredFile } from '../../storage/send';
import { auditActor, recordAudit } from '../audit/record';
import { fileServices } from '../files/services';
import type { LinkKind } from '../files/links';
import { backupJobs, queueBackup } from './job';
import { BACKUP_PREFIX, backupJobState, backupName, listBackups } from './store';

/** A backup's download link: its own key (never valid as a hosted file's), good for a few minutes. */
const BACKUP_LINKS: LinkKind = { purpose: 'backup-download-links', ttlSeconds: 10 * 60 };

const docs = { tags: ['admin system'], security: [{ session: [] }] };

/**
 * Backups the server makes itself (issue 32; docs/decisions/441-scheduled-backups.md): on
 * BACKUP_SCHEDULE and on "Back up now", listed on the System page and downloaded through a signed
 * link (the token names the backup by its time, in seconds).
 */
export const backupsModule: Module = (app, ctx) => {
  const { database, files, config } = ctx;
  ctx.jobs.register(backupJobs(ctx));
  const signer = () => fileServices(ctx).signerFor(BACKUP_LINKS);

  if (config.backups.schedule) {
    let cron: Cron | undefined;
    let firing: Promise<unknown> = Promise.resolve();
    const schedule = config.backups.schedule;
    app.addHook('onReady', async () => {
      cron = new Cron(schedule, { protect: true, unref: true }, (self: Cron) => {
        // The scheduled time itself (the same on every instance): the first instance to ask queues it.
        const slot = self.previousRuns(1, new Date(Date.now() + 1000))[0] ?? new Date();
        const queued = queueBackup(database, { slot: slot.toISOString() }).then(
          ({ jobId, queued }) => {
            if (queued) app.log.info({ job: jobId, slot }, 'backup queued');
          },
          (err: unknown) => app.log.warn({ err }, 'could not queue the backup'),
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

  app.get(
    API.adminBackups,
    {
      config: { access: 'super' },
      schema: {
        ...docs,
        summary: 'The backups in the file store, newest first, each with a signed download link; and whether one is being made',
        response: { 200: backupListSchema, 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async function listBackupsHandler(_request, reply) {
      reply.header('cache-control', 'no-store');
      const [backups, links] = await Promise.all([listBackups(files), signer()]);
      const state = await backupJobState(database, backups[0]?.createdAt);
      return {
        items: backups.map((b) => ({
          name: b.name,
          size: b.size,
          created_at: b.createdAt.toISOString(),
          download_url: API.backupFile(links.sign(b.createdAt.getTime() / 1000)),
        })),
        ...state,
      };
    },
  );

  app.post(
    API.adminBackups,
    {
      config: { access: 'super' },
      schema: {
        ...docs,
        summary: 'Back up now: queues a backup into the file store (or answers the one already queued or running)',
        response: { 202: backupQueuedSchema, 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async function backUpNowHandler(request, reply) {
      const { jobId } = await queueBackup(database, {
        then: (trx, id, queued) => recordAudit(trx, auditActor(request), { action: 'backups.create', target: { type: 'backup', id }, changes: { queued } }),
      });
      return reply.status(202).send({ job_id: jobId! });
    },
  );

  app.get(
    API.backupFile(':token'),
    {
      compress: false,
      schema: {
        tags: ['admin system'],
        summary: 'A backup archive through a signed link from GET /api/admin/backups (the link is the permission); byte ranges supported',
        params: z.object({ token: z.string().max(100) }),
      },
    },
    async function downloadBackupHandler(request, reply) {
      const seconds = (await signer()).verify(request.params.token);
      const name = backupName(new Date(seconds * 1000));
      if (!(await files.stat(`${BACKUP_PREFIX}${name}`))) throw notFound('Backup not found (it may have been pruned)');
      return sendStoredFile(request, reply, files, `${BACKUP_PREFIX}${name}`, {
        contentType: 'application/x-tar',
        cacheControl: 'private, no-store',
        attachmentName: `resource-vault-${name}`,
      });
    },
  );
};
