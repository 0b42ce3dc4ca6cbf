import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { purgeExpiredTrash } from './trash';

/**
 * The trash's purge (docs/decisions/399-purging-the-trash.md): every instance purges what has been
 * in the trash for TRASH_DAYS (config.trashDays) every config.trashPurgeMs, as the publisher
 * publishes (publisher.ts). Each resource goes in a transaction that first finds it still in the
 * trash, so instances purging at once remove each once.
 */
export function startTrashPurger(app: FastifyInstance, { config, database }: AppContext): void {
  let running: Promise<void> = Promise.resolve();
  let busy = false;
  const tick = () => {
    if (busy) return;
    busy = true;
    running = purgeExpiredTrash(database, config.trashDays)
      .then((ids) => {
        if (ids.length > 0) app.log.info({ ids }, 'purged resources from the trash');
      })
      .catch((err: unknown) => app.log.warn({ err }, 'could not purge the trash'))
      .finally(() => (busy = false));
  };
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    tick();
    timer = setInterval(tick, config.trashPurgeMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
