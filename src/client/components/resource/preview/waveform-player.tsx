import { Pause, Play } from 'lucide-react';
import * as React from 'react';
import { cn } from '@/lib/utils';
import { claimPlayback, formatTime, releasePlayback } from './playback';

/** Share of the sound one arrow key press moves (Page Up/Down move four times as far). */
const ARROW_STEP = 0.05;
/** The shortest bar drawn, so silence still shows where the sound is. */
const MIN_BAR = 2;

/** All bars as one path (one element per waveform, not one per bar), in a box `peaks.length` × 100. */
export function waveformPath(peaks: readonly number[]): string {
  // Drawn relative to the loudest slice, so a quiet sound still shows its shape.
  const top = Math.max(...peaks.map((p) => (Number.isFinite(p) ? p : 0)), 1);
  return peaks
    .map((p, i) => {
      const h = Math.max(MIN_BAR, Math.min(100, ((Number.isFinite(p) ? p : 0) / top) * 100));
      return `M${i + 0.15} ${((100 - h) / 2).toFixed(1)}h0.7v${h.toFixed(1)}h-0.7z`;
    })
    .join('');
}

/**
 * A sound's waveform, drawn from the peaks the server computed, with play/pause, click-to-seek,
 * keyboard seeking and the time. The sound itself is only fetched when it is first played; one
 * sound plays at a time on the page.
 */
export function WaveformPlayer({
  src,
  peaks,
  duration,
  title,
  size = 'card',
  className,
}: {
  src: string;
  /** Peak levels 0–100 over equal slices of the sound (the server's `peaks`). */
  peaks: readonly number[];
  /** Seconds. */
  duration: number;
  title: string;
  size?: 'card' | 'full';
  className?: string;
}) {
  const audio = React.useRef<HTMLAudioElement>(null);
  const [started, setStarted] = React.useState(false);
  const [playing, setPlaying] = React.useState(false);
  const [time, setTime] = React.useState(0);
  /** Where to start once the sound is loaded (a seek before the first play). */
  const pendingTime = React.useRef(0);
  const clipId = React.useId();
  const total = duration > 0 ? duration : 0;

  React.useEffect(() => {
    if (!playing) return;
    let frame = 0;
    const tick = () => {
      if (audio.current) setTime(audio.current.currentTime);
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [playing]);

  React.useEffect(() => {
    const el = audio.current;
    return () => {
      if (el) {
        el.pause();
        releasePlayback(el);
      }
    };
  }, []);

  const play = () => {
    if (!started) {
      setStarted(true);
      return; // the effect below plays once the element has its source
    }
    const el = audio.current;
    if (!el) return;
    claimPlayback(el);
    el.play().catch((err: unknown) => {
      if (!(err instanceof DOMException && err.name === 'AbortError')) console.warn('Sound preview failed to play:', err);
    });
  };

  React.useEffect(() => {
    const el = audio.current;
    if (!started || !el) return;
    el.currentTime = pendingTime.current;
    claimPlayback(el);
    el.play().catch((err: unknown) => {
      if (!(err instanceof DOMException && err.name === 'AbortError')) console.warn('Sound preview failed to play:', err);
    });
  }, [started]);

  const pause = () => audio.current?.pause();
  const toggle = () => (playing ? pause() : play());

  const seek = (to: number, andPlay = false) => {
    const t = Math.min(Math.max(0, to), total);
    setTime(t);
    pendingTime.current = t;
    if (audio.current && started) audio.current.currentTime = t;
    if (andPlay && !playing) play();
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    const step = total * ARROW_STEP;
    const moves: Record<string, number> = {
      ArrowLeft: -step,
      ArrowDown: -step,
      ArrowRight: step,
      ArrowUp: step,
      PageDown: -4 * step,
      PageUp: 4 * step,
    };
    if (e.key in moves) seek(time + moves[e.key]);
    else if (e.key === 'Home') seek(0);
    else if (e.key === 'End') seek(total);
    else if (e.key === ' ' || e.key === 'Enter') toggle();
    else return;
    e.preventDefault();
  };

  const onPointerDown = (e: React.PointerEvent<HTMLDivElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    if (box.width <= 0) return;
    seek(((e.clientX - box.left) / box.width) * total, true);
  };

  const progress = total > 0 ? Math.min(1, time / total) : 0;
  const n = Math.max(1, peaks.length);
  const bars = React.useMemo(() => waveformPath(peaks), [peaks]);
  const full = size === 'full';

  return (
    <div className={cn('flex items-center gap-3 text-white', className)} data-testid="waveform-player" data-playing={playing ? 'true' : 'false'}>
      <button
        type="button"
        onClick={toggle}
        aria-label={`${playing ? 'Pause' : 'Play'} ${title}`}
        className={cn(
          'grid shrink-0 cursor-pointer place-items-center rounded-full bg-white text-black shadow-md transition-transform hover:scale-105 focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-white/70',
          full ? 'size-14' : 'size-10',
        )}
      >
        {playing ? <Pause aria-hidden="true" className={full ? 'size-6' : 'size-4'} /> : <Play aria-hidden="true" className={cn('translate-x-px', full ? 'size-6' : 'size-4')} />}
      </button>
      <div
        role="slider"
        tabIndex={0}
        aria-label={`Seek ${title}`}
        aria-valuemin={0}
        aria-valuemax={Math.round(total * 10) / 10}
        aria-valuenow={Math.round(time * 10) / 10}
        aria-valuetext={`${formatTime(time)} of ${formatTime(total)}`}
        onKeyDown={onKeyDown}
        onPointerDown={onPointerDown}
        className={cn(
          'relative min-w-0 flex-1 cursor-pointer touch-none rounded-md focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-white/70',
          full ? 'h-24' : 'h-12',
        )}
      >
        <svg aria-hidden="true" viewBox={`0 0 ${n} 100`} preserveAspectRatio="none" className="size-full">
          <defs>
            <clipPath id={clipId}>
              <rect x={0} y={0} width={progress * n} height={100} />
            </clipPath>
          </defs>
          <path d={bars} className="fill-white/45" />
          <path d={bars} className="fill-white" clipPath={`url(#${clipId})`} />
        </svg>
      </div>
      <span className={cn('shrink-0 tabular-nums', full ? 'text-sm' : 'text-xs')} data-testid="waveform-time">
        {formatTime(time)}
        <span className="opacity-75"> / {formatTime(total)}</span>
      </span>
      <audio
        ref={audio}
        src={started ? src : undefined}
        preload="none"
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onEnded={() => {
          setPlaying(false);
          setTime(total);
          pendingTime.current = 0;
        }}
        onTimeUpdate={(e) => setTime(e.currentTarget.currentTime)}
      />
    </div>
  );
}
