import {
  CAROUSEL_DEBOUNCE_MS,
  CAROUSEL_DRAG_BOUND_PX,
  CAROUSEL_SWIPE_THRESHOLD_PX,
  CAROUSEL_TOUCH_MOVE_THRESHOLD_PX,
  CAROUSEL_VISIBLE_OFFSET,
} from '@contract/constants';
import type { PublicResource } from '@contract/resources';
import { ChevronLeft, ChevronRight, Gem, RefreshCw, TriangleAlert } from 'lucide-react';
import * as React from 'react';
import { Link } from '@/lib/link';
import { DownloadButton } from '@/components/resource/download-button';
import { PremiumBadge } from '@/components/resource/resource-meta';
import { ResourceCardPreview } from '@/components/resource/resource-preview';
import { preloadThumbnail, ResourceThumbnail } from '@/components/resource/thumbnail';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/primitives';
import { toast } from '@/components/ui/use-toast';
import { cn } from '@/lib/utils';
import { usePremiumResources } from './premium-api';
import { formatRetryNotice, PREMIUM_FALLBACK_MESSAGE, type RetryNotice } from './premium-retry';

/** The premium section's body: loaded lazily (below the fold), the section itself is in the page. */
export default function PremiumCarousel() {
  const { query, notice } = usePremiumResources();
  const { data, error, isError, isFetching, errorUpdatedAt, refetch } = query;

  // Toast each new failure, not one left in the cache from an earlier visit.
  const mountedAt = React.useRef(Date.now());
  React.useEffect(() => {
    if (isError && errorUpdatedAt >= mountedAt.current) {
      toast({ variant: 'destructive', title: 'Error', description: error?.message || PREMIUM_FALLBACK_MESSAGE });
    }
  }, [isError, error, errorUpdatedAt]);

  // The carousel (five cards, images, 3D transforms) is rendered in the background, in slices,
  // rather than in the one blocking render a query update gets; the loading state stays meanwhile.
  const shown = React.useDeferredValue(data);
  if (shown && shown.items.length > 0) return <Carousel items={shown.items} />;

  return (
    <div className="flex min-h-[464px] items-center justify-center">
      {(!data && (isFetching || !isError)) || data !== shown ? (
        <div role="status" className="flex flex-col items-center gap-4 text-center">
          <Spinner className="size-8 text-fuchsia-600 dark:text-fuchsia-400" />
          <p className="font-medium text-muted-foreground">Loading premium resources...</p>
          {notice && <RetryNoticeText notice={notice} />}
        </div>
      ) : isError ? (
        <div role="alert" className="home-glass flex max-w-md flex-col items-center gap-4 rounded-2xl p-8 text-center">
          <span className="grid size-12 place-items-center rounded-full bg-destructive/10 text-destructive">
            <TriangleAlert className="size-6" aria-hidden="true" />
          </span>
          <div>
            <p className="font-semibold">Couldn’t load premium resources</p>
            <p className="mt-1 text-sm text-muted-foreground">{error?.message || PREMIUM_FALLBACK_MESSAGE}</p>
          </div>
          <Button variant="gradient" className="rounded-full px-6" onClick={() => void refetch()}>
            <RefreshCw aria-hidden="true" />
            Try Again
          </Button>
        </div>
      ) : (
        <div role="status" className="home-glass flex max-w-md flex-col items-center gap-3 rounded-2xl p-8 text-center">
          <Gem className="size-8 text-muted-foreground" aria-hidden="true" />
          <p className="font-semibold">No premium resources found</p>
          <p className="text-sm text-muted-foreground">New exclusive packs are on the way — check back soon.</p>
        </div>
      )}
    </div>
  );
}

function RetryNoticeText({ notice }: { notice: RetryNotice }) {
  const [now, setNow] = React.useState(Date.now);
  React.useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 100);
    return () => clearInterval(timer);
  }, [notice]);
  return (
    <>
      {/* The countdown changes ten times a second: screen readers hear the attempt once instead. */}
      <p aria-hidden="true" className="rounded-full bg-amber-500/15 px-4 py-1.5 text-sm font-medium tabular-nums text-amber-800 dark:text-amber-300">
        {formatRetryNotice(notice, now)}
      </p>
      <span className="sr-only">
        Retry attempt {notice.attempt}/{notice.max}
      </span>
    </>
  );
}

/** A card's width: w-[min(80vw,360px)] below. */
const CARD_SIZES = '(min-width: 450px) 360px, 80vw';

/** Distance of item i from the active one, wrapping both ways: 0, ±1, ±2 … */
function offsetOf(i: number, active: number, n: number): number {
  let d = (((i - active) % n) + n) % n;
  if (d > n / 2) d -= n;
  return d;
}

const wrap = (i: number, n: number) => ((i % n) + n) % n;

/** Shift (in % of the card's width), depth, scale and opacity by distance from the centre. */
const DEPTH = [
  { x: 0, z: 0, rotate: 0, scale: 1, opacity: 1 },
  // Neighbours stay opaque (the cards behind would show through) and are dimmed by a scrim instead.
  { x: 62, z: -140, rotate: 28, scale: 0.86, opacity: 1 },
  { x: 108, z: -280, rotate: 38, scale: 0.72, opacity: 0.6 },
  // One step beyond the visible five, invisible, so cards slide in instead of popping up.
  { x: 140, z: -380, rotate: 44, scale: 0.6, opacity: 0 },
];

