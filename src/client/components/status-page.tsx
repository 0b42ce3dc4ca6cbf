import type { LucideIcon } from 'lucide-react';
import type * as React from 'react';
import { Link } from '@/lib/link';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';

const GLOWS = {
  /** A soft violet orb behind the middle of the page. */
  orb: 'left-1/2 top-1/3 size-[32rem] -translate-x-1/2 -translate-y-1/2 rounded-full bg-gradient-to-br from-violet-500/20 to-fuchsia-500/10 blur-3xl',
  /** A violet band fading down from the top. */
  band: 'inset-x-0 top-0 h-72 bg-gradient-to-b from-violet-500/10 via-fuchsia-500/5 to-transparent',
} as const;

/** A page's `main` (the skip link's target) with the site's violet glow behind its content. */
export function GlowMain({ glow, className, children }: { glow?: keyof typeof GLOWS; className?: string; children: React.ReactNode }) {
  return (
    <main id="main" className={cn('relative isolate', className)}>
      {glow ? <div aria-hidden="true" className={cn('pointer-events-none absolute -z-10', GLOWS[glow])} /> : null}
      {children}
    </main>
  );
}

/**
 * The page that says one thing and offers the way on: a 404, a render that failed, an expired
 * download link. One shell for all of them (decision 374).
 */
export function StatusPage({
  variant = 'page',
  icon: Icon,
  mark,
  title,
  children,
  actions,
  glow = true,
  fullScreen = false,
}: {
  /** page: a page of its own; error: the same, announced as an alert, in red; panel: a page's own smaller 404. */
  variant?: 'page' | 'error' | 'panel';
  icon?: LucideIcon;
  /** Shown large above everything (the "404"). */
  mark?: React.ReactNode;
  title: string;
  /** The message under the title. */
  children: React.ReactNode;
  /** The buttons, in a row (a column on phones). */
  actions: React.ReactNode;
  glow?: boolean;
  /** Fills the screen: shown without the site's header and footer. */
  fullScreen?: boolean;
}) {
  const panel = variant === 'panel';
  const error = variant === 'error';
  return (
    <GlowMain
      glow={glow && !panel ? 'orb' : undefined}
      className={cn(
        panel ? 'flex min-h-[70vh] flex-col items-center justify-center px-4 py-24' : 'flex flex-1 items-center justify-center overflow-hidden px-6 py-24',
        fullScreen && 'min-h-dvh',
      )}
    >
      <div role={error ? 'alert' : undefined} className={cn('max-w-lg text-center', panel && 'flex flex-col items-center')}>
        {mark}
        {Icon ? (
          <span
            className={cn(
              'mx-auto flex items-center justify-center rounded-2xl',
              error ? 'size-14 bg-destructive/10 text-destructive' : 'size-12 bg-primary/10 text-primary',
              mark !== undefined && 'mt-6',
            )}
          >
            <Icon className={error ? 'size-7' : 'size-6'} aria-hidden="true" />
          </span>
        ) : null}
        <h1 className={cn('text-3xl font-bold tracking-tight', panel ? 'mt-4' : error ? 'mt-6 sm:text-4xl' : 'mt-5 sm:text-4xl')}>{title}</h1>
        <p className={cn('text-muted-foreground', panel ? 'mt-3 max-w-md' : 'mt-4')}>{children}</p>
        <div className="mt-8 flex flex-col items-center justify-center gap-3 sm:flex-row">{actions}</div>
      </div>
    </GlowMain>
  );
}

/**
 * One of a status page's buttons: a link in the app (`to`), a full page load (`href`: a fresh start
 * after a failure) or an action (`onClick`).
 */
export function StatusAction({
  icon: Icon,
  variant = 'gradient',
  children,
  ...target
}: { icon: LucideIcon; variant?: 'gradient' | 'outline'; children: React.ReactNode } & ({ to: string } | { href: string } | { onClick: () => void })) {
  const content = (
    <>
      <Icon aria-hidden="true" />
      {children}
    </>
  );
  if ('onClick' in target) {
    return (
      <Button variant={variant} size="lg" className="rounded-full" onClick={target.onClick}>
        {content}
      </Button>
    );
  }
  return (
    <Button asChild variant={variant} size="lg" className="rounded-full">
      {'to' in target ? <Link to={target.to}>{content}</Link> : <a href={target.href}>{content}</a>}
    </Button>
  );
}
