import type { ReadyPreview } from '@contract/previews';
import type { PublicResource } from '@contract/resources';
import { FontSpecimen } from './font-preview';
import { VideoHoverPreview } from './video-preview';
import { WaveformPlayer } from './waveform-player';

/**
 * What a card lays over its thumbnail for the resource's preview (loaded lazily, only on pages
 * with such cards): a video that plays on hover, a sound's waveform player, a font's specimen.
 * The thumbnail underneath stays the card's image.
 */
export default function CardPreview({ resource, preview }: { resource: Pick<PublicResource, 'id' | 'title'>; preview: ReadyPreview }) {
  switch (preview.kind) {
    case 'video':
      return <VideoHoverPreview media={preview} title={resource.title} />;
    case 'audio':
      return (
        <div className="pointer-events-auto absolute inset-x-0 bottom-0 bg-gradient-to-t from-black from-40% via-black/60 to-transparent px-3 pb-3 pt-8">
          <WaveformPlayer src={preview.audio.url} peaks={preview.peaks} duration={preview.audio.duration} title={resource.title} />
        </div>
      );
    case 'font':
      return <FontSpecimen id={resource.id} media={preview} title={resource.title} />;
    default:
      return null;
  }
}
