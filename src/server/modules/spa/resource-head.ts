import { createHash } from 'node:crypto';
import { type CategoryValue, categoryToSlug, getCategory } from '../../../contract/categories';
import { describeLicence } from '../../../contract/resource-page';
import type { PublicResource } from '../../../contract/resources';
import { escapeHtml, scriptJson } from './html';

/** The social card's size (Open Graph's recommended 1.91:1). */
export const OG_IMAGE_WIDTH = 1200;
export const OG_IMAGE_HEIGHT = 630;
/** Search engines show about this much of a description. */
const DESCRIPTION_MAX = 160;

/** The social card of a resource; `v` changes with the thumbnail, so social caches refetch it. */
export function ogImagePath(resource: Pick<PublicResource, 'id' | 'thumbnail_url'>): string {
  const v = createHash('sha256').update(resource.thumbnail_url).digest('hex').slice(0, 12);
  return `/og/resources/${resource.id}.jpg?v=${v}`;
}

/** The schema.org type that fits what a category's resources are. */
const SCHEMA_TYPES: Record<CategoryValue, string> = {
  video_editing: 'VideoObject',
  motion_graphics: 'VideoObject',
  anime_edits: 'VideoObject',
  sound_effects: 'AudioObject',
  photo_editing: 'ImageObject',
  color_grading: 'ImageObject',
  typography: 'CreativeWork',
  premium_resources: 'CreativeWork',
};

/** The description as one line, cut at a word near DESCRIPTION_MAX. */
export function metaDescription(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= DESCRIPTION_MAX) return flat;
  const cut = flat.slice(0, DESCRIPTION_MAX - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > DESCRIPTION_MAX / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, '')}…`;
}

/** The resource as schema.org JSON-LD: the resource and the breadcrumb trail to it. */
export function resourceJsonLd(resource: PublicResource, base: string, siteName: string): object[] {
  const page = `${base}${resource.url}`;
  const category = getCategory(resource.category);
  const licence = describeLicence(resource.licence);
  return [
    {
      '@context': 'https://schema.org',
      '@type': SCHEMA_TYPES[resource.category],
      '@id': `${page}#resource`,
      name: resource.title,
      description: resource.description,
      url: page,
      thumbnailUrl: `${base}${ogImagePath(resource)}`,
      image: `${base}${ogImagePath(resource)}`,
      uploadDate: resource.created_at,
      dateModified: resource.updated_at,
      keywords: resource.tags.join(', ') || undefined,
      license: `${page}#licence`,
      acquireLicensePage: `${page}#licence`,
      usageInfo: licence.label,
      publisher: { '@type': 'Organization', name: siteName, url: `${base}/` },
      interactionStatistic: {
        '@type': 'InteractionCounter',
        interactionType: { '@type': 'DownloadAction' },
        userInteractionCount: resource.download_count,
      },
    },
    {
      '@context': 'https://schema.org',
      '@type': 'BreadcrumbList',
      itemListElement: [
        { '@type': 'ListItem', position: 1, name: 'Home', item: `${base}/` },
        { '@type': 'ListItem', position: 2, name: category?.title ?? resource.category, item: `${base}/categories/${categoryToSlug(resource.category)}` },
        { '@type': 'ListItem', position: 3, name: resource.title, item: page },
      ],
    },
  ];
}

/** Everything a resource page's `<head>` says of it: title, description, canonical, social cards, JSON-LD. */
export function resourceHead(resource: PublicResource, base: string, siteName: string): string {
  const page = `${base}${resource.url}`;
  const title = `${resource.title} - ${siteName}`;
  const description = metaDescription(resource.description) || title;
  const image = `${base}${ogImagePath(resource)}`;
  const meta = (attr: 'name' | 'property', key: string, content: string) => `<meta ${attr}="${key}" content="${escapeHtml(content)}" />`;
  return [
    `<title>${escapeHtml(title)}</title>`,
    meta('name', 'description', description),
    `<link rel="canonical" href="${escapeHtml(page)}" />`,
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', siteName),
    meta('property', 'og:title', resource.title),
    meta('property', 'og:description', description),
    meta('property', 'og:url', page),
    meta('property', 'og:image', image),
    meta('property', 'og:image:type', 'image/jpeg'),
    meta('property', 'og:image:width', String(OG_IMAGE_WIDTH)),
    meta('property', 'og:image:height', String(OG_IMAGE_HEIGHT)),
    meta('property', 'og:image:alt', resource.title),
    meta('name', 'twitter:card', 'summary_large_image'),
    meta('name', 'twitter:title', resource.title),
    meta('name', 'twitter:description', description),
    meta('name', 'twitter:image', image),
    meta('name', 'twitter:image:alt', resource.title),
    ...resourceJsonLd(resource, base, siteName).map((ld) => `<script type="application/ld+json">${scriptJson(ld)}</script>`),
  ].join('\n    ');
}
