import type { IncomingMessage, ServerOptions } from 'node:http';
import { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CODES } from '../contract/errors';
import type { Timeouts } from './config';
import type { App } from './context';
import { errorBody } from './errors';
import { HttpError } from './http-error';

/**
 * Body limit of a route that declares none (Fastify's `bodyLimit`): JSON forms, far above the
 * largest valid one (a resource with a 5,000-character description). A route that takes more
 * says so with its own `bodyLimit`; an upload streams its body instead (`streamBodies`).
 */
export const JSON_BODY_LIMIT = 64 * 1024;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The time this route's request may take to arrive (headers to its last body byte), in ms.
     * Default: `timeouts.requestMs`. An upload route sets `timeouts.uploadRequestMs`: the bound is
     * per request (one chunk), never per upload. Whatever it says, a request that sends no byte
     * for `timeouts.requestMs` is cut.
     */
    requestTimeoutMs?: number;
  }
}

/** How often stalled requests are looked for: a fraction of the shortest limit, at most a second. */
const checkEvery = (t: Timeouts) => Math.max(25, Math.min(1_000, Math.floor(Math.min(t.headersMs, t.requestMs) / 4)));

/**
 * Node's own bounds, as Fastify options: headers (answered 408 by errors.ts's clientErrorHandler)
 * and idle keep-alive; and, as a backstop, a socket with no activity at all for twice `requestMs`
 * is destroyed (a client that stops reading its answer), later than a stalled body's 408. Node's
 * whole-request timeout is one number for every route, so the body is bounded by
 * `installRequestTimeouts` instead.
 */
export function serverTimeoutOptions(t: Timeouts): { keepAliveTimeout: number; connectionTimeout: number; requestTimeout: number; http: ServerOptions } {
  return {
    keepAliveTimeout: t.keepAliveMs,
    connectionTimeout: 2 * t.requestMs,
    requestTimeout: 0,
    http: { headersTimeout: t.headersMs, connectionsCheckingInterval: checkEvery(t) },
  };
}

interface Arriving {
  reply: FastifyReply;
  startedAt: number;
  limitMs: number;
  bytesRead: number;
  progressAt: number;
}

/**
 * Bounds the time a request body takes to arrive, per route: every request still arriving is
 * looked at a few times per limit (one timer for all, nothing per request, the body stream left
 * alone). One past its route's limit, or without a byte for `requestMs`, is answered 408 in the
 * error shape and its connection closed.
 */
export function installRequestTimeouts(app: App, t: Timeouts) {
  const arriving = new Map<FastifyRequest, Arriving>();

  const expire = (request: FastifyRequest, socket: Socket, { reply, limitMs }: Arriving) => {
    arriving.delete(request);
    request.log.info({ limitMs }, 'request did not arrive in time: 408');
    if (reply.sent || reply.raw.headersSent) return void socket.destroy();
    reply.raw.once('finish', () => socket.destroy());
    void reply
      .code(408)
      .header('connection', 'close')
      .send(errorBody(ERROR_CODES.requestTimeout, 'The request took too long to arrive'));
  };

  const timer = setInterval(() => {
    const now = Date.now();
    for (const [request, entry] of arriving) {
      // A request whose connection is gone no longer has a socket at all.
      const socket = request.raw.socket as Socket | null;
      if (request.raw.complete || !socket || socket.destroyed) {
        arriving.delete(request);
        continue;
      }
      if (socket.bytesRead !== entry.bytesRead) {
        entry.bytesRead = socket.bytesRead;
        entry.progressAt = now;
      }
      if (now - entry.startedAt <= entry.limitMs && now - entry.progressAt <= t.requestMs) continue;
      // A throw here would be in a timer, ending the process: one request's failure stays its own.
      try {
        expire(request, socket, entry);
      } catch (err) {
        arriving.delete(request);
        request.log.error({ err }, 'could not answer a request that did not arrive in time');
        socket.destroy();
      }
    }
  }, checkEvery(t));
  timer.unref();

  app.addHook('onRequest', (request, reply, done) => {
    // Only what arrives over the network is timed: a request the server makes to itself
    // (app.inject, server rendering) has no socket, only a stand-in without one's methods.
    const socket: unknown = request.raw.socket;
    if (socket instanceof Socket && !request.raw.complete) {
      const now = Date.now();
      const limitMs = request.routeOptions.config.requestTimeoutMs ?? t.requestMs;
      arriving.set(request, { reply, startedAt: now, limitMs, bytesRead: socket.bytesRead, progressAt: now });
    }
    done();
  });
  app.addHook('onResponse', (request, _reply, done) => {
    if (request.raw.complete) arriving.delete(request);
    done();
  });
  app.addHook('onClose', (_app, done) => {
    clearInterval(timer);
    arriving.clear();
    done();
  });
}

/**
 * Lets the routes of one plugin read bodies of these content types as a stream (an upload)
 * instead of Fastify reading and buffering them: call it inside the plugin that registers those
 * routes (Fastify scopes content-type parsers to a plugin). Such a route reads its body with
 * `receiveBody`, and sets `config.requestTimeoutMs` to `timeouts.uploadRequestMs` when a body
 * may take minutes to arrive.
 */
export function streamBodies(app: App, contentTypes: string[]) {
  app.addContentTypeParser(contentTypes, (_request, _payload, done) => done(null));
}

/**
 * Hands the body of a `streamBodies` route to `consume` (e.g. `files.put(key, body, { maxBytes })`)
 * after refusing a declared Content-Length over `maxBytes` (413, before a byte is read). Returns
 * undefined when the request was answered 408 meanwhile (its body stopped arriving: the consumer
 * failed because the connection was closed), so the handler simply returns.
 */
export async function receiveBody<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  maxBytes: number,
  consume: (body: IncomingMessage) => Promise<T>,
): Promise<T | undefined> {
  const declared = Number(request.headers['content-length']);
  if (declared > maxBytes) throw new HttpError(413, ERROR_CODES.payloadTooLarge, 'The request body is too large');
  try {
    return await consume(request.raw);
  } catch (err) {
    if (reply.sent) return undefined;
    throw err;
  }
}
