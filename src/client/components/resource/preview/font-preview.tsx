import type { FontPreview } from '@contract/previews';
import * as React from 'react';
import { cn } from '@/lib/utils';

/** The tester's size range, in CSS pixels. */
export const TESTER_MIN_SIZE = 12;
export const TESTER_MAX_SIZE = 120;
const TESTER_START_SIZE = 48;
const TESTER_TEXT_MAX = 200;

type FontState = 'idle' | 'loading' | 'loaded' | 'failed';

/** A per-resource CSS family name, so two fonts naming themselves alike never replace each other. */
export const fontFamilyFor = (id: number) => `rv-preview-font-${id}`;

const loads = new Map<string, Promise<void>>();

/** Loads the font once per page (FontFace API); nothing is fetched until `enabled`. */
export function useFontFace(family: string, media: FontPreview, enabled: boolean): FontState {
  const [state, setState] = React.useState<FontState>('idle');
  React.useEffect(() => {
    if (!enabled) return;
    let load = loads.get(family);
    if (!load) {
      const face = new FontFace(family, `url("${media.file.url}")`, {
        style: media.italic ? 'italic' : 'normal',
        weight: media.weight ? String(media.weight) : 'normal',
        display: 'swap',
      });
      load = face.load().then((f) => {
        document.fonts.add(f);
      });
      loads.set(family, load);
    }
    let live = true;
    setState('loading');
    load.then(
      () => live && setState('loaded'),
      (err: unknown) => {
        console.warn(`Font preview ${media.file.url} failed:`, err);
        loads.delete(family);
        if (live) setState('failed');
      },
    );
    return () => {
      live = false;
    };
  }, [enabled, family, media.file.url, media.italic, media.weight]);
  return state;
}

function fontStyle(family: string, media: FontPreview): React.CSSProperties {
  return { fontFamily: `"${family}", system-ui, sans-serif`, fontWeight: media.weight ?? undefined, fontStyle: media.italic ? 'italic' : undefined };
}

/**
 * A card's specimen: the resource's title set in its font, over the card's image. The server's
 * outline of it (an SVG image, `media.specimen`) when it can make one, so a card never fetches the
 * font; otherwise (the font lacks a character of the title) the font itself, once the card is on screen.
 */
export function FontSpecimen({ id, media, title, className }: { id: number; media: FontPreview; title: string; className?: string }) {
  const [outline, setOutline] = React.useState<'loading' | 'loaded' | 'failed'>('loading');
  const img = React.useRef<HTMLImageElement>(null);
  // A server-rendered page may have loaded (or failed) the image before React listened for it.
  React.useEffect(() => {
    const el = img.current;
    if (el?.complete) setOutline(el.naturalWidth > 0 ? 'loaded' : 'failed');
  }, []);
  const box = cn(
    'absolute inset-0 grid place-items-center bg-gradient-to-br from-stone-50 to-stone-200 p-5 text-center text-stone-900 transition-opacity duration-300 dark:from-stone-900 dark:to-stone-800 dark:text-stone-50',
    className,
  );
  if (outline === 'failed') return <SpecimenInFont id={id} media={media} title={title} className={box} />;
  return (
    <div aria-hidden="true" data-testid="font-specimen" data-specimen="outline" data-font-state={outline} className={cn(box, outline === 'loaded' ? 'opacity-100' : 'opacity-0')}>
      <img
        ref={img}
        src={media.specimen.url}
        alt=""
        loading="lazy"
        decoding="async"
        draggable={false}
        onLoad={() => setOutline('loaded')}
        onError={() => setOutline('failed')}
        className="max-h-full max-w-full dark:invert"
      />
    </div>
  );
}

function SpecimenInFont({ id, media, title, className }: { id: number; media: FontPreview; title: string; className: string }) {
  const box = React.useRef<HTMLDivElement>(null);
  const [visible, setVisible] = React.useState(false);
  const family = fontFamilyFor(id);
  const state = useFontFace(family, media, visible);

  React.useEffect(() => {
    const el = box.current;
    if (!el) return;
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        setVisible(true);
        io.disconnect();
      }
    });
    io.observe(el);
    return () => io.disconnect();
  }, []);

  return (
    <div
      ref={box}
      aria-hidden="true"
      data-testid="font-specimen"
      data-specimen="font"
      data-font-state={state}
      className={cn(className, state === 'loaded' ? 'opacity-100' : 'opacity-0')}
    >
      <span className="line-clamp-2 text-3xl leading-tight" style={fontStyle(family, media)}>
        {title}
      </span>
    </div>
  );
}

/** The preview's type tester: the font's name, the visitor's own text and a size slider. */
export function TypeTester({ id, media, title, className }: { id: number; media: FontPreview; title: string; className?: string }) {
  const family = fontFamilyFor(id);
  const state = useFontFace(family, media, true);
  const [text, setText] = React.useState(title);
  const [size, setSize] = React.useState(TESTER_START_SIZE);
  const textId = React.useId();
  const sizeId = React.useId();
  const name = media.fullName ?? media.family;
  return (
    <div className={cn('flex flex-col gap-4 bg-muted px-5 pb-5 pt-14 sm:px-6 sm:pb-6', className)} data-testid="type-tester" data-font-state={state}>
      <p className="text-sm font-semibold text-muted-foreground">
        Font: <span className="text-foreground">{name}</span>
      </p>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="grid flex-1 gap-1.5">
          <label htmlFor={textId} className="text-sm font-medium">
            Your text
          </label>
          <input
            id={textId}
            type="text"
            value={text}
            maxLength={TESTER_TEXT_MAX}
            onChange={(e) => setText(e.currentTarget.value)}
            className="h-10 rounded-md border border-input bg-background px-3 text-base focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
          />
        </div>
        <div className="grid gap-1.5 sm:w-56">
          <label htmlFor={sizeId} className="flex justify-between text-sm font-medium">
            Size <output htmlFor={sizeId} className="tabular-nums text-muted-foreground">{size} px</output>
          </label>
          <input
            id={sizeId}
            type="range"
            min={TESTER_MIN_SIZE}
            max={TESTER_MAX_SIZE}
            value={size}
            onChange={(e) => setSize(Number(e.currentTarget.value))}
            aria-valuetext={`${size} pixels`}
            className="h-10 w-full cursor-pointer accent-primary"
          />
        </div>
      </div>
      {/* The rest of the tester's fixed box: the sample scrolls inside it rather than moving the dialog as it grows. */}
      <div
        tabIndex={0}
        role="region"
        aria-label="Sample text"
        className="min-h-32 flex-1 overflow-auto rounded-lg border bg-background p-4 focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
      >
        <p
          data-testid="type-sample"
          className={cn('break-words leading-tight transition-opacity', state === 'loaded' ? 'opacity-100' : 'opacity-60')}
          style={{ ...fontStyle(family, media), fontSize: `${size}px` }}
        >
          {text || title}
        </p>
      </div>
    </div>
  );
}