interface Drag {
  pointerId: number;
  type: string;
  startX: number;
  startY: number;
  dx: number;
  moving: boolean;
}

function Carousel({ items }: { items: PublicResource[] }) {
  const n = items.length;
  const [active, setActive] = React.useState(0);
  const activeRef = React.useRef(0);
  const lastNav = React.useRef(-Infinity);
  const [dragX, setDragX] = React.useState(0);
  const [dragging, setDragging] = React.useState(false);
  const drag = React.useRef<Drag | null>(null);
  const swallowClick = React.useRef(false);
  const describedBy = React.useId();

  React.useEffect(() => {
    for (const r of items) preloadThumbnail(r, CARD_SIZES);
  }, [items]);

  // Every way of moving goes through here: one debounce, one error message.
  const goTo = React.useCallback(
    (target: (current: number) => number) => {
      const now = performance.now();
      if (now - lastNav.current < CAROUSEL_DEBOUNCE_MS) return;
      lastNav.current = now;
      try {
        const next = wrap(target(activeRef.current), n);
        if (!Number.isFinite(next)) throw new Error(`Bad carousel index ${next}`);
        activeRef.current = next;
        setActive(next);
      } catch (err) {
        console.warn('Carousel navigation failed', err);
        toast({ variant: 'destructive', title: 'Error', description: 'Failed to navigate resources' });
      }
    },
    [n],
  );
  const prev = () => goTo((i) => i - 1);
  const next = () => goTo((i) => i + 1);

  const onKeyDown = (e: React.KeyboardEvent<HTMLDivElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    e.preventDefault();
    // Focus may sit on the card that is about to become an inert side card: keep it on the carousel.
    if (e.target !== e.currentTarget) e.currentTarget.focus();
    (e.key === 'ArrowLeft' ? prev : next)();
  };

  const endDrag = () => {
    drag.current = null;
    setDragging(false);
    setDragX(0);
  };

  const onPointerDown = (e: React.PointerEvent) => {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    drag.current = { pointerId: e.pointerId, type: e.pointerType, startX: e.clientX, startY: e.clientY, dx: 0, moving: false };
  };

  const onPointerMove = (e: React.PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || d.pointerId !== e.pointerId) return;
    const dx = e.clientX - d.startX;
    const dy = e.clientY - d.startY;
    if (!d.moving) {
      // Small jitters stay clicks/taps; a mostly vertical touch is the page scrolling.
      if (Math.abs(dx) <= CAROUSEL_TOUCH_MOVE_THRESHOLD_PX || Math.abs(dx) < Math.abs(dy)) {
        if (d.type !== 'mouse' && Math.abs(dy) > CAROUSEL_TOUCH_MOVE_THRESHOLD_PX) drag.current = null;
        return;
      }
      d.moving = true;
      setDragging(true);
      e.currentTarget.setPointerCapture(e.pointerId);
    }
    d.dx = Math.max(-CAROUSEL_DRAG_BOUND_PX, Math.min(CAROUSEL_DRAG_BOUND_PX, dx));
    setDragX(d.dx);
  };

  const onPointerUp = (e: React.PointerEvent) => {
    const d = drag.current;
    if (!d || d.pointerId !== e.pointerId) return;
    if (d.moving) {
      swallowClick.current = true;
      if (Math.abs(d.dx) > CAROUSEL_SWIPE_THRESHOLD_PX) (d.dx < 0 ? next : prev)();
    }
    endDrag();
  };

  const current = items[active];

  return (
    <div className="flex flex-col items-center">
      <div
        role="region"
        aria-roledescription="carousel"
        aria-label="Premium picks"
        aria-describedby={describedBy}
        tabIndex={0}
        onKeyDown={onKeyDown}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={endDrag}
        onClickCapture={(e) => {
          // The click that ends a drag is not a click on a card.
          if (swallowClick.current) {
            swallowClick.current = false;
            e.preventDefault();
            e.stopPropagation();
          }
        }}
        onDragStart={(e) => e.preventDefault()}
        className={cn(
          'relative h-[400px] w-full touch-pan-y select-none rounded-3xl outline-none focus-visible:ring-[3px] focus-visible:ring-ring/60',
          dragging ? 'cursor-grabbing' : 'cursor-grab',
        )}
        style={{ perspective: '1400px' }}
      >
        <p id={describedBy} className="sr-only">
          Use the left and right arrow keys, the buttons below, or drag to browse.
        </p>
        {/* In a preserve-3d context this box sits in front of the receding side cards: it must let clicks through. */}
        <div className="pointer-events-none absolute inset-0" style={{ transformStyle: 'preserve-3d' }}>
          {items.map((resource, i) => {
            const offset = offsetOf(i, active, n);
            const distance = Math.abs(offset);
            if (distance > CAROUSEL_VISIBLE_OFFSET + 1) return null;
            const look = DEPTH[Math.min(distance, DEPTH.length - 1)];
            const side = Math.sign(offset);
            const isActive = offset === 0;
            const hidden = distance > CAROUSEL_VISIBLE_OFFSET;
            return (
              <div
                key={resource.id}
                role={isActive ? 'group' : undefined}
                aria-roledescription={isActive ? 'slide' : undefined}
                aria-label={isActive ? `${i + 1} of ${n}` : undefined}
                aria-hidden={isActive ? undefined : true}
                data-offset={offset}
                onClick={isActive || hidden ? undefined : () => goTo(() => i)}
                className={cn(
                  'absolute left-1/2 top-2 w-[min(80vw,360px)] will-change-transform',
                  hidden ? 'pointer-events-none' : 'pointer-events-auto',
                  !isActive && !hidden && 'cursor-pointer',
                )}
                style={{
                  transform: `translateX(calc(-50% + ${side * look.x}% + ${dragX}px)) translateZ(${look.z}px) rotateY(${-side * look.rotate}deg) scale(${look.scale})`,
                  opacity: look.opacity,
                  zIndex: 10 - distance,
                  transition: dragging ? 'none' : 'transform 550ms cubic-bezier(0.22, 0.61, 0.36, 1), opacity 550ms ease',
                }}
              >
                <PremiumCard resource={resource} active={isActive} />
              </div>
            );
          })}
        </div>
        <p className="sr-only" aria-live="polite">
          {current ? `Showing ${active + 1} of ${n}: ${current.title}` : ''}
        </p>
      </div>

      {/* On narrow screens the dots get their own row above the arrows. */}
      <div className="mt-6 flex flex-wrap items-center justify-center gap-x-4 gap-y-3">
        <Button variant="outline" size="icon" className="home-glass shrink-0 rounded-full" aria-label="Previous resource" onClick={prev}>
          <ChevronLeft className="size-5" aria-hidden="true" />
        </Button>
        <div className="order-first flex basis-full flex-wrap items-center justify-center sm:order-none sm:basis-auto">
          {items.map((r, i) => (
            <button
              key={r.id}
              type="button"
              aria-label={`Go to resource ${i + 1} of ${n}`}
              aria-current={i === active ? 'true' : undefined}
              onClick={() => goTo(() => i)}
              className="group grid h-6 min-w-6 cursor-pointer place-items-center rounded-full px-1 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              <span
                className={cn(
                  'block h-2 rounded-full transition-all duration-300',
                  i === active
                    ? 'w-6 bg-gradient-to-r from-violet-600 to-fuchsia-600'
                    : 'w-2 bg-foreground/25 group-hover:bg-foreground/50',
                )}
              />
            </button>
          ))}
        </div>
        <Button variant="outline" size="icon" className="home-glass shrink-0 rounded-full" aria-label="Next resource" onClick={next}>
          <ChevronRight className="size-5" aria-hidden="true" />
        </Button>
      </div>
    </div>
  );
}

