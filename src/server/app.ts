import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { ERROR_CODES } from '../contract/errors';
import type { Config } from './config';
import type { App, AppContext, Module } from './context';
import type { Database } from './db/connection';
import { errorBody, handleClientError, handleFrameworkError, registerErrorHandling } from './errors';
import { HttpError } from './http-error';
import { demoJobsModule } from './demo/demo-previews';
import { JobKinds } from './jobs/kinds';
import { jobsModule } from './jobs/module';
import { AppMetrics } from './metrics';
import { modules } from './modules';
import { installPublicCache } from './public-cache';
import { installRequestTimeouts, JSON_BODY_LIMIT, serverTimeoutOptions } from './request-limits';
import { apiSecurityHeaders, staticSecurityHeaders } from './security-headers';
import { openFileStore } from './storage/open';

/** A request id a client may choose (a proxy's or a tracing header's id): at most 64 safe characters. */
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Builds a ready app on an open, migrated database. Does not listen. */
export async function buildApp(config: Config, database: Database): Promise<App> {
  // A hop count trusts that many proxies nearest the server (Fastify's types take it only as a function).
  const hops = config.trustProxy;
  const trustProxy: FastifyServerOptions['trustProxy'] = typeof hops === 'number' ? (_addr: string, i: number) => i < hops : hops;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.cookie', 'req.headers.authorization'],
      ...(config.logFormat === 'pretty' ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname', singleLine: true } } } : {}),
    },
    trustProxy,
    ...serverTimeoutOptions(config.timeouts),
    bodyLimit: JSON_BODY_LIMIT,
    // The client's id is kept only when it is short and safe to log and echo; otherwise ours.
    requestIdHeader: false,
    genReqId: (req) => {
      const sent = req.headers['x-request-id'];
      return typeof sent === 'string' && CLIENT_REQUEST_ID.test(sent) ? sent : crypto.randomUUID();
    },
    routerOptions: { maxParamLength: 200 },
    frameworkErrors: handleFrameworkError,
    clientErrorHandler: handleClientError,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app, database);
  installRequestTimeouts(app, config.timeouts);

  // External plugins.
  const securityHeaders = await staticSecurityHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:', 'http:'],
        mediaSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
  const apiHeaders = apiSecurityHeaders(securityHeaders);
  // One synchronous hook for what every request gets: security headers (the document set for pages,
  // assets and the API docs; a short set for JSON answers), the request id, and the origin check.
  app.addHook('onRequest', (request, reply, done) => {
    const api = request.url.startsWith('/api/') && !request.url.startsWith('/api/docs');
    reply.headers(api ? apiHeaders : securityHeaders);
    reply.header('x-request-id', request.id);
    // A mutating request from a page on another origin is refused (defence in depth beside SameSite=Strict).
    const origin = request.headers.origin;
    if (
      origin !== undefined &&
      request.method !== 'GET' &&
      request.method !== 'HEAD' &&
      request.method !== 'OPTIONS' &&
      origin !== `${request.protocol}://${request.host}` &&
      origin !== config.publicUrl
    ) {
      return done(new HttpError(403, ERROR_CODES.badOrigin, 'Cross-origin requests are not allowed'));
    }
    done();
  });
  await app.register(compress, { threshold: 1024, encodings: ['br', 'gzip'] });
  installPublicCache(app, database);
  await app.register(cookie);
  await app.register(swagger, {
    openapi: {
      info: { title: `${config.siteName} API`, version: '1.0.0' },
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'rv_session' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  app.get('/healthz', { schema: { hide: true } }, async function healthHandler() {
    return { ok: true };
  });
  app.get('/readyz', { schema: { hide: true } }, async function readinessHandler(request, reply) {
    let problem: string | undefined;
    try {
      await database.ping();
      problem = await database.writeProblem();
    } catch (err) {
      request.log.error({ err }, 'readiness check failed');
      problem = `the database is unreachable (${err instanceof Error ? err.message : String(err)})`;
    }
    if (!problem) return { ok: true };
    return reply.status(503).send(errorBody('NOT_READY', `The database cannot take writes: ${problem}`));
  });

  // Our modules, in order.
  const store = openFileStore(config);
  const files = store.files;
  app.addHook('onClose', (_app, done) => {
    store.close();
    done();
  });
  files.sweepPartial().catch((err: unknown) => app.log.warn({ err }, 'could not sweep partial files'));
  const metrics = new AppMetrics(database);
  app.addHook('onResponse', (request, reply, done) => {
    metrics.request(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  const ctx: AppContext = { config, database, files, jobs: new JobKinds(), metrics };
  // The demo registers its job kind like a feature; the job runner starts on ready, with every kind registered.
  for (const register of [...modules, demoJobsModule, jobsModule] as Module[]) await register(app, ctx);

  await app.ready();
  return app;
}
