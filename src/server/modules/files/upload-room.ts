import { ERROR_CODES } from '../../../contract/errors';
import type { AppContext } from '../../context';
import { HttpError } from '../../http-error';
import { StorageFullError } from '../../storage/file-store';
import { uploadKey } from '../../storage/keys';

/** Kept free on the local disk beyond what uploads may still write: the database and logs need room too. */
export const DISK_RESERVE_BYTES = 64 * 1024 * 1024;
/**
 * What one admin's uploads not yet attached may add up to, in UPLOAD_MAX_BYTES: a largest download
 * and a largest preview video at once (docs/decisions/320-pending-uploads-reserve-room.md).
 */
export const PENDING_UPLOADS_PER_ADMIN = 2;

/**
 * Checks that upload `id` (its row just written) fits, counting every pending upload, and throws
 * otherwise (the caller removes the row). Run after the row is written, so two creations at once
 * each see the other: at worst both are refused, never both accepted past the room there is.
 * - One admin's uploads not yet attached (finished or not) hold at most
 *   PENDING_UPLOADS_PER_ADMIN × UPLOAD_MAX_BYTES: 413.
 * - Where the store has a fill level (the local disk), the free space must hold what every
 *   unfinished upload may still write (its length less the bytes it has) and the reserve: 507.
 */
export async function checkUploadRoom(ctx: AppContext, id: string, adminId: number): Promise<void> {
  const { db } = ctx.database;
  const limit = PENDING_UPLOADS_PER_ADMIN * ctx.config.uploadMaxBytes;
  const held = await db.selectFrom('uploads').select((eb) => eb.fn.sum<number | string | null>('size').as('bytes')).where('admin_id', '=', adminId).executeTakeFirst();
  const heldBytes = Number(held?.bytes ?? 0);
  if (heldBytes > limit) {
    throw new HttpError(
      413,
      ERROR_CODES.payloadTooLarge,
      `Your uploads not yet saved would hold ${heldBytes} bytes, more than the ${limit} one admin may hold: save or cancel one first`,
    );
  }
  const free = await ctx.files.freeBytes();
  if (free === undefined) return;
  const pending = await db.selectFrom('uploads').select(['id', 'size']).where('finished_at', 'is', null).execute();
  let toCome = 0;
  for (const row of pending) {
    const written = row.id === id ? 0 : ((await ctx.files.stat(uploadKey(row.id)).catch(() => null))?.size ?? 0);
    toCome += Math.max(0, Number(row.size) - written);
  }
  if (free < toCome + DISK_RESERVE_BYTES) throw new StorageFullError();
}
