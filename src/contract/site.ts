import { z } from 'zod';
import { categorySchema } from './resources';
import { communityIconSchema, siteMediaSchema } from './settings';

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
  icon: communityIconSchema,
});
export type CommunityLink = z.infer<typeof communityLinkSchema>;

/**
 * GET /api/site: what every public page needs of the owner's settings (contract/settings.ts holds
 * what an admin edits). `community` holds the visible cards in order; `stats` the four figures,
 * live ones computed from the database (cached for at most a minute).
 */
export const siteSettingsSchema = z.object({
  name: z.string(),
  description: z.string(),
  /** The public URL links are built on (PUBLIC_URL, else the owner's setting, else null: the request's origin). */
  public_url: z.string().nullable(),
  logo: siteMediaSchema.shape.logo,
  favicon: siteMediaSchema.shape.favicon,
  hero: z.object({ badge: z.string(), title: z.tuple([z.string(), z.string()]), text: z.string(), button: z.string() }),
  portfolio_url: z.string(),
  my_website: z.object({
    heading: z.string(),
    text: z.string(),
    tiles: z.array(z.object({ title: z.string(), text: z.string() })),
    /** The owner's promo video, or null for the built-in one. */
    video: siteMediaSchema.shape.promo_video,
  }),
  stats: z.array(statSchema),
  community: z.array(communityLinkSchema),
  footer: z.object({
    about: z.string(),
    quick_links: z.array(z.object({ label: z.string(), href: z.string() })),
    socials: z.array(z.object({ label: z.string(), icon: communityIconSchema, link: z.string() })),
    /** '' when the owner shows no source-code link. */
    source_code_url: z.string(),
    /** The copyright line's first year; the client shows "start–current" once the years differ. */
    copyright_start_year: z.number().int(),
    copyright_holder: z.string(),
  }),
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
