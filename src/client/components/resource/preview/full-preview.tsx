import type { ReadyPreview } from '@contract/previews';
import type { PublicResource } from '@contract/resources';
import { ownPictureUrl, ResourceThumbnail, type ThumbnailSource } from '../thumbnail';
import { TypeTester } from './font-preview';
import { ImagePairPreview } from './image-pair-preview';
import { LutPreview } from './lut-preview';
import { VideoPlayer } from './video-preview';
import { WaveformPlayer } from './waveform-player';

/** The dialog's width: images are chosen for it. */
const DIALOG_SIZES = '(min-width: 48rem) 48rem, 100vw';

/**
 * The full preview of a resource's kind, in the preview dialog (loaded lazily when a dialog with a
 * preview opens): the video with its controls, the sound's player, the LUT grading sample photos,
 * the preset's before/after, the font's type tester.
 */
export default function FullPreview({
  resource,
  preview,
  autoPlay,
}: {
  resource: Pick<PublicResource, 'id' | 'title'> & ThumbnailSource;
  preview: ReadyPreview;
  autoPlay: boolean;
}) {
  switch (preview.kind) {
    case 'video':
      return <VideoPlayer media={preview} title={resource.title} autoPlay={autoPlay} poster={ownPictureUrl(resource)} />;
    case 'audio':
      return (
        <div className="relative size-full">
          <ResourceThumbnail resource={resource} alt="" eager sizes={DIALOG_SIZES} className="size-full object-cover" />
          <div className="absolute inset-x-0 bottom-0 bg-gradient-to-t from-black from-40% via-black/65 to-transparent px-4 pb-4 pt-16 sm:px-6 sm:pb-6">
            <WaveformPlayer src={preview.audio.url} peaks={preview.peaks} duration={preview.audio.duration} title={resource.title} size="full" />
          </div>
        </div>
      );
    case 'lut':
      return (
        <LutPreview
          tableUrl={preview.table.url}
          size={preview.table.size}
          samples={preview.samples}
          title={resource.title}
          className="size-full"
        />
      );
    case 'image-pair':
      return <ImagePairPreview before={preview.before} after={preview.after} title={resource.title} sizes={DIALOG_SIZES} className="size-full" />;
    case 'font':
      return <TypeTester id={resource.id} media={preview} title={resource.title} className="size-full" />;
  }
}
