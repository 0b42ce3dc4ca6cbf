import { createHash, timingSafeEqual } from 'node:crypto';
import type { Module } from '../../context';
import { HttpError } from '../../http-error';
import { ERROR_CODES } from '../../../contract/errors';

/** The path a Prometheus server scrapes (docs/operations.md). */
export const METRICS_PATH = '/metrics';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * GET /metrics in Prometheus's text format (src/server/metrics.ts holds what is counted): only when
 * METRICS_TOKEN is set (otherwise there is no such route: 404 like any unknown path), and only to
 * `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise), compared in constant time. Never cached.
 */
export const metricsModule: Module = (app, { config, metrics }) => {
  const token = config.metricsToken;
  if (!token || !metrics) return;
  const expected = digest(`Bearer ${token}`);
  app.get(METRICS_PATH, { schema: { hide: true } }, async function metricsHandler(request, reply) {
    const given = request.headers.authorization;
    if (typeof given !== 'string' || !timingSafeEqual(digest(given), expected)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw new HttpError(401, ERROR_CODES.unauthorized, 'Metrics need the bearer token set in METRICS_TOKEN');
    }
    reply.header('cache-control', 'no-store').type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });
};
