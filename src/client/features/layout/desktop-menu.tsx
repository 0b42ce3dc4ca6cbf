import { ArrowLeft, Menu, X } from 'lucide-react';
import { Popover } from 'radix-ui';
import * as React from 'react';
import { useLocation } from 'react-router';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { hrefFor, navItemsFor } from './nav-items';
import { isHome, useGoBack, useNavLinkClick } from './use-site-navigation';

const ITEMS = navItemsFor('desktop');

const triggerClass = 'rounded-full';

/** Spec: on the home page the menu button toggles the menu; elsewhere it acts as Back. */
export function DesktopMenuButton() {
  const { pathname } = useLocation();
  const goBack = useGoBack();
  if (!isHome(pathname)) {
    return (
      <Button variant="ghost" size="icon" aria-label="Go back" onClick={goBack} className={triggerClass}>
        <ArrowLeft className="size-5" aria-hidden="true" />
      </Button>
    );
  }
  return <DesktopMenu />;
}

function DesktopMenu() {
  const [open, setOpen] = React.useState(false);
  const onLinkClick = useNavLinkClick();
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger asChild>
        <Button variant="ghost" size="icon" aria-label={open ? 'Close menu' : 'Open menu'} className={triggerClass}>
          <Menu className={cn('size-5 transition-all', open ? 'rotate-90 scale-0' : 'rotate-0 scale-100')} aria-hidden="true" />
          <X className={cn('absolute size-5 transition-all', open ? 'rotate-0 scale-100' : '-rotate-90 scale-0')} aria-hidden="true" />
        </Button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="start"
          sideOffset={10}
          aria-label="Site menu"
          className="z-50 w-64 rounded-2xl border bg-popover/95 p-2 text-popover-foreground shadow-2xl shadow-violet-950/10 backdrop-blur-xl data-[state=open]:animate-fade-in"
        >
          <nav aria-label="Main">
            <ul className="grid gap-0.5">
              {ITEMS.map(({ label, target, icon: Icon, highlight }) => (
                <li key={label}>
                  <a
                    href={hrefFor(target)}
                    onClick={onLinkClick(target, () => setOpen(false))}
                    className={cn(
                      'group flex items-center gap-3 rounded-xl px-3 py-2.5 text-sm font-medium outline-none transition-colors hover:bg-accent hover:text-accent-foreground focus-visible:bg-accent focus-visible:ring-2 focus-visible:ring-ring',
                      highlight && 'mt-1 bg-gradient-to-r from-violet-500/10 to-fuchsia-500/10',
                    )}
                  >
                    <span
                      className={cn(
                        'flex size-8 items-center justify-center rounded-lg transition-colors',
                        highlight
                          ? 'bg-gradient-to-br from-violet-600 to-fuchsia-600 text-white'
                          : 'bg-muted text-muted-foreground group-hover:bg-background group-hover:text-primary',
                      )}
                    >
                      <Icon className="size-4" aria-hidden="true" />
                    </span>
                    <span className="flex-1">{label}</span>
                    {highlight && (
                      <span className="rounded-full bg-fuchsia-600 px-2 py-0.5 text-[10px] font-bold uppercase tracking-wide text-white">New</span>
                    )}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
