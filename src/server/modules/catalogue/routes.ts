import { z } from 'zod';
import { API } from '../../../contract/api-paths';
import { exportQuerySchema, IMPORT_BODY_MAX_BYTES, importQuerySchema, importReportSchema } from '../../../contract/catalogue';
import { errorBodySchema } from '../../../contract/errors';
import type { App, Module } from '../../context';
import { badRequest } from '../../errors';
import { attachmentDisposition } from '../../storage/send';
import { signedInAdmin } from '../auth/guard';
import { auditActor } from '../audit/record';
import { exportStream } from './export';
import { importCatalogue } from './import';
import { readImportTable } from './import-table';

const docs = { tags: ['admin resources'], security: [{ session: [] }] };
/** What an import's body may be sent as: a spreadsheet's CSV (some systems name it so). */
const CSV_TYPES = ['text/csv', 'application/vnd.ms-excel'];

/**
 * The catalogue's export and import (issue #30, docs/decisions/405-catalogue-export-and-import.md):
 * GET streams every resource as CSV or JSON; POST takes a CSV in the export's columns.
 */
export const catalogueModule: Module = async (app, ctx) => {
  const { database } = ctx;

  app.get(
    API.adminResourcesExport,
    {
      config: { access: 'admin' },
      schema: {
        ...docs,
        summary: 'Every resource (any status) as a CSV file or a JSON array, streamed: fields, tags, licence, counts, hosted file keys and names',
        querystring: exportQuerySchema,
        produces: ['text/csv', 'application/json'],
        response: { 200: z.string().describe('The CSV (RFC 4180, CRLF) or the JSON array'), 400: errorBodySchema },
      },
    },
    async function exportResourcesHandler(request, reply) {
      const { format } = request.query;
      const day = new Date().toISOString().slice(0, 10);
      reply
        .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-disposition', attachmentDisposition(`resources-${day}.${format}`));
      if (request.method === 'HEAD') return reply.send('');
      // A stream is sent as it is (never serialized): the 200 schema above documents what it carries.
      return reply.send(exportStream(database, format) as unknown as string);
    },
  );

  // The CSV body is read as text in this plugin only, up to its own limit.
  await app.register(async (plugin) => {
    const scope = plugin as App;
    scope.addContentTypeParser(CSV_TYPES, { parseAs: 'string', bodyLimit: IMPORT_BODY_MAX_BYTES }, (_request, body, done) => done(null, body));
    scope.post(
      API.adminResourcesImport,
      {
        config: { access: 'admin' },
        bodyLimit: IMPORT_BODY_MAX_BYTES,
        schema: {
          ...docs,
          summary: 'Create and update resources from a CSV in the export\'s columns (text/csv body): dry_run=true reports per row and changes nothing; otherwise rows are applied, each all or nothing',
          querystring: importQuerySchema,
          response: { 200: importReportSchema, 400: errorBodySchema, 413: errorBodySchema, 415: errorBodySchema },
        },
      },
      async function importResourcesHandler(request) {
        if (typeof request.body !== 'string') throw badRequest('Send the CSV file as the body (Content-Type: text/csv)', { file: 'Choose a CSV file' });
        const table = readImportTable(request.body);
        return importCatalogue(database, table, { dryRun: request.query.dry_run, adminId: signedInAdmin(request).id, actor: auditActor(request) });
      },
    );
  });
};

