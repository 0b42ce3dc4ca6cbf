import {
  CURSOR_FOLLOW_EASING,
  CURSOR_FOLLOWERS_WHEN_IDLE,
  CURSOR_IDLE_DELAY_MS,
  CURSOR_SCALE_STEP,
  CURSOR_SIZE_PX,
  CURSOR_TRAIL_COUNT,
  CURSOR_WOBBLE_MAX_MS,
  CURSOR_WOBBLE_SPEED,
} from '@contract/constants';
import * as React from 'react';

const HALF = CURSOR_SIZE_PX / 2;
const OFFSCREEN = -CURSOR_SIZE_PX * 4;

/** How far the idle (wobbling) dots drift from the last follower, growing along the tail. */
const WOBBLE_RADIUS_BASE_PX = 6;
const WOBBLE_RADIUS_STEP_PX = 2.5;

/** Over its last this-many ms the wobble slows to a stop. */
const WOBBLE_EASE_OUT_MS = 1000;
/** The trail is still when no dot moves more than this in a frame: the loop stops. */
const SETTLED_PX = 0.05;

const DOTS = Array.from({ length: CURSOR_TRAIL_COUNT }, (_, i) => i);

/**
 * Spec section 9: a trail of dots easing after the mouse, each smaller than the one before.
 * When the mouse rests, the first few keep following and the rest wobble around.
 * One requestAnimationFrame loop writing transforms only (no layout reads); it stops while the
 * tab is hidden or the pointer is outside the window, and once the wobble of a resting pointer has
 * slowed to a stop after CURSOR_WOBBLE_MAX_MS, the dots resting around the pointer (decision 458: a
 * resting mouse kept it drawing 60 frames a second for as long as the page stayed open).
 *
 * It decorates, so it never hides what the pointer is on: the dots are thin translucent rings
 * with a clear middle, drawn above the page but below the header, the mobile menu button,
 * popovers, dialogs and toasts (z-index between the sticky filter bar's 30 and the header's 40).
 */
export default function CustomCursor() {
  const rootRef = React.useRef<HTMLDivElement>(null);

  React.useEffect(() => {
    const root = rootRef.current;
    if (!root) return;
    const dots = Array.from(root.children) as HTMLElement[];
    const points = dots.map(() => ({ x: OFFSCREEN, y: OFFSCREEN }));
    const mouse = { x: OFFSCREEN, y: OFFSCREEN };
    let lastMove = 0;
    let angle = 0;
    let raf = 0;
    let inside = false;

    const frame = (now: number) => {
      const idle = now - lastMove > CURSOR_IDLE_DELAY_MS;
      // Full speed, then slower over the wobble's last second, then none.
      const left = CURSOR_IDLE_DELAY_MS + CURSOR_WOBBLE_MAX_MS - (now - lastMove);
      const speed = idle ? CURSOR_WOBBLE_SPEED * Math.min(1, Math.max(0, left / WOBBLE_EASE_OUT_MS)) : CURSOR_WOBBLE_SPEED;
      angle += speed;
      const anchor = points[CURSOR_FOLLOWERS_WHEN_IDLE - 1];
      let moved = 0;
      for (let i = 0; i < points.length; i++) {
        const p = points[i];
        let tx: number;
        let ty: number;
        if (i === 0) {
          tx = mouse.x;
          ty = mouse.y;
        } else if (!idle || i < CURSOR_FOLLOWERS_WHEN_IDLE) {
          tx = points[i - 1].x;
          ty = points[i - 1].y;
        } else {
          const k = i - CURSOR_FOLLOWERS_WHEN_IDLE + 1;
          const r = WOBBLE_RADIUS_BASE_PX + k * WOBBLE_RADIUS_STEP_PX;
          const a = angle * (1 + k * 0.07) + i;
          tx = anchor.x + Math.cos(a) * r;
          ty = anchor.y + Math.sin(a * 1.3) * r;
        }
        const dx = (tx - p.x) * CURSOR_FOLLOW_EASING;
        const dy = (ty - p.y) * CURSOR_FOLLOW_EASING;
        p.x += dx;
        p.y += dy;
        moved = Math.max(moved, Math.abs(dx), Math.abs(dy));
        dots[i].style.transform = `translate3d(${p.x - HALF}px, ${p.y - HALF}px, 0) scale(${Math.max(0, 1 - i * CURSOR_SCALE_STEP)})`;
      }
      // Past its wobble, a still trail rests until the next move (onMove starts the loop again). The
      // wobbling dots stay around the pointer: gathered on it, they would cover what it points at.
      raf = idle && speed === 0 && moved < SETTLED_PX ? 0 : requestAnimationFrame(frame);
    };

    const start = () => {
      if (!raf && inside && document.visibilityState === 'visible') raf = requestAnimationFrame(frame);
    };
    const stop = () => {
      cancelAnimationFrame(raf);
      raf = 0;
    };

    const onMove = (e: PointerEvent) => {
      if (e.pointerType && e.pointerType !== 'mouse') return;
      mouse.x = e.clientX;
      mouse.y = e.clientY;
      lastMove = performance.now();
      if (!inside) {
        inside = true;
        // Appear at the pointer rather than flying in from the corner.
        for (const p of points) {
          p.x = mouse.x;
          p.y = mouse.y;
        }
        root.dataset.active = 'true';
      }
      start();
    };
    const onLeave = (e: MouseEvent) => {
      if (e.relatedTarget) return;
      inside = false;
      root.dataset.active = 'false';
      stop();
    };
    const onVisibility = () => (document.visibilityState === 'visible' ? start() : stop());

    window.addEventListener('pointermove', onMove, { passive: true });
    document.documentElement.addEventListener('mouseout', onLeave);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      stop();
      window.removeEventListener('pointermove', onMove);
      document.documentElement.removeEventListener('mouseout', onLeave);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, []);

  return (
    <div
      ref={rootRef}
      aria-hidden="true"
      data-custom-cursor=""
      data-active="false"
      className="pointer-events-none fixed inset-0 z-[35] overflow-hidden opacity-0 transition-opacity duration-300 data-[active=true]:opacity-100"
    >
      {DOTS.map((i) => (
        <div
          key={i}
          className="pointer-events-none absolute left-0 top-0 rounded-full border-[1.5px] border-fuchsia-500/70 shadow-[0_0_4px_rgb(168_85_247/0.2)] will-change-transform dark:border-fuchsia-300/70"
          style={{
            width: CURSOR_SIZE_PX,
            height: CURSOR_SIZE_PX,
            opacity: 0.8 - (i / CURSOR_TRAIL_COUNT) * 0.6,
            transform: `translate3d(${OFFSCREEN}px, ${OFFSCREEN}px, 0)`,
          }}
        />
      ))}
    </div>
  );
}
