import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { startPeriodic } from '../../jobs/periodic';
import { purgeExpiredTrash } from './trash';

/**
 * The trash's purge (docs/decisions/399-purging-the-trash.md): every instance purges what has been
 * in the trash for TRASH_DAYS (config.trashDays) every config.trashPurgeMs, as the publisher
 * publishes (publisher.ts). Each resource goes in a transaction that first finds it still in the
 * trash, so instances purging at once remove each once.
 */
export function startTrashPurger(app: FastifyInstance, { config, database }: AppContext): void {
  startPeriodic(app, {
    everyMs: config.trashPurgeMs,
    run: () => purgeExpiredTrash(database, config.trashDays),
    did: 'purged resources from the trash',
    failed: 'could not purge the trash',
  });
}
