import { ShieldUser } from 'lucide-react';
import * as React from 'react';
import { useLocation } from 'react-router';
import { Link } from '@/lib/link';
import { Button } from '@/components/ui/button';
import { ClientOnly } from '@/lib/hydration';
import { paths } from '@/lib/paths';
import { useFavicon, useSite, useSiteName } from '@/lib/site-api';
import { cn } from '@/lib/utils';
import { HeaderSearch } from './header-search';
import { isHome } from './use-site-navigation';

// The popover/menu widgets (Radix popper, floating-ui, date-fns) load as their own chunk right after
// the first render, keeping the initial bundle within its budget; a same-sized slot holds their place.
const DesktopMenuButton = React.lazy(() => import('./desktop-menu').then((m) => ({ default: m.DesktopMenuButton })));
const NotificationBell = React.lazy(() => import('./notification-bell').then((m) => ({ default: m.NotificationBell })));
const ThemeToggle = React.lazy(() => import('./theme-toggle').then((m) => ({ default: m.ThemeToggle })));

function IconSlot() {
  return <span aria-hidden="true" className="inline-block size-10 shrink-0" />;
}

/** Browser-only (theme, dismissed announcements): the server and the hydration render show the slot. */
function Deferred({ children }: { children: React.ReactNode }) {
  return (
    <ClientOnly fallback={<IconSlot />}>
      <React.Suspense fallback={<IconSlot />}>{children}</React.Suspense>
    </ClientOnly>
  );
}

/** Past this the header gets its frosted background; above it, the home hero shows through. */
const SOLID_AFTER_PX = 8;

function useScrolled() {
  // Starts as the server rendered it (top of the page); the effect reads the real position.
  const [scrolled, setScrolled] = React.useState(false);
  React.useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > SOLID_AFTER_PX);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  return scrolled;
}

export function Header() {
  const { pathname } = useLocation();
  const siteName = useSiteName();
  const logo = useSite().data?.logo;
  useFavicon(useSite().data?.favicon ?? null);
  const scrolled = useScrolled();
  const transparent = isHome(pathname) && !scrolled;

  return (
    <header
      className={cn(
        'fixed inset-x-0 top-0 z-40 transition-[background-color,border-color,box-shadow,backdrop-filter] duration-300',
        transparent
          ? 'border-b border-transparent bg-transparent'
          : 'border-b border-border/60 bg-background/70 shadow-sm shadow-black/[0.03] backdrop-blur-xl backdrop-saturate-150',
      )}
    >
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-2 px-3 sm:px-4 lg:px-8">
        <div className="hidden items-center gap-1 md:flex">
          <Deferred>
            <DesktopMenuButton />
          </Deferred>
          <Button asChild variant="ghost" size="icon" className="rounded-full">
            <Link to={paths.admin.login} aria-label="Admin">
              <ShieldUser className="size-5" aria-hidden="true" />
            </Link>
          </Button>
          <span aria-hidden="true" className="mx-2 h-6 w-px bg-border" />
        </div>
        <Link
          to={paths.home}
          className="group flex items-center gap-2 rounded-full pr-2 font-bold tracking-tight outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          {logo ? (
            <img
              src={logo.src}
              srcSet={logo.srcset}
              sizes="32px"
              width={logo.width}
              height={logo.height}
              alt=""
              className="size-8 rounded-xl object-contain transition-transform group-hover:rotate-6"
            />
          ) : (
            <span
              aria-hidden="true"
              className="flex size-8 items-center justify-center rounded-xl bg-gradient-to-br from-violet-600 to-fuchsia-600 text-sm text-white shadow-md shadow-violet-600/30 transition-transform group-hover:rotate-6"
            >
              {siteName.charAt(0)}
            </span>
          )}
          <span className="text-foreground">{siteName}</span>
        </Link>
        <div className="ml-auto flex items-center gap-1 md:ml-0 md:flex-1 md:justify-end">
          <HeaderSearch />
          <Deferred>
            <ThemeToggle />
          </Deferred>
          <Deferred>
            <NotificationBell />
          </Deferred>
        </div>
      </div>
    </header>
  );
}
