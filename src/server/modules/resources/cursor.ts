import { z } from 'zod';
import type { Sort } from '../../../contract/resources';
import { ERROR_CODES } from '../../../contract/errors';
import { HttpError } from '../../errors';

/**
 * Keyset cursors: the last row's sort key values plus its id, as base64url JSON. Opaque to
 * clients; validated on the way back in because anyone can forge one.
 */
const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const id = z.number().int().min(1).max(2_147_483_647);

const cursorSchema = z.discriminatedUnion('s', [
  z.strictObject({ s: z.literal('popular'), k: z.tuple([count, count]), id }),
  z.strictObject({ s: z.literal('newest'), k: z.tuple([z.iso.datetime()]), id }),
  z.strictObject({ s: z.literal('downloads'), k: z.tuple([count]), id }),
]);

export type Cursor = z.infer<typeof cursorSchema>;

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

export function encodeCursor(sort: Sort, row: SortKeyRow): string {
  const k = SORT_COLUMNS[sort].map((column) => row[column]);
  return Buffer.from(JSON.stringify({ s: sort, k, id: row.id })).toString('base64url');
}

const invalid = (why: string) =>
  new HttpError(400, ERROR_CODES.validation, `Invalid cursor: ${why}. Start again without a cursor.`, {
    cursor: `Invalid cursor: ${why}`,
  });

/** The sort key values and id to continue after; a 400 for anything not made by encodeCursor for this sort. */
export function decodeCursor(sort: Sort, raw: string): { keys: (string | number)[]; id: number } {
  if (!/^[A-Za-z0-9_-]+$/.test(raw)) throw invalid('not base64url');
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw invalid('not readable');
  }
  const parsed = cursorSchema.safeParse(value);
  if (!parsed.success) throw invalid('unexpected content');
  if (parsed.data.s !== sort) throw invalid(`it belongs to sort=${parsed.data.s}`);
  return { keys: [...parsed.data.k], id: parsed.data.id };
}
