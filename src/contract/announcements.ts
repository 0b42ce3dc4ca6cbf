import { z } from 'zod';
import { ANNOUNCEMENT_MAX } from './constants';
import { text, timestamp } from './common';

export const announcementSchema = z.object({
  id: z.number().int(),
  message: z.string(),
  is_active: z.boolean(),
  admin_id: z.number().int().nullable(),
  created_at: timestamp,
});
export type Announcement = z.infer<typeof announcementSchema>;

export const announcementListSchema = z.object({ items: z.array(announcementSchema) });
export type AnnouncementList = z.infer<typeof announcementListSchema>;

export const announcementCreateSchema = z.strictObject({
  message: text(ANNOUNCEMENT_MAX, { label: 'Message', multiline: true }),
});
export type AnnouncementCreate = z.infer<typeof announcementCreateSchema>;

export const announcementPatchSchema = z
  .strictObject({
    message: text(ANNOUNCEMENT_MAX, { label: 'Message', multiline: true }),
    is_active: z.boolean({ error: 'is_active must be true or false' }),
  })
  .partial()
  .refine((v) => Object.keys(v).length > 0, { error: 'Nothing to update' });
export type AnnouncementPatch = z.infer<typeof announcementPatchSchema>;
