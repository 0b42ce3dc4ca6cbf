import type { z } from 'zod';
import type { CatalogueColumn, ImportReport, ImportRow } from '../../../contract/catalogue';
import { ID_MAX } from '../../../contract/common';
import { ERROR_CODES } from '../../../contract/errors';
import { licenceFromColumns, licenceToColumns } from '../../../contract/resource-page';
import { resourceInputSchema, resourcePatchSchema, type ResourcePatch } from '../../../contract/resources';
import type { Database } from '../../db/connection';
import { HttpError } from '../../http-error';
import { parseStoredImage, imageSrc } from '../files/stored';
import { setMediaOwners } from '../media/owners';
import { mediaKey } from '../../storage/keys';
import { insertResource, insertResources, type NewResource, updateResourceRow } from '../resources/admin-queries';
import { normalizeTags, parseTags } from '../resources/mappers';
import { type AuditActor, recordAudits } from '../audit/record';
import { resourceChangeEntry, resourcesAuditFields } from '../resources/audit-fields';
import { parseFileKey } from './file-keys';
import { type ImportLine, type ImportTable } from './import-table';
import { currentResources, type ExportRow, type NamedFile, namedFiles, reattachFile, savepoint } from './queries';
import { writeStaleFacets } from '../resources/search/facet-rows';

/**
 * The import (docs/decisions/406-import-rows-all-or-nothing.md): rows are taken a batch at a time;
 * each row is checked against the form's own schemas (contract/resources.ts) and compared with the
 * resource it names, then, unless a dry run, written in the batch's transaction inside a savepoint,
 * so a row is all or nothing and a failing row leaves the others of its batch.
 */

/** Rows read, checked and written together: one transaction each. */
const IMPORT_BATCH = 500;

type Slot = 'thumbnail' | 'download';
const SLOTS: readonly Slot[] = ['thumbnail', 'download'];
const SLOT_LABEL: Record<Slot, string> = { thumbnail: 'A thumbnail', download: 'A download' };

interface FileChoice {
  slot: Slot;
  file: NamedFile;
}

type Plan =
  | { action: 'skip'; id: number }
  | { action: 'create'; input: NewResource; files: FileChoice[] }
  | { action: 'update'; id: number; patch: ResourcePatch; files: FileChoice[]; thumbnailChanged: boolean };

type Errors = Record<string, string>;
/** Never a real link: stands for "a hosted file" while the form's schema checks a new resource. */
const FILE_STAND_IN = 'https://hosted-file.invalid/';
type Checked = { title: string; id: number | null } & ({ errors: Errors } | { plan: Plan });

/** Where a schema issue goes in the report: the CSV column it came from. */
function columnOf(path: readonly PropertyKey[]): string {
  const [head, next] = path.map(String);
  if (head === 'licence') return next === undefined || next === 'kind' ? 'licence_kind' : 'licence_text';
  if (head === 'thumbnail_upload_id') return 'thumbnail_file';
  if (head === 'download_upload_id') return 'download_file';
  return head ?? 'file';
}

function addIssues(errors: Errors, issues: readonly z.core.$ZodIssue[]) {
  for (const issue of issues) {
    const column = columnOf(issue.path);
    if (errors[column] === undefined) errors[column] = issue.message;
  }
}

/** The form's fields a row's cells give (absent: the column is not in the file, or the cell is empty where empty means "none"). */
function candidateOf(cells: ImportLine['cells'], errors: Errors): Record<string, unknown> {
  const c: Record<string, unknown> = {};
  const given = (col: CatalogueColumn) => cells[col] !== undefined && cells[col] !== '';
  for (const col of ['title', 'description', 'category'] as const) if (cells[col] !== undefined) c[col] = cells[col];
  for (const col of ['status', 'publish_at', 'thumbnail_choice', 'thumbnail_url', 'download_url'] as const) if (given(col)) c[col] = cells[col];
  if (given('is_premium')) {
    const v = cells.is_premium!.trim().toLowerCase();
    c.is_premium = v === 'true' ? true : v === 'false' ? false : cells.is_premium;
  }
  if (cells.tags !== undefined) c.tags = cells.tags.split(',').map((t) => t.trim()).filter((t) => t !== '');
  const kind = cells.licence_kind?.trim() ?? '';
  const licenceText = cells.licence_text ?? '';
  if (kind !== '') {
    if ((kind === 'free-commercial' || kind === 'personal') && licenceText.trim() !== '') errors.licence_text = `A ${kind} licence has no text: leave this empty`;
    c.licence = kind === 'attribution' ? { kind, credit: licenceText } : kind === 'custom' ? { kind, text: licenceText } : { kind };
  } else if (licenceText.trim() !== '') errors.licence_kind = 'Choose the licence kind this text goes with';
  return c;
}

