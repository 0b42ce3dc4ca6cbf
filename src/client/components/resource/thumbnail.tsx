import type { Preview, PreviewImage } from '@contract/previews';
import type { PublicResource } from '@contract/resources';
import { ImageOff } from 'lucide-react';
import * as React from 'react';
import { cn } from '@/lib/utils';

/** Intrinsic size of a thumbnail (16:9): reserves the box before the image arrives. */
const THUMB_WIDTH = 640;
const THUMB_HEIGHT = 360;

// Browsers drop tabs and newlines from a URL: "/\t/evil.example" would load from another host.
// eslint-disable-next-line no-control-regex
const CONTROL_OR_SPACE = /[\u0000-\u0020\u007F]/;

/**
 * Whether a thumbnail address is worth loading: an http(s) URL, or a path on this site (not `//host`
 * or `/\host`, which browsers read as another host). Anything else shows the placeholder at once.
 */
export function isThumbnailUrl(url: string): boolean {
  if (!url || CONTROL_OR_SPACE.test(url)) return false;
  return /^https?:\/\/[^/]/i.test(url) || /^\/(?![/\\])/.test(url);
}

export type ThumbnailFallback = 'missing' | 'broken';

/** A ready video preview's poster (a frame from about 10% in): the picture a video resource shows. */
function videoPoster(preview: Preview | null | undefined): PreviewImage | null {
  return preview?.kind === 'video' && preview.status === 'ready' && preview.poster.variants.length > 0 ? preview.poster : null;
}

/** `url width` pairs of one format, narrowest first. */
export function imageSrcSet(image: PreviewImage, format: 'webp' | 'avif'): string {
  return image.variants
    .filter((v) => v.format === format)
    .sort((a, b) => a.width - b.width)
    .map((v) => `${v.url} ${v.width}w`)
    .join(', ');
}

/** The widest WebP: the `src` of a browser that ignores `srcset`. */
export function largestImageUrl(image: PreviewImage): string {
  const webp = image.variants.filter((v) => v.format === 'webp').sort((a, b) => b.width - a.width);
  return (webp[0] ?? image.variants[0]).url;
}

/**
 * A resource's thumbnail, or the one placeholder every view shows when there is none or it fails
 * to load. Takes the resource (not a URL) so that what the API later says about its images
 * reaches every card, carousel and dialog through this one component.
 */
export function ResourceThumbnail({
  resource,
  alt,
  eager = false,
  sizes,
  className,
  caption,
}: {
  /** With a ready video preview, its poster is the picture. */
  resource: Pick<PublicResource, 'thumbnail_url'> & { preview?: Preview | null };
  /** The image's text alternative; '' when a title beside it already says it. */
  alt: string;
  /** Above the fold: load at once instead of when scrolled near. */
  eager?: boolean;
  /** The rendered width (the `sizes` attribute), for when the image comes in several widths. */
  sizes?: string;
  /** Classes for the image and the placeholder alike (size, fit, rounding, hover effects). */
  className?: string;
  /** A line under the placeholder's icon saying why there is no picture. */
  caption?: (why: ThumbnailFallback) => React.ReactNode;
}) {
  const poster = videoPoster(resource.preview);
  const url = poster ? largestImageUrl(poster) : resource.thumbnail_url.trim();
  // Keyed by URL: a new address gets a fresh try.
  const [brokenUrl, setBrokenUrl] = React.useState<string | null>(null);
  const img = React.useRef<HTMLImageElement>(null);
  const usable = isThumbnailUrl(url);

  // An image that failed before the app hydrated it fired its error event to nobody.
  React.useEffect(() => {
    const el = img.current;
    if (el?.complete && el.naturalWidth === 0) setBrokenUrl(url);
  }, [url]);

  if (!usable || brokenUrl === url) {
    const why: ThumbnailFallback = usable ? 'broken' : 'missing';
    return (
      <div
        role={alt ? 'img' : undefined}
        aria-label={alt || undefined}
        aria-hidden={alt ? undefined : true}
        data-testid="thumbnail-placeholder"
        data-fallback={why}
        className={cn('flex flex-col items-center justify-center gap-2 bg-gradient-to-br from-muted to-accent text-muted-foreground', className)}
      >
        <ImageOff aria-hidden="true" className="size-10" />
        {caption && <span className="px-4 text-center text-xs">{caption(why)}</span>}
      </div>
    );
  }
  const avif = poster ? imageSrcSet(poster, 'avif') : '';
  const image = (
    <img
      ref={img}
      src={url}
      srcSet={poster ? imageSrcSet(poster, 'webp') || undefined : undefined}
      alt={alt}
      sizes={sizes}
      width={THUMB_WIDTH}
      height={THUMB_HEIGHT}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
      // The image host learns nothing about the page showing it.
      referrerPolicy="no-referrer"
      onError={() => setBrokenUrl(url)}
      style={poster ? { backgroundColor: poster.placeholder.color } : undefined}
      className={className}
    />
  );
  if (!avif) return image;
  return (
    <picture className="contents">
      <source type="image/avif" srcSet={avif} sizes={sizes} />
      {image}
    </picture>
  );
}
