import * as React from 'react';
import { Spinner } from '@/components/ui/primitives';
import { cn } from '@/lib/utils';
import { CompareSlider } from './compare-slider';
import { grade, loadLut, type Lut, type Renderer } from './lut-grade';

export interface SamplePhoto {
  url: string;
  /** What the photo shows. */
  alt: string;
}

function loadImage(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.crossOrigin = 'anonymous';
    img.decoding = 'async';
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error(`Sample photo ${url} failed to load`));
    img.src = url;
  });
}

/**
 * A color-grading LUT applied live to a sample photo, before/after, with a choice of sample
 * photos. The LUT is fetched when this is shown (the visitor opened the preview).
 */
export function LutPreview({
  tableUrl,
  size,
  samples,
  title,
  className,
}: {
  tableUrl: string;
  size: number;
  samples: readonly SamplePhoto[];
  title: string;
  className?: string;
}) {
  const [sample, setSample] = React.useState(0);
  const [lut, setLut] = React.useState<Lut | null>(null);
  const [renderer, setRenderer] = React.useState<Renderer | null>(null);
  const [failed, setFailed] = React.useState(false);
  const graded = React.useRef<HTMLDivElement>(null);
  const photo = samples[sample] ?? samples[0];

  React.useEffect(() => {
    const abort = new AbortController();
    loadLut(tableUrl, size, abort.signal).then(setLut, (err: unknown) => {
      if (abort.signal.aborted) return;
      console.warn('LUT preview failed:', err);
      setFailed(true);
    });
    return () => abort.abort();
  }, [tableUrl, size]);

  React.useEffect(() => {
    if (!lut || !photo) return;
    let cancelled = false;
    setRenderer(null);
    loadImage(photo.url).then(
      (img) => {
        if (cancelled || !graded.current) return;
        const out = grade(img, lut);
        out.canvas.className = 'size-full object-cover';
        out.canvas.setAttribute('aria-hidden', 'true');
        graded.current.replaceChildren(out.canvas);
        setRenderer(out.renderer);
      },
      (err: unknown) => {
        if (cancelled) return;
        console.warn(err);
        setFailed(true);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [lut, photo]);

  if (!photo) return null;
  return (
    <div className={cn('flex flex-col', className)} data-testid="lut-preview" data-renderer={renderer ?? ''}>
      <CompareSlider
        label={`Before and after ${title}`}
        className="min-h-0 flex-1 bg-black"
        before={<img src={photo.url} alt={`${photo.alt}, before ${title}`} crossOrigin="anonymous" className="size-full object-cover" />}
        after={
          <>
            <div ref={graded} className="size-full" role="img" aria-label={`${photo.alt}, graded with ${title}`} data-testid="lut-graded" />
            {!renderer && !failed && (
              <div className="absolute inset-0 grid place-items-center bg-black/40 text-white">
                <Spinner />
              </div>
            )}
            {failed && <p className="absolute inset-x-0 bottom-10 text-center text-sm text-white">The graded preview could not be shown.</p>}
          </>
        }
      />
      {samples.length > 1 && (
        <div role="group" aria-label="Sample photo" className="flex flex-wrap justify-center gap-2 bg-black/80 p-2">
          {samples.map((s, i) => (
            <button
              key={s.url}
              type="button"
              aria-pressed={i === sample}
              title={s.alt}
              onClick={() => setSample(i)}
              className={cn(
                'cursor-pointer rounded-full border px-3 py-1 text-xs font-medium text-white transition-colors focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-white/70',
                i === sample ? 'border-white bg-white text-black' : 'border-white/40 hover:bg-white/15',
              )}
            >
              Photo {i + 1}
              <span className="sr-only">: {s.alt}</span>
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
