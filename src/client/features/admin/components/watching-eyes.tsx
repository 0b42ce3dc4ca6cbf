import * as React from 'react';

/** How far a pupil may travel from the eye's centre, in px. */
const PUPIL_TRAVEL = 9;

/**
 * Two decorative eyes whose pupils follow the pointer (spec). Pupils move by direct style
 * updates once per animation frame: no React render per mouse move.
 */
export function WatchingEyes() {
  const eyes = [React.useRef<HTMLDivElement>(null), React.useRef<HTMLDivElement>(null)];
  const pupils = [React.useRef<HTMLDivElement>(null), React.useRef<HTMLDivElement>(null)];

  React.useEffect(() => {
    let frame = 0;
    let pointer: { x: number; y: number } | null = null;
    const update = () => {
      frame = 0;
      if (!pointer) return;
      eyes.forEach((eye, i) => {
        const pupil = pupils[i].current;
        const box = eye.current?.getBoundingClientRect();
        if (!pupil || !box) return;
        const dx = pointer!.x - (box.left + box.width / 2);
        const dy = pointer!.y - (box.top + box.height / 2);
        const distance = Math.hypot(dx, dy);
        // Near the eye the pupil moves proportionally, further away it rests at the rim.
        const travel = Math.min(PUPIL_TRAVEL, distance / 8);
        const angle = Math.atan2(dy, dx);
        pupil.style.transform = `translate(${Math.cos(angle) * travel}px, ${Math.sin(angle) * travel}px)`;
      });
    };
    const onMove = (e: PointerEvent) => {
      pointer = { x: e.clientX, y: e.clientY };
      if (!frame) frame = requestAnimationFrame(update);
    };
    window.addEventListener('pointermove', onMove, { passive: true });
    return () => {
      window.removeEventListener('pointermove', onMove);
      if (frame) cancelAnimationFrame(frame);
    };
    // The refs are stable for the component's life.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <div aria-hidden="true" className="flex justify-center gap-4" data-testid="watching-eyes">
      {[0, 1].map((i) => (
        <div
          key={i}
          ref={eyes[i]}
          className="relative grid size-14 place-items-center rounded-full border-4 border-violet-900/80 bg-white shadow-inner dark:border-violet-300/70"
        >
          <div
            ref={pupils[i]}
            data-pupil=""
            className="relative size-6 rounded-full bg-gradient-to-br from-violet-700 to-slate-950 transition-transform duration-75 ease-out"
          >
            <span className="absolute left-1 top-1 size-2 rounded-full bg-white/90" />
          </div>
        </div>
      ))}
    </div>
  );
}
