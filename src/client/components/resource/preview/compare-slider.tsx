import * as React from 'react';
import { cn } from '@/lib/utils';

/** Where the divider starts, in percent of the width. */
const START_PERCENT = 50;

/**
 * A before/after comparison: `after` fills the box, `before` covers it up to the divider. The
 * divider is a native range input stretched over the whole box (invisible), so a click or drag
 * anywhere moves it, and arrow keys, Home/End and Page Up/Down work with a screen reader's name.
 */
export function CompareSlider({
  before,
  after,
  label,
  className,
}: {
  before: React.ReactNode;
  after: React.ReactNode;
  /** Names the slider, e.g. "Before and after: Warm Film". */
  label: string;
  className?: string;
}) {
  const [position, setPosition] = React.useState(START_PERCENT);
  return (
    <div className={cn('group/compare relative isolate overflow-hidden select-none', className)} data-testid="compare-slider">
      <div className="absolute inset-0">{after}</div>
      <div className="absolute inset-0" style={{ clipPath: `inset(0 ${100 - position}% 0 0)` }} data-testid="compare-before">
        {before}
      </div>
      <span className="pointer-events-none absolute bottom-3 left-3 rounded-md bg-black/60 px-2 py-0.5 text-xs font-semibold text-white">Before</span>
      <span className="pointer-events-none absolute bottom-3 right-3 rounded-md bg-black/60 px-2 py-0.5 text-xs font-semibold text-white">After</span>
      <div aria-hidden="true" className="pointer-events-none absolute inset-y-0 w-0.5 -translate-x-1/2 bg-white shadow-[0_0_6px_rgba(0,0,0,0.6)]" style={{ left: `${position}%` }}>
        <span className="absolute left-1/2 top-1/2 grid size-9 -translate-x-1/2 -translate-y-1/2 place-items-center rounded-full border-2 border-white bg-black/55 text-sm font-bold text-white shadow-lg group-has-[:focus-visible]/compare:ring-[3px] group-has-[:focus-visible]/compare:ring-ring">
          ⇆
        </span>
      </div>
      <input
        type="range"
        min={0}
        max={100}
        step={1}
        value={position}
        onChange={(e) => setPosition(Number(e.currentTarget.value))}
        aria-label={label}
        aria-valuetext={`${position}% before`}
        className="absolute inset-0 size-full cursor-ew-resize appearance-none opacity-0"
      />
    </div>
  );
}
