import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from './db/connection';

/**
 * What the app counts for a monitoring system (issue 32), in one registry per app: served at
 * `/metrics` in Prometheus's format when METRICS_TOKEN is set (modules/metrics). Features count
 * through these few methods; names follow Prometheus's conventions (`_total`, `_seconds`, `_bytes`).
 * Labels are bounded: a route is its pattern (or "unmatched"), never a raw URL.
 */
export class AppMetrics {
  readonly registry = new Registry();
  private readonly http = new Histogram({
    name: 'rv_http_request_duration_seconds',
    help: 'Time to answer a request, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [this.registry],
  });
  private readonly jobs = new Histogram({
    name: 'rv_job_duration_seconds',
    help: 'Time a job ran on this instance, by kind and outcome (ready, retry, failed, aborted)',
    labelNames: ['kind', 'outcome'] as const,
    buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900],
    registers: [this.registry],
  });
  private readonly downloads = new Counter({
    name: 'rv_downloads_total',
    help: 'Download requests by outcome: counted, not_counted (a repeat or a bot), limited (rate limit), missing',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly uploaded = new Counter({
    name: 'rv_upload_bytes_total',
    help: 'Bytes of uploads completed',
    registers: [this.registry],
  });

  constructor(database: Database) {
    collectDefaultMetrics({ register: this.registry, prefix: 'rv_' });
    const pool = database.poolStats;
    if (pool) {
      new Gauge({
        name: 'rv_db_pool_connections',
        help: 'PostgreSQL pool connections by state (total, idle, waiting requests)',
        labelNames: ['state'] as const,
        registers: [this.registry],
        collect() {
          const s = pool();
          this.set({ state: 'total' }, s.total);
          this.set({ state: 'idle' }, s.idle);
          this.set({ state: 'waiting' }, s.waiting);
        },
      });
    }
    new Gauge({
      name: 'rv_jobs',
      help: 'Jobs in the queue by kind and state (all instances)',
      labelNames: ['kind', 'state'] as const,
      registers: [this.registry],
      async collect() {
        const rows = await database.db
          .selectFrom('media_jobs')
          .select(['kind', 'state', (eb) => eb.fn.countAll<number>().as('n')])
          .groupBy(['kind', 'state'])
          .execute();
        this.reset();
        for (const r of rows) this.set({ kind: r.kind, state: r.state }, Number(r.n));
      },
    });
  }

  request(method: string, route: string | undefined, statusCode: number, seconds: number): void {
    this.http.observe({ method, route: route ?? 'unmatched', status_code: String(statusCode) }, seconds);
  }

  job(kind: string, outcome: 'ready' | 'retry' | 'failed' | 'aborted', seconds: number): void {
    this.jobs.observe({ kind, outcome }, seconds);
  }

  download(outcome: 'counted' | 'not_counted' | 'limited' | 'missing'): void {
    this.downloads.inc({ outcome });
  }

  uploadCompleted(bytes: number): void {
    this.uploaded.inc(bytes);
  }
}
