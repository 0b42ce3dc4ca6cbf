import { z } from 'zod';
import { categorySchema } from './resources';

export const statSchema = z.object({
  key: z.enum(['resources', 'downloads', 'members', 'growth']),
  label: z.string(),
  value: z.number(),
  /** Shown after the animated figure, e.g. '+' or '%'. */
  suffix: z.string(),
  daily: z.number(),
  weekly: z.number(),
  monthly: z.number(),
});
export type Stat = z.infer<typeof statSchema>;

export const communityLinkSchema = z.object({
  name: z.string(),
  link: z.string(),
  color: z.string(),
  description: z.string(),
});
export type CommunityLink = z.infer<typeof communityLinkSchema>;

export const siteSettingsSchema = z.object({
  name: z.string(),
  stats: z.array(statSchema),
  community: z.array(communityLinkSchema),
  portfolio_url: z.string(),
  source_code_url: z.string(),
  footer_year: z.number().int(),
});
export type SiteSettings = z.infer<typeof siteSettingsSchema>;

export const categorySummarySchema = z.object({
  value: categorySchema,
  slug: z.string(),
  title: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  count: z.number().int(),
});
export type CategorySummary = z.infer<typeof categorySummarySchema>;

export const categoryListSchema = z.object({ items: z.array(categorySummarySchema) });
export type CategoryList = z.infer<typeof categoryListSchema>;
