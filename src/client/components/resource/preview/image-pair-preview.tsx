import type { PreviewImage } from '@contract/previews';
import { cn } from '@/lib/utils';
import { CompareSlider } from './compare-slider';
import { PreviewPicture } from './preview-picture';

/** A photo preset's before/after pair the admin uploaded, compared with a slider. */
export function ImagePairPreview({
  before,
  after,
  title,
  sizes,
  className,
}: {
  before: PreviewImage;
  after: PreviewImage;
  title: string;
  /** The rendered width (the images' `sizes`). */
  sizes: string;
  className?: string;
}) {
  return (
    <CompareSlider
      label={`Before and after ${title}`}
      className={cn('bg-black', className)}
      before={<PreviewPicture image={before} alt={`Before ${title}`} sizes={sizes} className="size-full object-cover" />}
      after={<PreviewPicture image={after} alt={`After ${title}`} sizes={sizes} className="size-full object-cover" />}
    />
  );
}
