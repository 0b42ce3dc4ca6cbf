import * as React from 'react';
import { useLocation, useNavigationType } from 'react-router';
import { scrollToSection } from './use-site-navigation';

/**
 * Spec: on every path change the page scrolls instantly to the top. A URL hash that names an
 * element (a shared '/#categories' link, or a hash-only change) scrolls to that section instead.
 * Back and Forward return to where the visitor was on that entry (a grid left for a resource's page
 * is found as it was left).
 */
export function ScrollManager() {
  const { pathname, hash, key } = useLocation();
  const navigationType = useNavigationType();
  const lastPath = React.useRef<string | null>(null);
  /** Scroll position of each history entry seen in this tab, by location key. */
  const positions = React.useRef(new Map<string, number>());
  const currentKey = React.useRef(key);

  React.useEffect(() => {
    const onScroll = () => positions.current.set(currentKey.current, window.scrollY);
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  React.useLayoutEffect(() => {
    const firstRender = lastPath.current === null;
    const pathChanged = lastPath.current !== pathname;
    lastPath.current = pathname;
    currentKey.current = key;
    // Not on the app's first render: the page is where the browser put it, and a visitor who
    // scrolled the prerendered page before the app started must not be thrown back to the top.
    if (pathChanged && !firstRender) {
      const saved = navigationType === 'POP' ? positions.current.get(key) : undefined;
      window.scrollTo({ top: saved ?? 0, left: 0, behavior: 'instant' });
      if (saved !== undefined) return;
    }
    const id = decodeURIComponent(hash.slice(1));
    if (id) scrollToSection(id, { smooth: !pathChanged });
  }, [pathname, hash, key, navigationType]);

  return null;
}
