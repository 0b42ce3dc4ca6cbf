import { House, RotateCw, TriangleAlert } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { paths } from '@/lib/paths';
import { useSiteName } from '@/lib/site-api';
import { cn } from '@/lib/utils';

/**
 * What a route shows when it fails to render or its code fails to load, instead of a blank or
 * broken screen: a page that says so, a retry and a way home. Both are full page loads: a fresh
 * start, with the current code and data. The error itself is logged once (see AppRouter).
 */
function ErrorPage({ fullScreen }: { fullScreen: boolean }) {
  const siteName = useSiteName();
  React.useEffect(() => {
    document.title = `Something went wrong - ${siteName}`;
  }, [siteName]);
  return (
    <main
      id="main"
      className={cn('relative isolate flex flex-1 items-center justify-center overflow-hidden px-6 py-24', fullScreen && 'min-h-dvh')}
    >
      <div
        aria-hidden="true"
        className="pointer-events-none absolute left-1/2 top-1/3 -z-10 size-[32rem] -translate-x-1/2 -translate-y-1/2 rounded-full bg-gradient-to-br from-violet-500/20 to-fuchsia-500/10 blur-3xl"
      />
      <div role="alert" className="max-w-lg text-center">
        <span className="mx-auto flex size-14 items-center justify-center rounded-2xl bg-destructive/10 text-destructive">
          <TriangleAlert className="size-7" aria-hidden="true" />
        </span>
        <h1 className="mt-6 text-3xl font-bold tracking-tight sm:text-4xl">Something went wrong</h1>
        <p className="mt-4 text-muted-foreground">
          This page could not be shown. Try again in a moment, or head back to the home page.
        </p>
        <div className="mt-8 flex flex-col items-center justify-center gap-3 sm:flex-row">
          <Button variant="gradient" size="lg" className="rounded-full" onClick={() => window.location.reload()}>
            <RotateCw aria-hidden="true" />
            Try Again
          </Button>
          <Button asChild variant="outline" size="lg" className="rounded-full">
            <a href={paths.home}>
              <House aria-hidden="true" />
              Back to Home
            </a>
          </Button>
        </div>
      </div>
    </main>
  );
}

/** A public page that failed: shown inside the site's header and footer. */
export function PageError() {
  return <ErrorPage fullScreen={false} />;
}

/** Anything else that failed (the layout itself, the admin area): a page of its own. */
export function AppError() {
  return <ErrorPage fullScreen />;
}