const sameInstant = (a: string | undefined | null, b: string | undefined | null) => (a ?? null) === (b ?? null) || (a != null && b != null && Date.parse(a) === Date.parse(b));

interface BatchContext {
  table: ImportTable;
  current: Map<number, ExportRow>;
  files: Map<number, NamedFile>;
  /** Ids and file keys earlier rows of the whole import named: each may appear once. */
  seenIds: Map<number, number>;
  seenFiles: Map<number, number>;
}

/** The hosted file a row's key names for `slot`, or an error on its column. */
function chooseFile(b: BatchContext, line: ImportLine, slot: Slot, forId: number | null, errors: Errors): FileChoice | 'same' | undefined {
  const column = `${slot}_file` as const;
  const key = line.cells[column]?.trim() ?? '';
  if (key === '') return undefined;
  const parsed = parseFileKey(key);
  const file = parsed ? b.files.get(parsed.id) : undefined;
  if (!parsed || !file || !file.sha256.startsWith(parsed.sha) || file.kind !== slot) {
    errors[column] = `No hosted ${slot} file has this key`;
    return undefined;
  }
  const other = file.usedBy.find((r) => r !== forId);
  if (other !== undefined) {
    errors[column] = `This file is resource ${other}'s: a hosted file belongs to one resource`;
    return undefined;
  }
  const earlier = b.seenFiles.get(file.id);
  if (earlier !== undefined) {
    errors[column] = `Row ${earlier} names this file already`;
    return undefined;
  }
  return forId !== null && file.usedBy.includes(forId) ? 'same' : { slot, file };
}

/** A hosted file's columns on the resource row: its id, and for a thumbnail the picture's path. */
function hostedColumns(choices: readonly FileChoice[]) {
  const set: { download_file_id?: number; download_url?: string; thumbnail_file_id?: number; thumbnail_url?: string } = {};
  for (const { slot, file } of choices) {
    if (slot === 'download') Object.assign(set, { download_file_id: file.id, download_url: '' });
    else {
      const image = parseStoredImage(file.image);
      Object.assign(set, { thumbnail_file_id: file.id, thumbnail_url: image ? imageSrc(image) : '' });
    }
  }
  return set;
}

function checkCreate(b: BatchContext, line: ImportLine, errors: Errors): Plan | undefined {
  const candidate = candidateOf(line.cells, errors);
  const choices: FileChoice[] = [];
  const keyed = new Set<string>();
  for (const slot of SLOTS) {
    const choice = chooseFile(b, line, slot, null, errors);
    if (line.cells[`${slot}_file`]?.trim()) keyed.add(`${slot}_url`);
    if (choice && choice !== 'same') choices.push(choice);
    if (keyed.has(`${slot}_url`) && candidate[`${slot}_url`] !== undefined) errors[`${slot}_file`] ??= 'Give either a link or a file key, not both';
  }
  // A slot a file key names has no link; the schema, which wants one of a link or an upload, is
  // given a stand-in link there, dropped again after.
  const parsed = resourceInputSchema.safeParse({ ...candidate, ...Object.fromEntries([...keyed].filter((c) => candidate[c] === undefined).map((c) => [c, FILE_STAND_IN])) });
  if (!parsed.success) addIssues(errors, parsed.error.issues);
  if (Object.keys(errors).length > 0 || !parsed.success) return undefined;
  const { thumbnail_url, download_url, thumbnail_upload_id: _t, download_upload_id: _d, preview_source: _p, ...rest } = parsed.data;
  const link = (url: string | undefined) => (url === undefined || url === FILE_STAND_IN ? '' : url);
  return { action: 'create', input: { ...rest, thumbnail_url: link(thumbnail_url), download_url: link(download_url) }, files: choices };
}

