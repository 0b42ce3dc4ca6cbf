import { CROSS_PAGE_SCROLL_DELAY_MS } from '@contract/constants';
import * as React from 'react';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '@/lib/paths';
import type { NavTarget } from './nav-items';

const prefersReducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/** How long to keep looking for a section that renders after its data (e.g. a lazy home section). */
const SECTION_WAIT_ATTEMPTS = 20;

/**
 * Scrolls to the element with this id. The element may not exist yet right after a route
 * change, so it is looked for again every CROSS_PAGE_SCROLL_DELAY_MS for a short while.
 */
export function scrollToSection(id: string, opts: { smooth?: boolean } = {}) {
  let attempts = SECTION_WAIT_ATTEMPTS;
  const tryScroll = () => {
    const el = document.getElementById(id);
    if (el) {
      el.scrollIntoView({ behavior: opts.smooth !== false && !prefersReducedMotion() ? 'smooth' : 'auto', block: 'start' });
      return;
    }
    if (--attempts > 0) window.setTimeout(tryScroll, CROSS_PAGE_SCROLL_DELAY_MS);
  };
  tryScroll();
}

export const isHome = (pathname: string) => pathname === paths.home;

/** Spec 'Layout and navigation': hash targets scroll (from elsewhere: go home, then scroll); paths navigate. */
export function useNavigateTo() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  return React.useCallback(
    (target: NavTarget) => {
      if (!target.startsWith('#')) {
        navigate(target);
        return;
      }
      const id = target.slice(1);
      if (isHome(pathname)) {
        scrollToSection(id);
        return;
      }
      navigate(paths.home);
      window.setTimeout(() => scrollToSection(id), CROSS_PAGE_SCROLL_DELAY_MS);
    },
    [navigate, pathname],
  );
}

/** Spec: 'Back' goes back in history when there is somewhere to go back to, else home. */
export function useGoBack() {
  const navigate = useNavigate();
  return React.useCallback(() => {
    if (window.history.length > 2) navigate(-1);
    else navigate(paths.home);
  }, [navigate]);
}

/** Click handler for an <a href> that keeps modified clicks (new tab, new window) native. */
export function useNavLinkClick() {
  const navigateTo = useNavigateTo();
  return React.useCallback(
    (target: NavTarget, after?: () => void) => (e: React.MouseEvent<HTMLAnchorElement>) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      e.preventDefault();
      after?.();
      navigateTo(target);
    },
    [navigateTo],
  );
}
