import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { ERROR_CODES, type ErrorBody, type ErrorCode } from '../contract/errors';
import type { Database } from './db/connection';
import { unavailableReason } from './db/unavailable';
import { HttpError } from './http-error';
import {
  FileNotFoundError,
  FileTooLargeError,
  InvalidKeyError,
  RangeNotSatisfiableError,
  StorageError,
  StorageFullError,
  StorageReadOnlyError,
} from './storage/file-store';

export const notFound = (message: string) => new HttpError(404, ERROR_CODES.notFound, message);
/** 400 in the error shape; `fields` names the request fields at fault. */
export const badRequest = (message: string, fields?: Record<string, string>) => new HttpError(400, ERROR_CODES.validation, message, fields);

export function errorBody(code: string, message: string, fields?: Record<string, string>): ErrorBody {
  return { error: fields ? { code, message, fields } : { code, message } };
}

/** A store's error as the answer a client gets. */
export function httpErrorOfStorage(err: StorageError): HttpError {
  if (err instanceof FileNotFoundError) return new HttpError(404, ERROR_CODES.notFound, err.message);
  if (err instanceof InvalidKeyError) return new HttpError(400, ERROR_CODES.validation, err.message);
  if (err instanceof FileTooLargeError) return new HttpError(413, ERROR_CODES.payloadTooLarge, err.message);
  if (err instanceof RangeNotSatisfiableError)
    return new HttpError(416, ERROR_CODES.validation, err.message, undefined, err.size === undefined ? undefined : { 'content-range': `bytes */${err.size}` });
  if (err instanceof StorageFullError) return new HttpError(507, ERROR_CODES.storageFull, err.message);
  if (err instanceof StorageReadOnlyError) return new HttpError(503, ERROR_CODES.unavailable, err.message);
  return new HttpError(500, ERROR_CODES.internal, err.message);
}

const VALIDATION_SOURCES: Record<string, string> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'headers',
};

/** How long a client is asked to wait before trying again when the database cannot take a request. */
const RETRY_AFTER_SECONDS = '30';

export function registerErrorHandling(app: FastifyInstance, database: Database) {
  app.setErrorHandler((error: FastifyError | HttpError | StorageError, request: FastifyRequest, reply: FastifyReply) => {
    const err = error instanceof StorageError ? httpErrorOfStorage(error) : error;
    const unavailable = unavailableReason(err);
    if (unavailable) {
      // The database's own error, whole: the one thing an operator needs to see.
      request.log.error({ err }, 'the database cannot take this request');
      database.noteUnavailable(unavailable);
      return reply
        .status(503)
        .header('retry-after', RETRY_AFTER_SECONDS)
        .send(errorBody(ERROR_CODES.unavailable, 'The service is temporarily unavailable. Please try again later.'));
    }
    if (err instanceof HttpError) {
      if (err.headers) reply.headers(err.headers);
      return reply.status(err.statusCode).send(errorBody(err.code, err.message, err.fields));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields: Record<string, string> = {};
      for (const v of err.validation) {
        const key = v.instancePath.replace(/^\//, '').replace(/\//g, '.') || '_';
        if (!(key in fields)) fields[key] = v.message ?? 'Invalid value';
      }
      const first = Object.entries(fields)[0];
      const where = VALIDATION_SOURCES[err.validationContext ?? 'body'] ?? 'request';
      const message = first ? first[1] : `Invalid ${where}`;
      return reply.status(400).send(errorBody(ERROR_CODES.validation, message, fields));
    }
    const status = err.statusCode ?? 500;
    if (status >= 500 || isResponseSerializationError(err)) {
      request.log.error({ err }, 'request failed');
      return reply.status(500).send(errorBody(ERROR_CODES.internal, 'Something went wrong on our side. Please try again.'));
    }
    const known = KNOWN_FASTIFY_ERRORS[err.code];
    if (known) return reply.status(known.status).send(errorBody(known.code, known.message));
    if (status === 429) return reply.status(429).send(errorBody(ERROR_CODES.rateLimited, 'Too many requests. Please try again later.'));
    if (status === 404) return reply.status(404).send(errorBody(ERROR_CODES.notFound, 'Not found'));
    return reply.status(status).send(errorBody(ERROR_CODES.validation, 'The request could not be processed'));
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send(errorBody(ERROR_CODES.notFound, `No route for ${request.method} ${request.url.split('?')[0].slice(0, 200)}`));
  });
}

/**
 * Fastify answers a malformed URL (bad percent-encoding) or an over-long path parameter before
 * routing, without the error handler; app.ts passes this as `frameworkErrors` to keep the error shape.
 */
export function handleFrameworkError(err: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const known = KNOWN_FASTIFY_ERRORS[err.code] ?? { status: 400, code: ERROR_CODES.validation, message: 'The request could not be processed' };
  return reply.status(known.status).send(errorBody(known.code, known.message));
}

/**
 * Node's HTTP parser refuses some requests before Fastify sees them (headers or URL over 16 KiB,
 * bytes that are not HTTP); Fastify's default answer has its own JSON shape. app.ts passes this as
 * `clientErrorHandler` so those answers carry the error shape too.
 */
export function handleClientError(err: NodeJS.ErrnoException, socket: Duplex) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, ERROR_CODES.payloadTooLarge, 'The request headers or URL are too large']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, ERROR_CODES.requestTimeout, 'The request took too long to arrive']
        : [400, ERROR_CODES.validation, 'The request is malformed'];
  const body = JSON.stringify(errorBody(code, message));
  if (!socket.writable) return void socket.destroy();
  // The refused request has no parsed method; the bytes that failed start with it. A HEAD answer
  // carries no body (its Content-Length still says what a GET would get).
  const raw = (err as { rawPacket?: Buffer }).rawPacket;
  const head = raw !== undefined && raw.subarray(0, 5).toString('latin1') === 'HEAD ';
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${head ? '' : body}`,
  );
}

const KNOWN_FASTIFY_ERRORS: Record<string, { status: number; code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: ERROR_CODES.badJson, message: 'The request body is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: ERROR_CODES.badJson, message: 'The request body is empty' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: ERROR_CODES.payloadTooLarge, message: 'The request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: ERROR_CODES.unsupportedMediaType,
    message: 'Send the request body as application/json',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: ERROR_CODES.badJson, message: 'Invalid Content-Length' },
  FST_ERR_BAD_URL: { status: 400, code: ERROR_CODES.validation, message: 'The URL is malformed' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, code: ERROR_CODES.validation, message: 'The URL is too long' },
  FST_ERR_ASYNC_CONSTRAINT: { status: 400, code: ERROR_CODES.validation, message: 'The request could not be processed' },
};
