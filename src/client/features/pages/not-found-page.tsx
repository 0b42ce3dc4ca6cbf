import { ArrowLeft, Compass, Users } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { Button } from '@/components/ui/button';
import { paths } from '@/lib/paths';
import { usePageMeta } from '@/lib/site-api';

export default function NotFoundPage() {
  const { pathname } = useLocation();
  usePageMeta(pathname);

  return (
    <main id="main" className="relative isolate flex flex-1 items-center justify-center overflow-hidden px-6 py-24">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute left-1/2 top-1/3 -z-10 size-[32rem] -translate-x-1/2 -translate-y-1/2 rounded-full bg-gradient-to-br from-violet-500/20 to-fuchsia-500/10 blur-3xl"
      />
      <div className="max-w-lg text-center">
        <p
          aria-hidden="true"
          className="select-none bg-gradient-to-b from-violet-600 to-fuchsia-500 bg-clip-text text-8xl font-black tracking-tighter text-transparent sm:text-9xl dark:from-violet-400 dark:to-fuchsia-400"
        >
          404
        </p>
        <span className="mx-auto mt-6 flex size-12 items-center justify-center rounded-2xl bg-primary/10 text-primary">
          <Compass className="size-6" aria-hidden="true" />
        </span>
        <h1 className="mt-5 text-3xl font-bold tracking-tight sm:text-4xl">Page not found</h1>
        <p className="mt-4 text-muted-foreground">
          The page you&apos;re looking for doesn&apos;t exist or has been moved. Let&apos;s get you back to the good stuff.
        </p>
        <div className="mt-8 flex flex-col items-center justify-center gap-3 sm:flex-row">
          <Button asChild variant="gradient" size="lg" className="rounded-full">
            <Link to={paths.home}>
              <ArrowLeft aria-hidden="true" />
              Back to Home
            </Link>
          </Button>
          <Button asChild variant="outline" size="lg" className="rounded-full">
            <Link to={paths.community}>
              <Users aria-hidden="true" />
              Join the Community
            </Link>
          </Button>
        </div>
      </div>
    </main>
  );
}
