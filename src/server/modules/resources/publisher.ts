import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { nowIso } from '../../time';
import { publishDueResources } from './admin-queries';

/**
 * Scheduled publishing (docs/decisions/393-scheduled-publishing.md): every instance publishes the
 * resources that are due every PUBLISH_CHECK_INTERVAL (config.publishCheckMs), with no visitor
 * needed. One conditional UPDATE does it (publishDueResources), so instances running it at once
 * publish each resource once; the UPDATE bumps the data version (migration 027), so response
 * caches, rendered pages and the sitemap of every instance follow.
 */
export function startPublisher(app: FastifyInstance, { config, database }: AppContext): void {
  let running: Promise<void> = Promise.resolve();
  let busy = false;
  const tick = () => {
    if (busy) return;
    busy = true;
    running = publishDueResources(database.db, nowIso())
      .then((ids) => {
        if (ids.length > 0) app.log.info({ ids }, 'published scheduled resources');
      })
      .catch((err: unknown) => app.log.warn({ err }, 'could not publish scheduled resources'))
      .finally(() => (busy = false));
  };
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    tick();
    timer = setInterval(tick, config.publishCheckMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
