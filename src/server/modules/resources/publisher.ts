import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { startPeriodic } from '../../jobs/periodic';
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
  startPeriodic(app, {
    everyMs: config.publishCheckMs,
    run: () => publishDueResources(database.db, nowIso()),
    did: 'published scheduled resources',
    failed: 'could not publish scheduled resources',
  });
}
