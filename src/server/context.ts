import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Db } from './db/connection';

/** What every module gets: configuration and the database. No other shared state. */
export interface AppContext {
  config: Config;
  database: Db;
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
