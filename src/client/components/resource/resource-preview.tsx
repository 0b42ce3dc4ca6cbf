import type { ReadyPreview } from '@contract/previews';
import type { PublicResource } from '@contract/resources';
import * as React from 'react';
import { ClientOnly } from '@/lib/hydration';
import { cn } from '@/lib/utils';
import { ResourceThumbnail, type ThumbnailSource } from './thumbnail';

// Preview code is its own chunk, fetched only when a page shows a preview of that kind.
const FullPreview = React.lazy(() => import('./preview/full-preview'));
const CardPreview = React.lazy(() => import('./preview/card-preview'));

type Previewable = Pick<PublicResource, 'id' | 'title'> & ThumbnailSource & { preview: ReadyPreview | null };

/**
 * The box the dialog gives a resource's preview, the same while its code loads and after, so
 * nothing moves: 16:9 like the thumbnail, except the type tester, which needs room for its controls.
 */
export function previewBoxClass(preview: ReadyPreview | null): string {
  return preview?.kind === 'font' ? 'h-[28rem] sm:h-[23rem]' : 'aspect-video';
}

/**
 * The media of a resource's preview (spec: Preview opens the thumbnail in a dialog): the full
 * preview of its kind, or the thumbnail for a resource without one. Every place that previews a
 * resource shows it through here.
 */
export function ResourcePreview({ resource, autoPlay = false }: { resource: Previewable; /** A video starts at once (the dialog the visitor opened), unless motion is reduced. */ autoPlay?: boolean }) {
  const thumbnail = (
    <ResourceThumbnail resource={resource} alt={resource.title} eager sizes="(min-width: 48rem) 48rem, 100vw" className="size-full object-contain" />
  );
  if (!resource.preview) return thumbnail;
  return (
    <React.Suspense fallback={thumbnail}>
      <FullPreview resource={resource} preview={resource.preview} autoPlay={autoPlay} />
    </React.Suspense>
  );
}

/** Kinds a card shows more of than its thumbnail (the others preview in the dialog only). */
const CARD_KINDS: ReadonlySet<ReadyPreview['kind']> = new Set(['video', 'audio', 'font']);

/**
 * What a card lays over its thumbnail (inside the thumbnail's box, which stays the card's image
 * and its LCP): a video playing on hover, a sound's player, a font's specimen. Rendered in the
 * browser only, after the page is live; nothing for a resource without such a preview. Put it in
 * the picture's box marked `data-preview-host`, beside (not inside) a link: a video listens to the
 * pointer over that whole box.
 */
export function ResourceCardPreview({ resource, className }: { resource: Previewable; className?: string }) {
  const { preview } = resource;
  if (!preview || !CARD_KINDS.has(preview.kind)) return null;
  return (
    <ClientOnly>
      <React.Suspense fallback={null}>
        {/* Clicks pass through to the card's picture (a link) except on the preview's own controls. */}
        <div className={cn('pointer-events-none absolute inset-0', className)}>
          <CardPreview resource={resource} preview={preview} />
        </div>
      </React.Suspense>
    </ClientOnly>
  );
}
