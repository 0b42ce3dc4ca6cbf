import type { HostedImage } from '@contract/files';
import type { Preview, PreviewImage } from '@contract/previews';
import type { PublicResource } from '@contract/resources';
import { prefersPoster } from '@contract/thumbnail-choice';
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

/**
 * What a thumbnail needs of a resource: its address, its hosted variants when uploaded, and with
 * its preview which picture stands for it — a ready video preview's poster (a frame from about 10%
 * in) or its own thumbnail (prefersPoster, contract/thumbnail-choice.ts).
 */
export type ThumbnailSource = Pick<PublicResource, 'thumbnail_url'> & { thumbnail?: HostedImage | null } & (
    | { preview?: null }
    | (Pick<PublicResource, 'id' | 'thumbnail_choice'> & { preview: Preview | null })
  );

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

/** The picture in several widths a thumbnail shows: a video's poster when it stands for the resource, else the hosted thumbnail; null for a link. */
function pictureOf(resource: ThumbnailSource): HostedImage | null {
  const preview = 'thumbnail_choice' in resource && prefersPoster(resource) ? resource.preview : null;
  if (preview?.kind === 'video' && preview.status === 'ready' && preview.poster.variants.length > 0) {
    const poster = preview.poster;
    return {
      src: largestImageUrl(poster),
      srcset: imageSrcSet(poster, 'webp'),
      avif_srcset: imageSrcSet(poster, 'avif'),
      width: poster.width,
      height: poster.height,
      placeholder: { color: poster.placeholder.color, data_uri: poster.placeholder.dataUri },
    };
  }
  return resource.thumbnail ?? null;
}

/**
 * The resource's own thumbnail where its video's poster does not stand for it (the video player's
 * `poster`), else null: the poster.
 */
export function ownPictureUrl(resource: ThumbnailSource): string | null {
  if (!('thumbnail_choice' in resource) || resource.preview?.kind !== 'video' || prefersPoster(resource)) return null;
  const url = resource.thumbnail?.src ?? resource.thumbnail_url.trim();
  return isThumbnailUrl(url) ? url : null;
}

/**
 * Warms the cache with the image a thumbnail will show: for a hosted one the variant the browser
 * would pick for `sizes`, not the largest.
 */
export function preloadThumbnail(resource: ThumbnailSource, sizes: string) {
  const hosted = pictureOf(resource);
  if (!hosted && !isThumbnailUrl(resource.thumbnail_url)) return;
  const img = new Image();
  img.referrerPolicy = 'no-referrer';
  if (hosted) {
    img.sizes = sizes;
    img.srcset = hosted.srcset;
  }
  img.src = hosted ? hosted.src : resource.thumbnail_url;
}

/**
 * A resource's thumbnail, or the one placeholder every view shows when there is none or it fails
 * to load. Takes the resource (not a URL) so that what the API says about its images reaches every
 * card, carousel and dialog through this one component. A hosted (uploaded) thumbnail comes in
 * several widths (`srcset`, AVIF where it pays) and paints its tiny blurred placeholder as the
 * image's own background until the picture arrives: same box, so no layout shift, and no extra
 * element in front of the LCP image.
 */
export function ResourceThumbnail({
  resource,
  alt,
  eager = false,
  sizes,
  className,
  caption,
}: {
  resource: ThumbnailSource;
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
  const hosted = pictureOf(resource);
  const url = hosted ? hosted.src : resource.thumbnail_url.trim();
  // Keyed by URL: a new address gets a fresh try.
  const [brokenUrl, setBrokenUrl] = React.useState<string | null>(null);
  const [loadedUrl, setLoadedUrl] = React.useState<string | null>(null);
  const img = React.useRef<HTMLImageElement>(null);
  const usable = hosted !== null || isThumbnailUrl(url);

  // An image that loaded or failed before the app hydrated it fired its event to nobody.
  React.useEffect(() => {
    const el = img.current;
    if (!el?.complete) return;
    if (el.naturalWidth === 0) setBrokenUrl(url);
    else setLoadedUrl(url);
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
  const waiting = hosted !== null && loadedUrl !== url;
  const image = (
    <img
      ref={img}
      src={url}
      srcSet={hosted?.srcset || undefined}
      alt={alt}
      sizes={sizes}
      width={hosted?.width || THUMB_WIDTH}
      height={hosted?.height || THUMB_HEIGHT}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
      // The image host learns nothing about the page showing it.
      referrerPolicy="no-referrer"
      onError={() => setBrokenUrl(url)}
      onLoad={() => setLoadedUrl(url)}
      data-placeholder={waiting ? '' : undefined}
      style={
        waiting
          ? {
              backgroundColor: hosted.placeholder.color,
              backgroundImage: hosted.placeholder.data_uri ? `url("${hosted.placeholder.data_uri}")` : undefined,
              backgroundSize: 'cover',
              backgroundPosition: 'center',
            }
          : undefined
      }
      className={className}
    />
  );
  if (!hosted?.avif_srcset) return image;
  return (
    // display: contents: the <img> keeps its place in the caller's layout (size-full, absolute…).
    <picture className="contents">
      <source type="image/avif" srcSet={hosted.avif_srcset} sizes={sizes} />
      {image}
    </picture>
  );
}
