import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Database } from './db/connection';
import type { JobKinds } from './jobs/kinds';
import type { AppMetrics } from './metrics';
import type { FileStore } from './storage/file-store';

/** What every module gets: configuration, the database, the file store and the job kinds. No other shared state. */
export interface AppContext {
  config: Config;
  database: Database;
  /** Hosted files (uploads and what is made from them), by key: src/server/storage. */
  files: FileStore;
  /** Where a module registers the jobs it queues (src/server/jobs/kinds.ts). */
  jobs: JobKinds;
  /** What the app counts for /metrics (src/server/metrics.ts); absent in a context a test or script builds by hand. */
  metrics?: AppMetrics;
}

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** A module: registers its routes on the app. */
export type Module = (app: App, ctx: AppContext) => Promise<void> | void;
