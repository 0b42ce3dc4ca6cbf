import type { Resource } from '@contract/resources';
import { DEFAULT_THUMBNAIL_CHOICE, type ThumbnailChoice } from '@contract/thumbnail-choice';
import * as React from 'react';
import { Controller } from 'react-hook-form';
import { ResourceThumbnail, type ThumbnailSource } from '@/components/resource/thumbnail';
import { Card } from '@/components/ui/primitives';
import { SourceChoices } from '../components/media-source-field';
import type { ResourceFormControls } from './use-resource-form';

/** The thumbnail as visitors will see it: the link, the chosen image, or what is hosted now. */
export function ThumbnailPreviewCard({ controls, resource }: { controls: ResourceFormControls; resource?: Resource }) {
  const { sources, uploads, hosted, thumbnailLink } = controls;
  const localThumbnail = useObjectUrl(uploads.thumbnail.state.status === 'idle' ? null : uploads.thumbnail.file);
  return (
    <Card className="grid gap-3 p-6">
      {resource?.preview?.kind === 'video' && resource.preview.status === 'ready' && (
        <ThumbnailChoiceField controls={controls} imageText={sources.thumbnail === 'link' ? 'Linked image' : 'Uploaded image'} />
      )}
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

/**
 * Which picture stands for a resource with a video preview: its own thumbnail or the video's poster
 * (docs/decisions/362-the-admin-chooses-the-thumbnail.md). Shown once the preview is ready, when
 * there is a poster to choose.
 */
function ThumbnailChoiceField({ controls: { form }, imageText }: { controls: ResourceFormControls; imageText: string }) {
  return (
    <div className="grid gap-2">
      <p id="resource-thumbnail-choice-label" className="text-sm font-medium">
        Thumbnail shown
      </p>
      <Controller
        control={form.control}
        name="thumbnail_choice"
        render={({ field: f }) => (
          <SourceChoices<ThumbnailChoice>
            name="thumbnail_choice"
            labelledBy="resource-thumbnail-choice-label"
            value={f.value ?? DEFAULT_THUMBNAIL_CHOICE}
            onChange={f.onChange}
            choices={[
              ['image', imageText],
              ['poster', 'Preview poster'],
            ]}
          />
        )}
      />
      <p className="text-xs text-muted-foreground">Cards, the resource page and its social card show this picture.</p>
    </div>
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
