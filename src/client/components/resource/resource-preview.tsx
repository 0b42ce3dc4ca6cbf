import type { PublicResource } from '@contract/resources';
import { ResourceThumbnail, type ThumbnailSource } from './thumbnail';

/**
 * The media of a resource's preview (spec: Preview opens the thumbnail in a dialog). Every place
 * that previews a resource shows it through here, so a preview of the resource's own kind
 * replaces the thumbnail in one place.
 */
export function ResourcePreview({ resource }: { resource: Pick<PublicResource, 'title'> & ThumbnailSource }) {
  return <ResourceThumbnail resource={resource} alt={resource.title} eager sizes="(min-width: 48rem) 48rem, 100vw" className="size-full object-contain" />;
}
