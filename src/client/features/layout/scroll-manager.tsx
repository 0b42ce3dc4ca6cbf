import * as React from 'react';
import { useLocation } from 'react-router';
import { scrollToSection } from './use-site-navigation';

/**
 * Spec: on every path change the page scrolls instantly to the top. A URL hash that names an
 * element (a shared '/#categories' link, or a hash-only change) scrolls to that section instead.
 */
export function ScrollManager() {
  const { pathname, hash } = useLocation();
  const lastPath = React.useRef<string | null>(null);

  React.useLayoutEffect(() => {
    const firstRender = lastPath.current === null;
    const pathChanged = lastPath.current !== pathname;
    lastPath.current = pathname;
    // Not on the app's first render: the page is where the browser put it, and a visitor who
    // scrolled the prerendered page before the app started must not be thrown back to the top.
    if (pathChanged && !firstRender) window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
    const id = decodeURIComponent(hash.slice(1));
    if (id) scrollToSection(id, { smooth: !pathChanged });
  }, [pathname, hash]);

  return null;
}
