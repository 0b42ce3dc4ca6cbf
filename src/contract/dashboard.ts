import { z } from 'zod';
import { categorySchema } from './resources';

export const dashboardSchema = z.object({
  total_resources: z.number().int(),
  active_announcements: z.number().int(),
  total_downloads: z.number().int(),
  /** Null for admins who are not super users. */
  total_admins: z.number().int().nullable(),
  categories: z.array(z.object({ category: categorySchema, count: z.number().int() })),
  top_resources: z.array(
    z.object({ id: z.number().int(), title: z.string(), category: categorySchema, download_count: z.number().int() }),
  ),
});
export type Dashboard = z.infer<typeof dashboardSchema>;