function checkUpdate(b: BatchContext, line: ImportLine, id: number, cur: ExportRow, errors: Errors): Plan | undefined {
  const { columns, cells } = { columns: b.table.columns, cells: line.cells };
  const candidate = candidateOf(cells, errors);
  const shape = resourcePatchSchema.shape;
  // Each given field as the form's schema reads it (trimmed, normalised), or its error.
  const value: Record<string, unknown> = {};
  for (const [field, v] of Object.entries(candidate)) {
    const r = shape[field as keyof typeof shape].safeParse(v);
    if (r.success) value[field] = r.data;
    else addIssues(errors, r.error.issues.map((i) => ({ ...i, path: [field, ...i.path] })));
  }
  const diff: Record<string, unknown> = {};
  const changed = (field: string, now: unknown) => {
    if (field in value && JSON.stringify(value[field]) !== JSON.stringify(now)) diff[field] = value[field];
  };
  changed('title', cur.title);
  changed('description', cur.description);
  changed('category', cur.category);
  changed('thumbnail_choice', cur.thumbnail_choice);
  changed('is_premium', Boolean(Number(cur.is_premium)));
  if ('tags' in value) {
    if (JSON.stringify(normalizeTags(value.tags as string[])) !== JSON.stringify(parseTags(cur.tags))) diff.tags = value.tags;
  }
  if ('licence' in value) {
    const now = licenceToColumns(licenceFromColumns(cur.licence_kind, cur.licence_text));
    if (JSON.stringify(licenceToColumns(value.licence as never)) !== JSON.stringify(now)) diff.licence = value.licence;
  }
  // Status and publish time go together (the form's rule): both are sent when either changes.
  const status = (value.status as string | undefined) ?? cur.status;
  let publishAt = columns.has('publish_at') ? (value.publish_at as string | undefined) : status === cur.status ? (cur.publish_at ?? undefined) : undefined;
  // Publishing or drafting a scheduled resource from an export: the time it printed goes with the old status.
  if (status !== 'scheduled' && sameInstant(publishAt, cur.publish_at)) publishAt = undefined;
  if (status !== cur.status || !sameInstant(publishAt, cur.publish_at)) {
    diff.status = status;
    if (publishAt !== undefined) diff.publish_at = publishAt;
  }
  // The download and the thumbnail: a link, or a hosted file by its key.
  const choices: FileChoice[] = [];
  for (const slot of SLOTS) {
    const urlColumn = `${slot}_url` as const;
    if (!columns.has(urlColumn) && !columns.has(`${slot}_file`)) continue;
    const choice = chooseFile(b, line, slot, id, errors);
    const link = value[urlColumn] as string | undefined;
    const keyGiven = (cells[`${slot}_file`]?.trim() ?? '') !== '';
    if (keyGiven && candidate[urlColumn] !== undefined) errors[`${slot}_file`] ??= 'Give either a link or a file key, not both';
    else if (!keyGiven && candidate[urlColumn] === undefined) errors[urlColumn] ??= `${SLOT_LABEL[slot]} is required: a link or a file key`;
    else if (choice && choice !== 'same') choices.push(choice);
    else if (link !== undefined) {
      const currentFile = slot === 'download' ? cur.download_file_id : cur.thumbnail_file_id;
      const currentLink = slot === 'download' ? cur.download_url : cur.thumbnail_url;
      if (currentFile !== null || currentLink !== link) diff[urlColumn] = link;
    }
  }
  if (Object.keys(errors).length > 0) return undefined;
  if (Object.keys(diff).length === 0 && choices.length === 0) return { action: 'skip', id };
  if (Object.keys(diff).length > 0) {
    // The form's own rules across fields (a link or an upload; status and publish time).
    const parsed = resourcePatchSchema.safeParse(diff);
    if (!parsed.success) {
      addIssues(errors, parsed.error.issues);
      return undefined;
    }
  }
  const patch = diff as ResourcePatch;
  // A hosted file replaces what the slot had: the row's link columns are written with it.
  const hosted = hostedColumns(choices);
  if (hosted.download_url !== undefined) patch.download_url = hosted.download_url;
  if (hosted.thumbnail_url !== undefined) patch.thumbnail_url = hosted.thumbnail_url;
  return { action: 'update', id, patch, files: choices, thumbnailChanged: patch.thumbnail_url !== undefined };
}

function checkLine(b: BatchContext, line: ImportLine): Checked {
  const checked = checkFields(b, line);
  // A file a good row takes is taken: a later row naming it is refused.
  if ('plan' in checked && checked.plan.action !== 'skip') for (const f of checked.plan.files) b.seenFiles.set(f.file.id, line.row);
  return checked;
}

