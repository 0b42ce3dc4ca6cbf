import { FOOTER_PROXIMITY_PX, SCROLL_HIDE_TIMER_MS } from '@contract/constants';
import { Menu, X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import * as React from 'react';
import { cn } from '@/lib/utils';
import { hrefFor, navItemsFor, type NavTarget } from './nav-items';
import { useNavigateTo } from './use-site-navigation';

const ITEMS = navItemsFor('mobile');

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
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <button
          type="button"
          aria-label="Open menu"
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
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/50 backdrop-blur-sm data-[state=open]:animate-fade-in md:hidden" />
        <Dialog.Content
          className="fixed inset-x-0 bottom-0 z-50 max-h-[85vh] overflow-y-auto rounded-t-3xl border-t bg-background/95 px-5 pb-[max(1.5rem,env(safe-area-inset-bottom))] pt-3 shadow-2xl backdrop-blur-xl data-[state=open]:animate-[sheet-up_0.3s_cubic-bezier(0.32,0.72,0,1)] md:hidden"
        >
          <div aria-hidden="true" className="mx-auto mb-4 h-1.5 w-12 rounded-full bg-muted-foreground/30" />
          <div className="mb-4 flex items-center justify-between">
            <Dialog.Title className="text-lg font-semibold">Menu</Dialog.Title>
            <Dialog.Close
              aria-label="Close menu"
              className="flex size-9 cursor-pointer items-center justify-center rounded-full bg-muted text-muted-foreground transition-colors hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              <X className="size-5" aria-hidden="true" />
            </Dialog.Close>
          </div>
          <Dialog.Description className="sr-only">Jump to a section or page</Dialog.Description>
          <nav aria-label="Main">
            <ul className="grid grid-cols-2 gap-2.5">
              {ITEMS.map(({ label, target, icon: Icon, highlight }) => (
                <li key={label} className={cn(highlight && 'col-span-2')}>
                  <a
                    href={hrefFor(target)}
                    onClick={go(target)}
                    className={cn(
                      'flex items-center gap-3 rounded-2xl border p-3.5 text-sm font-medium shadow-sm outline-none transition-[background-color,filter,scale] active:scale-[0.98] focus-visible:ring-2 focus-visible:ring-ring',
                      highlight
                        ? 'border-transparent bg-gradient-to-r from-violet-600 to-fuchsia-600 text-white hover:brightness-110'
                        : 'bg-card hover:bg-accent',
                    )}
                  >
                    <span
                      className={cn(
                        'flex size-9 items-center justify-center rounded-xl',
                        highlight ? 'bg-white/20 text-white' : 'bg-primary/10 text-primary',
                      )}
                    >
                      <Icon className="size-5" aria-hidden="true" />
                    </span>
                    {label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
