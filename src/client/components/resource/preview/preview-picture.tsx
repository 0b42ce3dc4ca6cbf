import type { PreviewImage } from '@contract/previews';

/** `url width` pairs of one format, narrowest first. */
function srcSet(image: PreviewImage, format: 'webp' | 'avif'): string {
  return image.variants
    .filter((v) => v.format === format)
    .sort((a, b) => a.width - b.width)
    .map((v) => `${v.url} ${v.width}w`)
    .join(', ');
}

/** The widest WebP: the `src` of a browser that ignores `srcset`. */
export function largestUrl(image: PreviewImage): string | undefined {
  return image.variants.filter((v) => v.format === 'webp').sort((a, b) => b.width - a.width)[0]?.url ?? image.variants[0]?.url;
}

/** A derived image in all its widths and formats (AVIF where the server made one), on its placeholder colour. */
export function PreviewPicture({ image, alt, sizes, className }: { image: PreviewImage; alt: string; sizes: string; className?: string }) {
  const avif = srcSet(image, 'avif');
  return (
    <picture className="contents">
      {avif && <source type="image/avif" srcSet={avif} sizes={sizes} />}
      <img
        src={largestUrl(image)}
        srcSet={srcSet(image, 'webp') || undefined}
        sizes={sizes}
        width={image.width}
        height={image.height}
        alt={alt}
        decoding="async"
        style={{ backgroundColor: image.placeholder.color }}
        className={className}
      />
    </picture>
  );
}
