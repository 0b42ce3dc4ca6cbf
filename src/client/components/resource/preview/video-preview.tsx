import { Pause, Play } from 'lucide-react';
import type { VideoPreview } from '@contract/previews';
import * as React from 'react';
import { cn } from '@/lib/utils';
import { useReducedMotion } from './playback';
import { largestImageUrl } from '../thumbnail';

type Storyboard = Pick<VideoPreview['storyboard'], 'columns' | 'rows' | 'frames'>;

/** After the pointer stops scrubbing this long, the video plays on from where it rests. */
const SCRUB_REST_MS = 450;

/** The storyboard tile that shows `fraction` (0–1) of the preview. */
export function storyboardFrame(board: Storyboard, fraction: number): { index: number; position: string; size: string } {
  const index = Math.min(board.frames - 1, Math.max(0, Math.floor(fraction * board.frames)));
  const col = index % board.columns;
  const row = Math.floor(index / board.columns);
  const x = board.columns > 1 ? (col / (board.columns - 1)) * 100 : 0;
  const y = board.rows > 1 ? (row / (board.rows - 1)) * 100 : 0;
  return { index, position: `${x}% ${y}%`, size: `${board.columns * 100}% ${board.rows * 100}%` };
}

/**
 * A card's moving preview, laid over its poster (which stays the card's image): with a mouse,
 * hovering plays the muted preview and the pointer's horizontal position scrubs through the
 * storyboard sprite (no video needed to scrub); on touch, a tap plays and pauses; a button does
 * the same from the keyboard. Nothing is fetched before the visitor points at it, and nothing plays
 * by itself under prefers-reduced-motion.
 */
