import type { PreviewImage } from '@contract/previews';
import { imageSrcSet, largestImageUrl } from '../thumbnail';

/** A derived image in all its widths and formats (AVIF where the server made one), on its placeholder colour. */
export function PreviewPicture({ image, alt, sizes, className }: { image: PreviewImage; alt: string; sizes: string; className?: string }) {
  const avif = imageSrcSet(image, 'avif');
  return (
    <picture className="contents">
      {avif && <source type="image/avif" srcSet={avif} sizes={sizes} />}
      <img
        src={largestImageUrl(image)}
        srcSet={imageSrcSet(image, 'webp') || undefined}
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