function checkFields(b: BatchContext, line: ImportLine): Checked {
  const errors: Errors = {};
  const rawId = line.cells.id?.trim() ?? '';
  const cur = rawId === '' ? undefined : b.current.get(Number(rawId));
  const title = (line.cells.title ?? cur?.title ?? '').trim().slice(0, 200);
  if (rawId === '') {
    const plan = checkCreate(b, line, errors);
    return plan ? { title, id: null, plan } : { title, id: null, errors };
  }
  const id = /^[0-9]{1,10}$/.test(rawId) && Number(rawId) >= 1 && Number(rawId) <= ID_MAX ? Number(rawId) : null;
  if (id === null) return { title, id: null, errors: { id: 'id must be a resource id in digits (empty for a new resource)' } };
  const earlier = b.seenIds.get(id);
  if (earlier !== undefined) return { title, id, errors: { id: `Row ${earlier} names this resource already` } };
  b.seenIds.set(id, line.row);
  if (!cur) return { title, id, errors: { id: 'No resource has this id' } };
  const plan = checkUpdate(b, line, id, cur, errors);
  return plan ? { title, id, plan } : { title, id, errors };
}

/** What the row's write needs of its hosted files, in its savepoint; a file taken meanwhile fails the row. */
async function takeFiles(trx: Parameters<typeof reattachFile>[0], choices: readonly FileChoice[]) {
  for (const { slot, file } of choices) {
    if (file.detached && !(await reattachFile(trx, file.id))) {
      throw new HttpError(409, ERROR_CODES.conflict, 'The file was taken or removed meanwhile', { [`${slot}_file`]: 'The file was taken or removed meanwhile' });
    }
  }
}

const thumbnailKeys = (choices: readonly FileChoice[]) => {
  const image = parseStoredImage(choices.find((c) => c.slot === 'thumbnail')?.file.image ?? null);
  return image ? image.variants.map((v) => mediaKey(v.fileName)) : [];
};

/** Writes one checked row (a row naming hosted files inside its savepoint); the id written. Its audit entry is the batch's to write. */
async function writePlan(
  trx: Parameters<typeof reattachFile>[0],
  database: Database,
  plan: Exclude<Plan, { action: 'skip' }>,
  adminId: number,
  /** An update's resource as read (and locked) at the start of the batch. */
  current: Record<string, unknown> | undefined,
): Promise<number> {
  await takeFiles(trx, plan.files);
  if (plan.action === 'create') {
    const created = await insertResource(trx, database, plan.input, adminId, hostedColumns(plan.files));
    const id = Number(created.id);
    if (plan.files.some((f) => f.slot === 'thumbnail')) await setMediaOwners(trx, [id], 'thumbnail', thumbnailKeys(plan.files));
    return id;
  }
  const hosted = hostedColumns(plan.files);
  const known = current && { title: String(current.title), description: String(current.description), tags: current.tags as string[] };
  const updated = await updateResourceRow(trx, database, plan.id, plan.patch, plan.files.length > 0 ? async () => hosted : undefined, known);
  if (!updated) throw new HttpError(404, ERROR_CODES.notFound, 'Resource not found', { id: 'The resource was deleted meanwhile' });
  if (plan.thumbnailChanged) await setMediaOwners(trx, [plan.id], 'thumbnail', thumbnailKeys(plan.files));
  return plan.id;
}

/**
 * The batch's new resources that name no hosted file, written by one statement (a row at a time
 * costs a round trip per statement: 10,000 rows took 11 s on PostgreSQL): each row's id. Such a
 * row was checked whole and can fail only as the database fails, which fails its batch either way.
 */
async function createTogether<C extends Checked>(trx: Parameters<typeof reattachFile>[0], database: Database, checked: readonly C[], adminId: number): Promise<Map<C, number>> {
  const creates = checked.flatMap((c) => ('plan' in c && c.plan.action === 'create' && c.plan.files.length === 0 ? [{ c, input: c.plan.input }] : []));
  const rows = await insertResources(trx, database, creates.map(({ input }) => ({ input, hosted: {} })), adminId);
  return new Map(creates.map(({ c }, i) => [c, Number(rows[i]!.id)]));
}

