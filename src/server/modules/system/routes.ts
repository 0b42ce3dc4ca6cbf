import { API } from '../../../contract/api-paths';
import { errorBodySchema } from '../../../contract/errors';
import { systemStatusSchema } from '../../../contract/system';
import type { Module } from '../../context';
import { startPeriodic } from '../../jobs/periodic';
import { beat, BEAT_INTERVAL_MS, forget, thisInstance } from './instances';
import { APP_VERSION, systemStatus } from './status';

/**
 * The System page's API (issue 32): the health of every part, for super admins. Each instance beats
 * into the database (docs/decisions/436-instances-beat-into-the-database.md), so the page lists
 * every server running on it, whichever one answers.
 */
export const systemModule: Module = (app, ctx) => {
  const me = thisInstance(APP_VERSION);
  startPeriodic(app, {
    everyMs: BEAT_INTERVAL_MS,
    run: async () => {
      await beat(ctx.database.db, me);
      return [];
    },
    did: 'beat',
    failed: 'could not record this instance as running',
  });
  app.addHook('onClose', async () => {
    await forget(ctx.database.db, me).catch((err: unknown) => app.log.warn({ err }, 'could not remove this instance from the running list'));
  });

  app.get(
    API.adminSystem,
    {
      config: { access: 'super' },
      schema: {
        tags: ['admin system'],
        security: [{ session: [] }],
        summary: 'The health of every part: version, database, storage, ffmpeg, jobs, link checks and the instances running',
        response: { 200: systemStatusSchema, 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async function systemStatusHandler(_request, reply) {
      reply.header('cache-control', 'no-store');
      return systemStatus(ctx, me);
    },
  );
};
