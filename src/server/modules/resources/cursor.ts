import { z } from 'zod';
import type { Sort } from '../../../contract/resources';
import { ERROR_CODES } from '../../../contract/errors';
import { HttpError } from '../../http-error';

/**
 * Keyset cursors, as base64url JSON: opaque to clients, validated on the way back in because
 * anyone can forge one. Every number in a cursor is checked against the range of the column it is
 * compared with: the `integer` columns are 32-bit on PostgreSQL, which refuses a larger value in a
 * comparison with an error (a 500), not a false.
 */
const INTEGER_COLUMN_MAX = 2_147_483_647;
const count = z.number().int().min(0).max(INTEGER_COLUMN_MAX);
const id = z.number().int().min(1).max(INTEGER_COLUMN_MAX);
/** created_at as we write it (ISO-8601 UTC); no control character reaches the database. */
const createdAt = z.iso.datetime();

/** The one answer to any cursor we did not make (or one made for another list or sort). */
export function invalidCursor(): HttpError {
  return new HttpError(400, ERROR_CODES.validation, 'Invalid cursor', { cursor: 'Invalid cursor' });
}

function decode<T>(raw: string, schema: z.ZodType<T>): T {
  if (!/^[A-Za-z0-9_-]+$/.test(raw)) throw invalidCursor();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalidCursor();
  return parsed.data;
}

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

// The public list: the last row's sort key values plus its id.

const listCursorSchema = z.discriminatedUnion('sort', [
  z.strictObject({ sort: z.literal('popular'), keys: z.tuple([count, count]), id }),
  z.strictObject({ sort: z.literal('newest'), keys: z.tuple([createdAt]), id }),
  z.strictObject({ sort: z.literal('downloads'), keys: z.tuple([count]), id }),
]);

/** The columns each sort orders by (all descending), before the id tie-breaker. */
export const SORT_COLUMNS = {
  popular: ['popularity', 'download_count'],
  newest: ['created_at'],
  downloads: ['download_count'],
} as const satisfies Record<Sort, readonly string[]>;

export interface SortKeyRow {
  id: number;
  popularity: number;
  download_count: number;
  created_at: string;
}

/** A position in a sorted list: strictly after the row with these sort key values and id. */
export interface ListPosition {
  keys: (string | number)[];
  id: number;
}

export function encodeCursor(sort: Sort, row: SortKeyRow): string {
  return encode({ sort, keys: SORT_COLUMNS[sort].map((column) => row[column]), id: row.id });
}

/** The sort key values and id to continue after; a 400 for anything not made by encodeCursor for this sort. */
export function decodeCursor(sort: Sort, raw: string): ListPosition {
  const cursor = decode(raw, listCursorSchema);
  if (cursor.sort !== sort) throw invalidCursor();
  return { keys: [...cursor.keys], id: cursor.id };
}

// The admin list (newest first, pages both ways).

const adminCursorSchema = z.strictObject({
  direction: z.enum(['older', 'newer']),
  createdAt,
  id,
  /** Rows before the page this cursor opens (for "Showing 26–50"); never sent to the database. */
  offset: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
});

/** The rows older (next page) or newer (previous page) than the row (created_at, id); `offset`: rows before the page it opens. */
export type AdminCursor = z.infer<typeof adminCursorSchema>;

export function encodeAdminCursor(cursor: AdminCursor): string {
  return encode(cursor);
}

/** The cursor, or a 400 for anything encodeAdminCursor did not make. */
export function decodeAdminCursor(raw: string): AdminCursor {
  return decode(raw, adminCursorSchema);
}

// The Trash page: the last row's trashed_at and id (most recently deleted first).

const trashCursorSchema = z.strictObject({ trashedAt: createdAt, id });
export type TrashCursor = z.infer<typeof trashCursorSchema>;

export function encodeTrashCursor(cursor: TrashCursor): string {
  return encode(cursor);
}

export function decodeTrashCursor(raw: string): TrashCursor {
  return decode(raw, trashCursorSchema);
}
