import { createHash } from 'node:crypto';
import { type CategoryValue, categoryToSlug, getCategory } from '../../../contract/categories';
import { describeLicence } from '../../../contract/resource-page';
import { isoDuration, type ResourceFacts } from '../../../contract/facts';
import type { ReadyPreview } from '../../../contract/previews';
import type { PublicResource } from '../../../contract/resources';
import { prefersPoster } from '../../../contract/thumbnail-choice';
import { escapeHtml, scriptJson } from './html';

/** The social card's size (Open Graph's recommended 1.91:1). */
export const OG_IMAGE_WIDTH = 1200;
export const OG_IMAGE_HEIGHT = 630;
/** Search engines show about this much of a description. */
const DESCRIPTION_MAX = 160;

type CardResource = Pick<PublicResource, 'id' | 'thumbnail_url' | 'thumbnail' | 'thumbnail_choice' | 'preview'>;

/**
 * The image a resource's social card is made from: the poster of its ready video preview (its
 * widest WebP) when it shows the poster (prefersPoster), else its thumbnail.
 */
export function cardSource(resource: CardResource): string {
  const p = resource.preview;
  if (p?.kind === 'video' && prefersPoster(resource)) {
    const widest = p.poster.variants.filter((v) => v.format === 'webp').sort((a, b) => b.width - a.width)[0];
    if (widest) return widest.url;
  }
  return resource.thumbnail_url;
}

/** The social card of a resource; `v` changes with the image it is made from, so social caches refetch it. */
export function ogImagePath(resource: CardResource): string {
  const v = createHash('sha256').update(cardSource(resource)).digest('hex').slice(0, 12);
  return `/og/resources/${resource.id}.jpg?v=${v}`;
}

/** The schema.org type that fits what a preview shows (a LUT's preview is graded photos; schema.org has no font type). */
const PREVIEW_SCHEMA_TYPES: Record<ReadyPreview['kind'], string> = {
  video: 'VideoObject',
  audio: 'AudioObject',
  'image-pair': 'ImageObject',
  lut: 'ImageObject',
  font: 'CreativeWork',
};

/** Without a ready preview: the schema.org type that fits what a category's resources are. */
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

/** The schema.org type of a resource: by its ready preview's kind, else by its category. */
export function schemaType(resource: Pick<PublicResource, 'category' | 'preview'>): string {
  return resource.preview ? PREVIEW_SCHEMA_TYPES[resource.preview.kind] : SCHEMA_TYPES[resource.category];
}

/** Pixels as schema.org's width and height want them (a QuantitativeValue in UN/CEFACT's pixel unit, E37). */
const pixels = (n: number) => ({ '@type': 'QuantitativeValue', value: n, unitCode: 'E37' });

/**
 * What the preview adds to the JSON-LD: the playable file (contentUrl, in its encodingFormat) and
 * the source's length (ISO 8601); a video its source's width and height (contract/facts.ts).
 */
function previewJsonLd(preview: ReadyPreview | null, facts: ResourceFacts | null, base: string): object {
  if (preview?.kind === 'video') {
    const size = facts?.kind === 'video' ? facts : preview;
    return { contentUrl: `${base}${preview.video.url}`, encodingFormat: 'video/mp4', duration: isoDuration(preview.duration), width: pixels(size.width), height: pixels(size.height) };
  }
  if (preview?.kind === 'audio') return { contentUrl: `${base}${preview.audio.url}`, encodingFormat: 'audio/mp4', duration: isoDuration(preview.duration) };
  return {};
}

/** `og:video` / `og:audio` of a ready video or audio preview (absolute URLs). */
function previewMeta(preview: ReadyPreview | null, base: string): [key: string, content: string][] {
  if (preview?.kind === 'video') {
    return [
      ['og:video', `${base}${preview.video.url}`],
      ['og:video:type', 'video/mp4'],
      ['og:video:width', String(preview.video.width)],
      ['og:video:height', String(preview.video.height)],
    ];
  }
  if (preview?.kind === 'audio') {
    return [
      ['og:audio', `${base}${preview.audio.url}`],
      ['og:audio:type', 'audio/mp4'],
    ];
  }
  return [];
}

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
      '@type': schemaType(resource),
      '@id': `${page}#resource`,
      name: resource.title,
      description: resource.description,
      url: page,
      thumbnailUrl: `${base}${ogImagePath(resource)}`,
      image: `${base}${ogImagePath(resource)}`,
      uploadDate: resource.created_at,
      dateModified: resource.updated_at,
      ...previewJsonLd(resource.preview, resource.facts, base),
      keywords: resource.tags.join(', ') || undefined,
      license: `${page}#licence`,
      acquireLicensePage: `${page}#licence`,
      usageInfo: licence.label,
      // The credit line an attribution licence asks users to give (schema.org's name for it).
      creditText: resource.licence.kind === 'attribution' ? resource.licence.credit : undefined,
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
    ...previewMeta(resource.preview, base).map(([key, content]) => meta('property', key, content)),
    meta('name', 'twitter:card', 'summary_large_image'),
    meta('name', 'twitter:title', resource.title),
    meta('name', 'twitter:description', description),
    meta('name', 'twitter:image', image),
    meta('name', 'twitter:image:alt', resource.title),
    ...resourceJsonLd(resource, base, siteName).map((ld) => `<script type="application/ld+json">${scriptJson(ld)}</script>`),
  ].join('\n    ');
}
