import { z } from 'zod';
import { ANNOUNCEMENT_MAX } from './constants';
import { instant, text, timestamp } from './common';

export const announcementSchema = z.object({
  id: z.number().int(),
  message: z.string(),
  is_active: z.boolean(),
  admin_id: z.number().int().nullable(),
  created_at: timestamp,
  /** Shown in the bell from then on (UTC); null: from the start. */
  starts_at: timestamp.nullable(),
  /** Shown until then (UTC); null: until switched off. */
  ends_at: timestamp.nullable(),
});
export type Announcement = z.infer<typeof announcementSchema>;

export const announcementListSchema = z.object({ items: z.array(announcementSchema) });
export type AnnouncementList = z.infer<typeof announcementListSchema>;

/** An announcement's window: each side optional (null clears it on an edit); the end after the start. */
const windowFields = {
  starts_at: instant('Start').nullable(),
  ends_at: instant('End').nullable(),
};

/** The end must come after the start (an edit giving one side is checked against the stored other on the server). */
export const WINDOW_ORDER_MESSAGE = 'The end must be after the start';
function checkWindow(v: { starts_at?: string | null; ends_at?: string | null }, ctx: z.RefinementCtx) {
  if (v.starts_at && v.ends_at && v.ends_at <= v.starts_at) ctx.addIssue({ code: 'custom', path: ['ends_at'], message: WINDOW_ORDER_MESSAGE });
}

export const announcementCreateSchema = z
  .strictObject({
    message: text(ANNOUNCEMENT_MAX, { label: 'Message', multiline: true }),
    starts_at: windowFields.starts_at.optional(),
    ends_at: windowFields.ends_at.optional(),
  })
  .superRefine(checkWindow);
export type AnnouncementCreate = z.infer<typeof announcementCreateSchema>;

export const announcementPatchSchema = z
  .strictObject({
    message: text(ANNOUNCEMENT_MAX, { label: 'Message', multiline: true }),
    is_active: z.boolean({ error: 'is_active must be true or false' }),
    ...windowFields,
  })
  .partial()
  .refine((v) => Object.keys(v).length > 0, { error: 'Nothing to update' })
  .superRefine(checkWindow);
export type AnnouncementPatch = z.infer<typeof announcementPatchSchema>;
