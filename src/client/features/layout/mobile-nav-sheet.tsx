import { X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import type * as React from 'react';
import { cn } from '@/lib/utils';
import { hrefFor, navItemsFor, type NavTarget } from './nav-items';

const ITEMS = navItemsFor('mobile');

export interface MobileNavSheetProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** The floating button: focus goes back to it when the sheet closes. */
  trigger: React.RefObject<HTMLButtonElement | null>;
  go(target: NavTarget): (e: React.MouseEvent<HTMLAnchorElement>) => void;
}

/** The mobile menu's bottom sheet (its own chunk: the dialog code loads on the first open, not with the page). */
export default function MobileNavSheet({ open, onOpenChange, trigger, go }: MobileNavSheetProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/50 backdrop-blur-sm data-[state=open]:animate-fade-in md:hidden" />
        <Dialog.Content
          onCloseAutoFocus={(e) => {
            e.preventDefault();
            trigger.current?.focus();
          }}
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