function PremiumCard({ resource, active }: { resource: PublicResource; active: boolean }) {
  return (
    <article
      // Side cards are pictures of what comes next: clicking one brings it forward, nothing inside them is reachable.
      inert={!active}
      className={cn(
        // Solid, unlike the page's glass cards: the cards behind must not show through.
        'relative overflow-hidden rounded-3xl border bg-card text-card-foreground shadow-xl transition-shadow duration-500',
        active && 'shadow-2xl shadow-fuchsia-500/20 ring-1 ring-fuchsia-500/30 dark:shadow-fuchsia-500/10',
      )}
    >
      {/* As on the category cards: the picture and the title open the resource's page; for the keyboard the
          title's link is the one (one tab stop). A drag's closing click is swallowed by the carousel. */}
      <div data-preview-host className="relative aspect-video overflow-hidden bg-gradient-to-br from-violet-600/30 via-fuchsia-500/20 to-amber-400/30">
        <Link to={resource.url} tabIndex={-1} draggable={false} className="block size-full">
          <ResourceThumbnail resource={resource} alt={resource.title} eager sizes={CARD_SIZES} className="size-full object-cover" />
          <div aria-hidden="true" className="absolute inset-0 bg-gradient-to-t from-black/40 via-transparent to-transparent" />
        </Link>
        {active && <ResourceCardPreview resource={resource} />}
        <PremiumBadge className="pointer-events-none absolute left-3 top-3" />
      </div>
      <div className="flex flex-col gap-2 p-5">
        <h3 className="line-clamp-1 text-lg font-bold" title={resource.title}>
          <Link
            to={resource.url}
            draggable={false}
            className="rounded-sm hover:underline focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
          >
            {resource.title}
          </Link>
        </h3>
        <p className="line-clamp-2 min-h-10 text-sm text-muted-foreground">{resource.description}</p>
        <DownloadButton resource={resource} label="Get Resource" tabIndex={active ? undefined : -1} className="mt-2 w-full rounded-xl" />
      </div>
      {!active && <div aria-hidden="true" className="absolute inset-0 bg-background/45 transition-opacity duration-500" />}
    </article>
  );
}
