import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Database } from './db/connection';
import type { FileStore } from './storage/file-store';

/** What every module gets: configuration, the database and the file store. No other shared state. */
export interface AppContext {
  config: Config;
  database: Database;
  /** Hosted files (uploads and what is made from them), by key: src/server/storage. */
  files: FileStore;
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
