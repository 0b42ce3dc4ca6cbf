import { z } from 'zod';
import { idSchema, instant, str, timestamp } from './common';
import { PAGE_SIZE_MAX } from './constants';

/**
 * The audit log (docs/decisions/420-the-audit-log.md): every admin write and sign-in, who did it
 * (null: a failed sign-in or the system's own work), what, on which target, the changed fields
 * before and after (never a secret), from where. Append-only; kept AUDIT_DAYS.
 */

/** Days an entry is kept before the sweep removes it (the server's AUDIT_DAYS setting defaults to it). */
export const DEFAULT_AUDIT_DAYS = 365;

/** Entries per page of the Activity page. */
export const AUDIT_PAGE_SIZE = 50;

/** The actions recorded, as the Activity page offers them (a new write path adds its own here). */
export const AUDIT_ACTIONS = [
  'resource.create',
  'resource.update',
  'resource.trash',
  'resource.restore',
  'resource.purge',
  'resource.bulk',
  'resource.publish',
  'resource.preview_retry',
  'catalogue.import',
  'announcement.create',
  'announcement.update',
  'announcement.delete',
  'admin.create',
  'admin.delete',
  'settings.save',
  'settings.restore',
  'upload.create',
  'upload.cancel',
  'auth.login',
  'auth.login_failed',
  'auth.logout',
  'auth.password_change',
  'admin.sessions_end',
  'admin.password_reset',
  'session.end',
  'session.end_others',
  'totp.enable',
  'totp.disable',
  'totp.recovery_codes',
  'totp.reset',
  'two_factor.policy',
  'passkey.add',
  'passkey.rename',
  'passkey.remove',
] as const;

/** What an entry is about. */
export const AUDIT_TARGET_TYPES = ['resource', 'announcement', 'admin', 'settings', 'upload', 'session', 'passkey', 'policy'] as const;

const NAME = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/;
const name = (label: string) => str(label).max(64, { error: `${label} is too long` }).regex(NAME, { error: `${label} must be a name such as resource.update` });

export const auditEntrySchema = z.object({
  id: z.number().int(),
  created_at: timestamp,
  /** Null: nobody signed in (a failed sign-in) or the system (scheduled publishing, the trash's purge). */
  actor_id: z.number().int().nullable(),
  /** The actor's username when the entry was written. */
  actor_username: z.string().nullable(),
  action: z.string(),
  target_type: z.string().nullable(),
  target_id: z.string().nullable(),
  /** `{ before, after }` of the changed fields, or what else describes the action; bounded in size. */
  changes: z.unknown().nullable(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** The filters of GET /api/admin/audit and its CSV: `from` inclusive, `to` exclusive. */
export const auditFilterSchema = z.object({
  actor: idSchema('actor').optional(),
  action: name('action').optional(),
  target_type: name('target_type').optional(),
  /** A resource's or admin's id, an upload's: letters, digits, - and _ (not trimmed: what is sent is what is matched). */
  target_id: z
    .string({ error: 'target_id must be text' })
    .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'target_id must be an id: up to 64 letters, digits, - or _' })
    .optional(),
  from: instant('from').optional(),
  to: instant('to').optional(),
});
export type AuditFilter = z.output<typeof auditFilterSchema>;

export const auditListQuerySchema = auditFilterSchema.extend({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int({ error: 'limit must be a whole number' })
    .min(1, { error: 'limit must be at least 1' })
    .max(PAGE_SIZE_MAX, { error: `limit must be at most ${PAGE_SIZE_MAX}` })
    .default(AUDIT_PAGE_SIZE),
  cursor: str('cursor').max(512, { error: 'Invalid cursor' }).optional(),
});
export type AuditListQuery = z.input<typeof auditListQuerySchema>;

export const auditListSchema = z.object({
  items: z.array(auditEntrySchema),
  nextCursor: z.string().nullable(),
});
export type AuditList = z.infer<typeof auditListSchema>;
