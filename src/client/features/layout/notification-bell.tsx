import { formatDistanceToNow } from 'date-fns';
import { Bell, BellOff, Megaphone, X } from 'lucide-react';
import { Popover } from 'radix-ui';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { useBellAnnouncements } from './use-announcements';

/** Spec 'Notifications': up to 5 active announcements, badge of undismissed, dismiss one or 'Clear all'. */
export function NotificationBell({ className }: { className?: string }) {
  const { items, dismiss, clearAll } = useBellAnnouncements();
  const count = items.length;
  const contentRef = React.useRef<HTMLDivElement>(null);

  // The clicked button disappears with its item: keep keyboard focus inside the panel.
  const refocus = () =>
    requestAnimationFrame(() => {
      const next = contentRef.current?.querySelector<HTMLElement>('[data-dismiss]');
      (next ?? contentRef.current)?.focus();
    });

  return (
    <Popover.Root>
      <Popover.Trigger asChild>
        <Button
          variant="ghost"
          size="icon"
          aria-label={count > 0 ? `Notifications, ${count} new` : 'Notifications'}
          className={cn('relative rounded-full', className)}
        >
          <Bell className={cn('size-5', count > 0 && 'origin-top motion-safe:animate-[bell-ring_1.2s_ease-in-out_1]')} />
          {count > 0 && (
            <span
              data-slot="badge"
              aria-hidden="true"
              className="absolute -right-0.5 -top-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-gradient-to-br from-fuchsia-600 to-violet-700 px-1 text-[11px] font-bold leading-none text-white shadow-md ring-2 ring-background"
            >
              {count}
            </span>
          )}
        </Button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={10}
          collisionPadding={12}
          ref={contentRef}
          tabIndex={-1}
          aria-labelledby="notifications-title"
          className="z-50 w-[min(22rem,calc(100vw-1.5rem))] outline-none overflow-hidden rounded-2xl border bg-popover/95 text-popover-foreground shadow-2xl shadow-violet-950/10 backdrop-blur-xl data-[state=open]:animate-fade-in"
        >
          <div className="flex items-center justify-between gap-2 border-b px-4 py-3">
            <h2 id="notifications-title" className="text-sm font-semibold">
              Notifications
            </h2>
            {count > 0 && (
              <Button
                variant="ghost"
                size="sm"
                onClick={() => {
                  clearAll();
                  refocus();
                }} className="h-7 px-2 text-xs text-primary hover:text-primary">
                Clear all
              </Button>
            )}
          </div>
          {count === 0 ? (
            <div className="flex flex-col items-center gap-2 px-4 py-10 text-center text-sm text-muted-foreground">
              <span className="flex size-10 items-center justify-center rounded-full bg-muted">
                <BellOff className="size-5" aria-hidden="true" />
              </span>
              No new notifications
            </div>
          ) : (
            <ul className="max-h-[min(24rem,60vh)] divide-y overflow-y-auto">
              {items.map((a) => (
                <li key={a.id} className="group relative flex gap-3 px-4 py-3 transition-colors hover:bg-accent/50">
                  <span className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-violet-500/15 to-fuchsia-500/15 text-primary">
                    <Megaphone className="size-4" aria-hidden="true" />
                  </span>
                  <div className="min-w-0 flex-1 pr-6">
                    <p className="text-sm leading-snug break-words">{a.message}</p>
                    <time dateTime={a.created_at} className="mt-1 block text-xs text-muted-foreground">
                      {formatDistanceToNow(new Date(a.created_at), { addSuffix: true })}
                    </time>
                  </div>
                  <button
                    type="button"
                    onClick={() => {
                      dismiss(a.id);
                      refocus();
                    }}
                    data-dismiss=""
                    aria-label="Dismiss notification"
                    className="absolute right-2 top-2.5 cursor-pointer rounded-md p-1 text-muted-foreground transition-colors hover:bg-muted hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                  >
                    <X className="size-4" aria-hidden="true" />
                  </button>
                </li>
              ))}
            </ul>
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
