import { FOOTER_PROXIMITY_PX, SCROLL_HIDE_TIMER_MS } from '@contract/constants';
import { Menu } from 'lucide-react';
import * as React from 'react';
import { cn } from '@/lib/utils';
import type { NavTarget } from './nav-items';
import { useNavigateTo } from './use-site-navigation';

// The sheet (Radix Dialog) is its own chunk, fetched when the button is pointed at, focused or pressed.
const loadSheet = () => import('./mobile-nav-sheet');
const MobileNavSheet = React.lazy(loadSheet);

/** Ignore scroll jitter (momentum bounce, address-bar resize) smaller than this. */
const SCROLL_DELTA_PX = 4;

/**
 * Spec: the floating button hides when scrolling down and when the footer is within
 * FOOTER_PROXIMITY_PX of the viewport bottom. Direction is read at most once per
 * SCROLL_HIDE_TIMER_MS (with a trailing run, so the final position always counts); footer
 * proximity is watched by an IntersectionObserver, so it also holds on a page too short to scroll.
 */
function useFloatingButtonVisible(footer: HTMLElement | null) {
  const [scrolledDown, setScrolledDown] = React.useState(false);
  const [nearFooter, setNearFooter] = React.useState(false);

  React.useEffect(() => {
    let lastY = window.scrollY;
    let timer: number | undefined;
    let lastRun = 0;

    const evaluate = () => {
      timer = undefined;
      lastRun = performance.now();
      const y = window.scrollY;
      const delta = y - lastY;
      if (y <= 0) setScrolledDown(false);
      else if (delta >= SCROLL_DELTA_PX) setScrolledDown(true);
      else if (delta <= -SCROLL_DELTA_PX) setScrolledDown(false);
      if (Math.abs(delta) >= SCROLL_DELTA_PX) lastY = y;
    };

    const onScroll = () => {
      if (timer !== undefined) return;
      const wait = Math.max(0, SCROLL_HIDE_TIMER_MS - (performance.now() - lastRun));
      timer = window.setTimeout(evaluate, wait);
    };

    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      window.clearTimeout(timer);
    };
  }, []);

  React.useEffect(() => {
    if (!footer) {
      setNearFooter(false);
      return;
    }
    const io = new IntersectionObserver(([entry]) => setNearFooter(entry.isIntersecting), {
      rootMargin: `0px 0px ${FOOTER_PROXIMITY_PX}px 0px`,
    });
    io.observe(footer);
    return () => io.disconnect();
  }, [footer]);

  return !scrolledDown && !nearFooter;
}

/** Mobile (< md): a floating bottom button opening the menu as a bottom sheet. */
export function MobileNav({ footer }: { footer: HTMLElement | null }) {
  const [open, setOpen] = React.useState(false);
  // Mounted on the first open, then kept so the sheet can animate closed.
  const [opened, setOpened] = React.useState(false);
  const button = React.useRef<HTMLButtonElement>(null);
  const visible = useFloatingButtonVisible(footer);
  const navigateTo = useNavigateTo();

  const go = (target: NavTarget) => (e: React.MouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    setOpen(false);
    // After the sheet has closed and released its scroll lock, so the scroll is not swallowed.
    window.setTimeout(() => navigateTo(target), 0);
  };

  const shown = visible || open;

  return (
    <>
      <button
        ref={button}
        type="button"
        aria-label="Open menu"
        aria-haspopup="dialog"
        aria-expanded={open}
        onPointerEnter={() => void loadSheet()}
        onFocus={() => void loadSheet()}
        onClick={() => {
          setOpened(true);
          setOpen(true);
        }}
        data-state-visible={shown ? 'visible' : 'hidden'}
        tabIndex={shown ? undefined : -1}
        className={cn(
          'fixed bottom-5 left-1/2 z-40 flex h-14 -translate-x-1/2 cursor-pointer items-center gap-2 rounded-full bg-gradient-to-r from-violet-600 to-fuchsia-600 pl-5 pr-6 font-semibold text-white shadow-xl shadow-violet-900/30 ring-1 ring-white/20 transition-[translate,opacity,visibility] duration-300 outline-none focus-visible:ring-4 focus-visible:ring-ring/60 md:hidden',
          shown ? 'visible translate-y-0 opacity-100' : 'invisible translate-y-[calc(100%+2rem)] opacity-0',
        )}
      >
        <Menu className="size-5" aria-hidden="true" />
        Menu
      </button>
      {opened && (
        <React.Suspense fallback={null}>
          <MobileNavSheet open={open} onOpenChange={setOpen} trigger={button} go={go} />
        </React.Suspense>
      )}
    </>
  );
}
