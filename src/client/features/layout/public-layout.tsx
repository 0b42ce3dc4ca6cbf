import * as React from 'react';
import { Outlet, useLocation } from 'react-router';
import { cn } from '@/lib/utils';
import { Footer } from './footer';
import { Header } from './header';
import { MobileNav } from './mobile-nav';
import { isHome } from './use-site-navigation';
import './layout.css';

function focusMain(e: React.MouseEvent<HTMLAnchorElement>) {
  const main = document.querySelector('main');
  if (!main) return;
  e.preventDefault();
  if (!main.hasAttribute('tabindex')) main.setAttribute('tabindex', '-1');
  main.focus();
}

/** The public site's frame: floating header (menu, admin, theme, bell), page, footer (not on home), mobile menu. */
export function PublicLayout() {
  const { pathname } = useLocation();
  const home = isHome(pathname);
  // State, not a ref: the mobile nav re-observes when the footer appears or goes (home has none).
  // Set in a transition: a state update from a ref callback is otherwise rendered synchronously
  // inside the commit that attached it (the hydration's), re-rendering the whole layout there.
  const [footer, setFooter] = React.useState<HTMLElement | null>(null);
  const footerRef = React.useCallback((el: HTMLElement | null) => React.startTransition(() => setFooter(el)), []);

  return (
    <div className="flex min-h-dvh flex-col [&_[id]]:scroll-mt-20">
      <a
        href="#main"
        onClick={focusMain}
        className="sr-only z-50 rounded-md bg-primary px-4 py-2 text-primary-foreground focus:not-sr-only focus:fixed focus:left-3 focus:top-3"
      >
        Skip to content
      </a>
      <Header />
      <div className={cn('flex flex-1 flex-col', !home && 'pt-16')}>
        <Outlet />
      </div>
      {!home && <Footer ref={footerRef} />}
      <MobileNav footer={footer} />
    </div>
  );
}
