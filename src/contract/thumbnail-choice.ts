/**
 * Which picture stands for a resource where its video preview has a poster (card, dialog, page,
 * social card): its own thumbnail or the poster. One rule for server and client
 * (docs/decisions/362-the-admin-chooses-the-thumbnail.md).
 */
// No zod here: the public pages import this module (contract/resources.ts holds the field's schema).

/** `image`: the resource's own thumbnail (uploaded or linked); `poster`: its video preview's poster. */
export const THUMBNAIL_CHOICES = ['image', 'poster'] as const;
export type ThumbnailChoice = (typeof THUMBNAIL_CHOICES)[number];
/** What a resource gets until an admin chooses: its own thumbnail, which the admin set to be seen. */
export const DEFAULT_THUMBNAIL_CHOICE: ThumbnailChoice = 'image';

/** The address of the thumbnail the site draws for a resource without one of its own. */
export const generatedThumbnailPath = (id: number) => `/thumbnails/${id}.svg`;

interface Shown {
  id: number;
  thumbnail_url: string;
  thumbnail?: unknown;
  thumbnail_choice: ThumbnailChoice;
}

/**
 * Whether a resource with a poster shows it instead of its thumbnail: when the admin chose the
 * poster, or when the resource has no thumbnail of its own (only the generated one).
 */
export function prefersPoster(resource: Shown): boolean {
  if (resource.thumbnail_choice === 'poster') return true;
  return !resource.thumbnail && resource.thumbnail_url === generatedThumbnailPath(resource.id);
}