export function VideoHoverPreview({ media, title, className }: { media: VideoPreview; title: string; className?: string }) {
  const reduced = useReducedMotion();
  const video = React.useRef<HTMLVideoElement>(null);
  const [active, setActive] = React.useState(false);
  const [playing, setPlaying] = React.useState(false);
  const [frame, setFrame] = React.useState<ReturnType<typeof storyboardFrame> | null>(null);
  const [fraction, setFraction] = React.useState(0);
  const rest = React.useRef<ReturnType<typeof setTimeout>>(undefined);
  const pointerType = React.useRef('mouse');
  const board = media.storyboard;
  const root = React.useRef<HTMLDivElement>(null);

  React.useEffect(() => () => clearTimeout(rest.current), []);

  const play = (at?: number) => {
    const el = video.current;
    // The element gets its source when first activated; the effect below plays it then.
    if (!active || !el) {
      setActive(true);
      return;
    }
    if (at !== undefined && Number.isFinite(at)) el.currentTime = at;
    el.play().catch((err: unknown) => {
      if (!(err instanceof DOMException && err.name === 'AbortError')) console.warn('Video preview failed to play:', err);
    });
  };
  const pause = () => video.current?.pause();

  React.useEffect(() => {
    if (!active || !video.current) return;
    video.current.play().catch((err: unknown) => {
      if (!(err instanceof DOMException && err.name === 'AbortError')) console.warn('Video preview failed to play:', err);
    });
  }, [active]);

  const onEnter = (e: PointerEvent) => {
    pointerType.current = e.pointerType;
    if (e.pointerType === 'mouse' && !reduced) play();
  };
  const onMove = (e: PointerEvent, box: DOMRect) => {
    if (e.pointerType !== 'mouse' || !board || box.width <= 0) return;
    const f = Math.min(1, Math.max(0, (e.clientX - box.left) / box.width));
    setFraction(f);
    setFrame(storyboardFrame(board, f));
    clearTimeout(rest.current);
    if (reduced) return;
    pause();
    rest.current = setTimeout(() => {
      setFrame(null);
      play(f * media.video.duration);
    }, SCRUB_REST_MS);
  };
  const onLeave = () => {
    clearTimeout(rest.current);
    setFrame(null);
    pause();
    if (video.current) video.current.currentTime = 0;
  };
  /** A tap plays or pauses (and does not follow the picture's link); a mouse click opens it as before. */
  const onClick = (e: MouseEvent) => {
    if (pointerType.current === 'mouse') return;
    e.preventDefault();
    if (playing) pause();
    else play();
  };
  const handlers = React.useRef({ onEnter, onMove, onLeave, onClick });
  handlers.current = { onEnter, onMove, onLeave, onClick };

  // The pointer is followed over the whole picture box (the overlay itself lets clicks through to the
  // link under it): the nearest `data-preview-host`, else the overlay's parent.
  React.useEffect(() => {
    const host = root.current?.closest<HTMLElement>('[data-preview-host]') ?? root.current?.parentElement;
    if (!host) return;
    const enter = (e: PointerEvent) => handlers.current.onEnter(e);
    const move = (e: PointerEvent) => handlers.current.onMove(e, host.getBoundingClientRect());
    const leave = () => handlers.current.onLeave();
    const down = (e: PointerEvent) => {
      pointerType.current = e.pointerType;
    };
    const click = (e: MouseEvent) => {
      if (e.target instanceof Element && e.target.closest('button')) return;
      handlers.current.onClick(e);
    };
    host.addEventListener('pointerenter', enter);
    host.addEventListener('pointermove', move);
    host.addEventListener('pointerleave', leave);
    host.addEventListener('pointerdown', down);
    host.addEventListener('click', click, true);
    return () => {
      host.removeEventListener('pointerenter', enter);
      host.removeEventListener('pointermove', move);
      host.removeEventListener('pointerleave', leave);
      host.removeEventListener('pointerdown', down);
      host.removeEventListener('click', click, true);
    };
  }, []);

  return (
    <div
      ref={root}
      className={cn('absolute inset-0', className)}
      data-testid="video-hover-preview"
      data-playing={playing ? 'true' : 'false'}
      data-frame={frame?.index ?? ''}
    >
      <video
        ref={video}
        src={active ? media.video.url : undefined}
        muted
        loop
        playsInline
        preload="none"
        aria-hidden="true"
        tabIndex={-1}
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onTimeUpdate={(e) => !frame && media.video.duration > 0 && setFraction(e.currentTarget.currentTime / media.video.duration)}
        className={cn('size-full object-cover transition-opacity duration-200', playing || frame ? 'opacity-100' : 'opacity-0')}
      />
      {board && frame && (
        <div
          aria-hidden="true"
          data-testid="storyboard-frame"
          className="absolute inset-0 bg-black bg-no-repeat"
          style={{ backgroundImage: `url("${board.url}")`, backgroundSize: frame.size, backgroundPosition: frame.position }}
        />
      )}
      {(playing || frame) && (
        <div aria-hidden="true" className="absolute inset-x-0 bottom-0 h-1 bg-white/30">
          <div className="h-full bg-white" style={{ width: `${fraction * 100}%` }} />
        </div>
      )}
      <button
        type="button"
        onClick={(e) => {
          e.stopPropagation();
          if (playing) pause();
          else play();
        }}
        aria-label={`${playing ? 'Pause' : 'Play'} preview of ${title}`}
        className="pointer-events-auto absolute bottom-3 right-3 grid size-9 cursor-pointer place-items-center rounded-full bg-black/60 text-white opacity-80 shadow-md backdrop-blur transition-opacity hover:opacity-100 focus-visible:opacity-100 focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-white/70"
      >
        {playing ? <Pause aria-hidden="true" className="size-4" /> : <Play aria-hidden="true" className="size-4 translate-x-px" />}
      </button>
    </div>
  );
}

/**
 * The full video preview: muted, with its controls. With `autoPlay` (the dialog the visitor opened)
 * it plays at once unless motion is reduced; otherwise nothing is fetched until played.
 */
export function VideoPlayer({
  media,
  title,
  autoPlay,
  poster,
  className,
}: {
  media: VideoPreview;
  title: string;
  autoPlay: boolean;
  /** The picture shown before it plays when not the video's own poster (the resource's thumbnail, as the admin chose). */
  poster?: string | null;
  className?: string;
}) {
  const reduced = useReducedMotion();
  const starts = autoPlay && !reduced;
  return (
    <video
      src={media.video.url}
      poster={poster ?? largestImageUrl(media.poster)}
      muted
      loop
      playsInline
      controls
      autoPlay={starts}
      preload={starts ? 'auto' : 'none'}
      aria-label={`Preview of ${title}`}
      data-testid="video-player"
      className={cn('size-full bg-black object-contain', className)}
    />
  );
}
