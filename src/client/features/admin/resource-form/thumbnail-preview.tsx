import type { Resource } from '@contract/resources';
import * as React from 'react';
import { ResourceThumbnail, type ThumbnailSource } from '@/components/resource/thumbnail';
import { Card } from '@/components/ui/primitives';
import type { ResourceFormControls } from './use-resource-form';

/** The thumbnail as visitors will see it: the link, the chosen image, or what is hosted now. */
export function ThumbnailPreviewCard({ controls: { sources, uploads, hosted, thumbnailLink }, resource }: { controls: ResourceFormControls; resource?: Resource }) {
  const localThumbnail = useObjectUrl(uploads.thumbnail.state.status === 'idle' ? null : uploads.thumbnail.file);
  return (
    <Card className="grid gap-3 p-6">
      <p className="text-sm font-medium">Thumbnail preview</p>
      {sources.thumbnail === 'link' ? (
        <ThumbnailPreview resource={{ thumbnail_url: thumbnailLink }} caption="Enter a thumbnail URL to see it here" />
      ) : localThumbnail ? (
        <img src={localThumbnail} alt="Thumbnail preview" className="aspect-video w-full rounded-lg border object-cover" />
      ) : (
        <ThumbnailPreview resource={hosted.thumbnail && resource?.thumbnail ? resource : { thumbnail_url: '' }} caption="Choose an image to see it here" />
      )}
    </Card>
  );
}

/** A blob: URL for a chosen file while it is shown, revoked after. */
function useObjectUrl(file: File | null | undefined): string | null {
  const [url, setUrl] = React.useState<string | null>(null);
  React.useEffect(() => {
    if (!file) return setUrl(null);
    const next = URL.createObjectURL(file);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [file]);
  return url;
}

function ThumbnailPreview({ resource, caption }: { resource: ThumbnailSource; caption: string }) {
  return (
    <ResourceThumbnail
      resource={resource}
      alt="Thumbnail preview"
      eager
      sizes="(min-width: 64rem) 24rem, 100vw"
      className="aspect-video w-full rounded-lg border object-cover"
      caption={(why) => (why === 'broken' ? 'The image could not be loaded' : caption)}
    />
  );
}
