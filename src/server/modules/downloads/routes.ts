import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API } from '../../../contract/api-paths';
import { idParamsSchema } from '../../../contract/common';
import { ERROR_CODES, errorBodySchema } from '../../../contract/errors';
import { downloadResponseSchema, type DownloadResponse } from '../../../contract/resources';
import type { Module } from '../../context';
import { notFound } from '../../errors';
import { HttpError } from '../../http-error';
import { dayOf } from '../../time';
import { SESSION_COOKIE } from '../auth/sessions';
import { hostedDownloadUrl } from '../files/hosted-download';
import { currentDownload, sweepPastDays } from './queries';
import { createDownloadRecorder } from './recorder';
import { createSalts, notCountedByRequest, rateLimitKey, visitorHash } from './visitor';

/** Past days' visitor sets and salts are swept this often (and at start), by every instance. */
export const DOWNLOAD_SWEEP_INTERVAL_MS = 5 * 60_000;

/** Clients POST without a body; `{}` is accepted too, anything else is a mistake worth reporting. */
const downloadBodySchema = z.strictObject({}, { error: 'This request takes no body' }).nullish();

const errors = { 400: errorBodySchema, 404: errorBodySchema, 429: errorBodySchema };

/**
 * Recording downloads (docs/decisions/260-what-counts-as-a-download.md): the JSON POST the site's
 * Download button sends, and a GET for links and download managers that redirects to the file.
 * Every request gets the link; whether it adds to the count is decided here.
 */
export const downloadsModule: Module = async (app, ctx) => {
  const { config, database } = ctx;
  const { db } = database;
  const { counting, rateLimit } = config.downloads;
  const saltOf = createSalts(db);
  const record = createDownloadRecorder(database, { rateLimit });

  let sweeping: Promise<void> = Promise.resolve();
  const sweep = () => {
    sweeping = sweepPastDays(db, dayOf()).catch((err) => app.log.warn({ err }, 'sweeping past download days failed'));
  };
  sweep();
  const sweeper = setInterval(sweep, DOWNLOAD_SWEEP_INTERVAL_MS).unref();
  app.addHook('onClose', async () => {
    clearInterval(sweeper);
    await sweeping;
  });

  /** A hosted file's download (its resource's download_url is ''): a link valid for a few minutes. */
  const withFileLink = async (request: FastifyRequest, id: number, answer: DownloadResponse): Promise<DownloadResponse> => {
    if (answer.download_url !== '') return answer;
    const url = await hostedDownloadUrl(ctx, request, id);
    if (!url) throw notFound('Resource not found');
    return { ...answer, download_url: url };
  };

  const download = async (request: FastifyRequest, reply: FastifyReply, id: number): Promise<DownloadResponse> => {
    reply.header('cache-control', 'no-store');
    // HEAD, prefetches, bots and signed-in admins get the link; nothing is recorded for them.
    const passive =
      notCountedByRequest(request) !== null || (request.cookies[SESSION_COOKIE] !== undefined && (await app.currentAdmin(request, reply)) !== null);
    if (passive) {
      ctx.metrics?.download('not_counted');
      const row = await currentDownload(db, id);
      if (!row) throw notFound('Resource not found');
      return withFileLink(request, id, { download_url: row.download_url, download_count: Number(row.download_count) });
    }
    const day = dayOf();
    const salt = counting === 'unique' || rateLimit > 0 ? await saltOf(day) : undefined;
    const outcome = await record({
      id,
      day,
      visitor: counting === 'unique' ? visitorHash(salt!, request.ip, request.headers['user-agent'] ?? '') : null,
      rateKey: rateLimit > 0 ? rateLimitKey(salt!, request.ip) : null,
    });
    ctx.metrics?.download(outcome.kind === 'recorded' ? (outcome.counted ? 'counted' : 'not_counted') : outcome.kind);
    if (outcome.kind === 'limited') throw tooManyDownloads(outcome.retryMs);
    if (outcome.kind === 'missing') throw notFound('Resource not found');
    return withFileLink(request, id, { download_url: outcome.url, download_count: outcome.count });
  };

  await app.register(async (scope: FastifyInstance) => {
    acceptEmptyJsonBody(scope);
    const routes = scope.withTypeProvider<ZodTypeProvider>();
    routes.post(
      API.download(':id'),
      {
        schema: {
          tags: ['resources'],
          summary: 'Record a download and get the download URL',
          params: idParamsSchema,
          body: downloadBodySchema,
          response: { 200: downloadResponseSchema, ...errors },
        },
      },
      function recordDownloadHandler(request, reply) {
        return download(request, reply, request.params.id);
      },
    );
    routes.get(
      API.download(':id'),
      {
        schema: {
          tags: ['resources'],
          summary: 'Record a download and redirect to the file (HEAD answers the same without recording)',
          params: idParamsSchema,
          response: { 302: z.null().describe('Location: the download URL'), ...errors },
        },
      },
      async function redirectToDownloadHandler(request, reply) {
        const { download_url } = await download(request, reply, request.params.id);
        return reply.redirect(download_url, 302);
      },
    );
  });
};

function tooManyDownloads(retryMs: number): HttpError {
  const seconds = Math.max(1, Math.ceil(retryMs / 1000));
  return new HttpError(
    429,
    ERROR_CODES.rateLimited,
    `Too many downloads. Try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`,
    undefined,
    { 'retry-after': String(seconds) },
  );
}

/**
 * Fastify refuses an empty body sent as application/json; browsers and fetch wrappers often
 * send exactly that for a bodiless POST. Only this scope reads it as "no body"; anything
 * else still goes through Fastify's own safe parser.
 */
function acceptEmptyJsonBody(scope: FastifyInstance) {
  const parseJson = scope.getDefaultJsonParser('error', 'error');
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    parseJson(request, body as string, done);
  });
}
