import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { API } from '../../../contract/api-paths';
import { type AuditFilter, auditFilterSchema, auditListQuerySchema, auditListSchema } from '../../../contract/audit';
import { ERROR_CODES, errorBodySchema } from '../../../contract/errors';
import type { Module } from '../../context';
import type { Database } from '../../db/connection';
import { badRequest } from '../../errors';
import { HttpError } from '../../http-error';
import { startPeriodic } from '../../jobs/periodic';
import { attachmentDisposition } from '../../storage/send';
import { signedInAdmin } from '../auth/guard';
import { csvRecord } from '../catalogue/csv';
import { type AuditCursor, deleteAuditBefore, eachAudit, listAudit } from './queries';

const docs = { tags: ['admin audit'], security: [{ session: [] }] };
const DAY_MS = 24 * 60 * 60 * 1000;

const CSV_COLUMNS = ['id', 'created_at', 'actor_id', 'actor_username', 'action', 'target_type', 'target_id', 'changes', 'ip', 'user_agent'] as const;

const cursorSchema = z.object({ createdAt: z.iso.datetime(), id: z.number().int().min(1).max(2_147_483_647) });
const invalidCursor = () => badRequest('Invalid cursor', { cursor: 'Invalid cursor' });

function decodeCursor(raw: string): AuditCursor {
  if (!/^[A-Za-z0-9_-]+$/.test(raw)) throw invalidCursor();
  try {
    const parsed = cursorSchema.safeParse(JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')));
    if (parsed.success) return parsed.data;
  } catch {
    // not JSON: refused below
  }
  throw invalidCursor();
}
const encodeCursor = (c: AuditCursor) => Buffer.from(JSON.stringify(c)).toString('base64url');

/**
 * Who sees what (decision 420): a super admin any entry; an admin their own only, so a filter on
 * another actor is refused rather than quietly answered with nothing.
 */
function scoped(request: FastifyRequest, filter: AuditFilter): AuditFilter {
  const me = signedInAdmin(request);
  if (me.is_super_user) return filter;
  if (filter.actor !== undefined && filter.actor !== me.id) {
    throw new HttpError(403, ERROR_CODES.forbidden, "Only super admins can see other admins' activity");
  }
  return { ...filter, actor: me.id };
}

function csvStream(database: Database, filter: AuditFilter): Readable {
  async function* chunks() {
    yield csvRecord(CSV_COLUMNS);
    let out = '';
    for await (const e of eachAudit(database.db, filter)) {
      out += csvRecord(CSV_COLUMNS.map((c) => (c === 'changes' ? (e.changes === null ? '' : JSON.stringify(e.changes)) : String(e[c] ?? ''))));
      if (out.length > 64 * 1024) {
        yield out;
        out = '';
      }
    }
    if (out) yield out;
  }
  return Readable.from(chunks(), { objectMode: false });
}

/**
 * The audit log's reads (docs/decisions/420-the-audit-log.md): a page at a time, newest first, and
 * the same filters as CSV. Append-only: no route edits or deletes an entry; the sweep removes those
 * older than AUDIT_DAYS on every instance (decision 422).
 */
export const auditModule: Module = (app, { database, config }) => {
  startPeriodic(app, {
    everyMs: config.auditSweepMs,
    run: async () => {
      const n = await sweepAuditLog(database, config.auditDays);
      return n > 0 ? [n] : [];
    },
    did: 'swept old audit log entries (count)',
    failed: 'could not sweep the audit log',
  });

  app.get(
    API.adminAudit,
    {
      config: { access: 'admin' },
      schema: {
        ...docs,
        summary: 'Audit log entries, newest first, filtered by actor, action, target and time (from inclusive, to exclusive); super admins see all, an admin their own; keyset-paginated',
        querystring: auditListQuerySchema,
        response: { 200: auditListSchema, 400: errorBodySchema, 403: errorBodySchema },
      },
    },
    async function listAuditHandler(request, reply) {
      const { limit, cursor, ...filter } = request.query;
      reply.header('cache-control', 'no-store');
      const { items, more } = await listAudit(database.db, scoped(request, filter), limit, cursor ? decodeCursor(cursor) : undefined);
      const last = items[items.length - 1];
      return { items, nextCursor: more && last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null };
    },
  );

  app.get(
    API.adminAuditCsv,
    {
      config: { access: 'admin' },
      schema: {
        ...docs,
        summary: 'The audit log entries the same filters match, as CSV (changes as JSON), streamed newest first',
        querystring: auditFilterSchema,
        produces: ['text/csv'],
        response: { 200: z.string().describe('The CSV (RFC 4180, CRLF)'), 400: errorBodySchema, 403: errorBodySchema },
      },
    },
    async function exportAuditHandler(request, reply) {
      const filter = scoped(request, request.query);
      reply
        .type('text/csv; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-disposition', attachmentDisposition(`activity-${new Date().toISOString().slice(0, 10)}.csv`));
      if (request.method === 'HEAD') return reply.send('');
      // A stream is sent as it is (never serialized): the 200 schema above documents what it carries.
      return reply.send(csvStream(database, filter) as unknown as string);
    },
  );
};

/** Removes the entries older than `auditDays` at `nowMs`; how many went. Safe on every instance at once. */
export function sweepAuditLog(database: Database, auditDays: number, nowMs = Date.now()): Promise<number> {
  return deleteAuditBefore(database.db, new Date(nowMs - auditDays * DAY_MS).toISOString());
}