export interface ImportOptions {
  dryRun: boolean;
  /** Who imports: resources created are theirs. */
  adminId: number;
  /** Who imports, for the audit log. */
  actor: AuditActor;
}

/**
 * Checks every row of `table` and, unless a dry run, applies the good ones a batch at a time.
 * The report has a line per row, in the file's order.
 */
export async function importCatalogue(database: Database, table: ImportTable, o: ImportOptions): Promise<ImportReport> {
  const rows: ImportRow[] = [];
  const seenIds = new Map<number, number>();
  const seenFiles = new Map<number, number>();
  for (let start = 0; start < table.lines.length; start += IMPORT_BATCH) {
    const lines = table.lines.slice(start, start + IMPORT_BATCH);
    const ids = lines.flatMap((l) => (/^[0-9]{1,10}$/.test(l.cells.id?.trim() ?? '') && Number(l.cells.id) <= ID_MAX ? [Number(l.cells.id)] : []));
    const fileIds = lines.flatMap((l) => SLOTS.flatMap((s) => parseFileKey(l.cells[`${s}_file`]?.trim() ?? '')?.id ?? []));
    const [current, files] = await Promise.all([currentResources(database, ids), namedFiles(database, fileIds)]);
    const b: BatchContext = { table, current, files, seenIds, seenFiles };
    const checked = lines.map((line) => ({ line, ...checkLine(b, line) }));
    const report = (c: (typeof checked)[number], action: ImportRow['action'], id: number | null, errors?: Errors): ImportRow =>
      errors ? { row: c.line.row, action, id, title: c.title, errors } : { row: c.line.row, action, id, title: c.title };

    if (o.dryRun) {
      for (const c of checked) rows.push('errors' in c ? report(c, 'error', c.id, c.errors) : report(c, c.plan.action, c.id));
      continue;
    }
    const batch: ImportRow[] = [];
    await database.db.transaction().execute(async (trx) => {
      batch.length = 0;
      // The updated resources as they are, read once for the batch: for each update's search text, and
      // for the audit log's one entry per row written (decision 424), with every written one's fields
      // after, read at the end, in this transaction.
      const before = await resourcesAuditFields(
        trx,
        checked.flatMap((c) => ('plan' in c && c.plan.action === 'update' ? [c.plan.id] : [])),
        // Their text is what each update's search text builds on: nobody changes it meanwhile.
        { lock: database.dialect === 'postgres' },
      );
      const written: { row: number; action: 'create' | 'update'; id: number }[] = [];
      const created = await createTogether(trx, database, checked, o.adminId);
      for (const c of checked) {
        if ('errors' in c) batch.push(report(c, 'error', c.id, c.errors));
        else if (c.plan.action === 'skip') batch.push(report(c, 'skip', c.id));
        else if (created.has(c)) {
          written.push({ row: c.line.row, action: 'create', id: created.get(c)! });
          batch.push(report(c, 'create', created.get(c)!));
        } else {
          // A row naming hosted files can fail after it wrote (a file taken meanwhile): its savepoint
          // undoes that. Any other row fails, if at all (deleted meanwhile), before it writes a thing.
          const guarded = c.plan.files.length > 0;
          if (guarded) await savepoint.begin(trx);
          try {
            const id = await writePlan(trx, database, c.plan, o.adminId, c.plan.action === 'update' ? before.get(c.plan.id) : undefined);
            if (guarded) await savepoint.release(trx);
            written.push({ row: c.line.row, action: c.plan.action, id });
            batch.push(report(c, c.plan.action, id));
          } catch (err) {
            if (!(err instanceof HttpError)) throw err;
            if (guarded) {
              await savepoint.rollback(trx);
              await savepoint.release(trx);
            }
            batch.push(report(c, 'error', c.id, err.fields ?? { file: err.message }));
          }
        }
      }
      await writeStaleFacets(trx);
      const after = await resourcesAuditFields(
        trx,
        written.map((w) => w.id),
      );
      await recordAudits(
        trx,
        o.actor,
        written.map((w) => resourceChangeEntry('catalogue.import', w.id, w.action === 'update' ? before.get(w.id) : undefined, after.get(w.id) ?? {}, { import_row: w.row, import_action: w.action })),
      );
    });
    rows.push(...batch);
  }
  const counts = { create: 0, update: 0, skip: 0, error: 0 };
  for (const r of rows) counts[r.action]++;
  return { dry_run: o.dryRun, rows, counts };
}
