import { DOWNLOAD_LINK_TTL_SECONDS } from '@contract/constants';
import { ArrowLeft, Clock, House } from 'lucide-react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { paths } from '@/lib/paths';
import { usePageMeta } from '@/lib/site-api';
import { resourceIdParam, useResource } from './api/get-resource';

/**
 * Where the server sends a browser that opened an expired or tampered download link (decision 370):
 * what happened, and the way back to the resource (named when the link was for one) to download again.
 */
export default function DownloadExpiredPage() {
  const { pathname } = useLocation();
  usePageMeta(pathname);
  const id = resourceIdParam(useSearchParams()[0]);
  const resource = useResource(id ?? 0);
  const shown = id !== undefined ? resource.data : undefined;

  return (
    <main id="main" className="flex flex-1 items-center justify-center px-6 py-24">
      <div className="max-w-lg text-center">
        <span className="mx-auto flex size-12 items-center justify-center rounded-2xl bg-primary/10 text-primary">
          <Clock className="size-6" aria-hidden="true" />
        </span>
        <h1 className="mt-5 text-3xl font-bold tracking-tight sm:text-4xl">This download link has expired</h1>
        <p className="mt-4 text-muted-foreground">
          A download link works for {DOWNLOAD_LINK_TTL_SECONDS / 60} minutes after you click Download.{' '}
          {shown ? (
            <>
              Go back to <strong className="text-foreground">{shown.title}</strong> and click Download again for a fresh one.
            </>
          ) : (
            'Find the resource again and click Download for a fresh one.'
          )}
        </p>
        <div className="mt-8 flex flex-col items-center justify-center gap-3 sm:flex-row">
          {shown ? (
            <Button asChild variant="gradient" size="lg" className="rounded-full">
              <Link to={shown.url}>
                <ArrowLeft aria-hidden="true" />
                Back to the resource
              </Link>
            </Button>
          ) : null}
          <Button asChild variant={shown ? 'outline' : 'gradient'} size="lg" className="rounded-full">
            <Link to={paths.home}>
              <House aria-hidden="true" />
              Back to Home
            </Link>
          </Button>
        </div>
      </div>
    </main>
  );
}
