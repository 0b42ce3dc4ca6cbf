import { COUNTER_DURATION_MS, COUNTER_FPS, COUNTER_VISIBILITY_THRESHOLD } from '@contract/constants';
import * as React from 'react';

const STEPS = Math.round((COUNTER_DURATION_MS / 1000) * COUNTER_FPS);
const STEP_MS = 1000 / COUNTER_FPS;

const prefersReducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/**
 * Counts from 0 up to `target` in COUNTER_FPS steps per second over COUNTER_DURATION_MS once the
 * element is at least COUNTER_VISIBILITY_THRESHOLD visible, and back to 0 when it leaves view,
 * so it plays again next time. Steps follow the clock, not the frame rate, so a slow device
 * still finishes on time. Reduced motion shows the figure at once.
 *
 * The element renders `format(0)` as its only text; each step writes the text node directly
 * (`format(value)`) instead of re-rendering the component 60 times a second.
 */
export function useCountUp<E extends Element>(target: number, format: (value: number) => string) {
  const ref = React.useRef<E>(null);
  const formatRef = React.useRef(format);
  React.useLayoutEffect(() => {
    formatRef.current = format;
  });

  React.useEffect(() => {
    const el = ref.current;
    if (!el) return;
    let shown = '';
    const setValue = (value: number) => {
      const text = formatRef.current(value);
      if (text === shown) return;
      shown = text;
      const node = el.firstChild;
      if (node instanceof Text && !node.nextSibling) node.nodeValue = text;
      else el.textContent = text;
    };
    let frame = 0;
    // Dipping under the threshold while still on screen must not restart the count.
    let counted = false;
    const stop = () => cancelAnimationFrame(frame);
    const start = () => {
      stop();
      if (prefersReducedMotion()) return setValue(target);
      const startedAt = performance.now();
      const tick = (now: number) => {
        const step = Math.min(STEPS, Math.floor((now - startedAt) / STEP_MS));
        setValue(step >= STEPS ? target : (target * step) / STEPS);
        if (step < STEPS) frame = requestAnimationFrame(tick);
      };
      setValue(0);
      frame = requestAnimationFrame(tick);
    };
    const observer = new IntersectionObserver(
      ([entry]) => {
        if (entry.isIntersecting && entry.intersectionRatio >= COUNTER_VISIBILITY_THRESHOLD && !counted) {
          counted = true;
          start();
        } else if (!entry.isIntersecting) {
          counted = false;
          stop();
          setValue(0);
        }
      },
      { threshold: [0, COUNTER_VISIBILITY_THRESHOLD] },
    );
    observer.observe(el);
    return () => {
      stop();
      observer.disconnect();
    };
  }, [target]);

  return ref;
}
