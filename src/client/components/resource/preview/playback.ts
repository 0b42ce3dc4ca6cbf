import * as React from 'react';

/**
 * One sound at a time on the page: starting a sound pauses the one playing, wherever it is (a
 * card, the preview dialog).
 */
let current: HTMLMediaElement | null = null;

export function claimPlayback(media: HTMLMediaElement) {
  if (current && current !== media && !current.paused) current.pause();
  current = media;
}

export function releasePlayback(media: HTMLMediaElement) {
  if (current === media) current = null;
}

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

function subscribeReducedMotion(onChange: () => void) {
  const mq = window.matchMedia(REDUCED_MOTION);
  mq.addEventListener('change', onChange);
  return () => mq.removeEventListener('change', onChange);
}

/** The visitor asked for less motion: nothing plays unless they start it. */
export function useReducedMotion(): boolean {
  return React.useSyncExternalStore(
    subscribeReducedMotion,
    () => window.matchMedia(REDUCED_MOTION).matches,
    () => true,
  );
}

/** 83.4 → "1:23"; under ten seconds with a tenth: "0:04.2" reads better for short effects. */
export function formatTime(seconds: number): string {
  const s = Math.max(0, Number.isFinite(seconds) ? seconds : 0);
  const m = Math.floor(s / 60);
  const rest = s - m * 60;
  if (m === 0 && s < 10) return `0:0${rest.toFixed(1)}`;
  return `${m}:${String(Math.floor(rest)).padStart(2, '0')}`;
}
