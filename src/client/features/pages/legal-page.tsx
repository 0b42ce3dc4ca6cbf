import type { LegalPageKey } from '@contract/settings';
import { format } from 'date-fns';
import { FileText, RefreshCw } from 'lucide-react';
import { useLocation } from 'react-router';
import { Link } from '@/lib/link';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/primitives';
import { GlowMain } from '@/components/status-page';
import { paths } from '@/lib/paths';
import { usePageMeta } from '@/lib/site-api';
import { useLegalPage } from './api/get-legal-page';

const TITLES: Record<LegalPageKey, string> = { privacy: 'Privacy Policy', terms: 'Terms of Service' };

/**
 * A legal page: the owner's Markdown as the server rendered and sanitised it (no raw HTML, no
 * script links), so it is shown as it is, with its "Last updated" date.
 */
export function LegalPage({ page }: { page: LegalPageKey }) {
  const { pathname } = useLocation();
  usePageMeta(pathname);
  const doc = useLegalPage(page);

  return (
    <GlowMain glow="band" className="flex-1">
      <div className="mx-auto max-w-3xl px-6 py-14 sm:py-20 lg:px-8">
        <header>
          <span className="inline-flex items-center gap-2 rounded-full border bg-background/70 px-3 py-1 text-xs font-medium text-muted-foreground shadow-sm">
            <FileText className="size-3.5 text-primary" aria-hidden="true" />
            Legal
          </span>
          <h1 className="mt-4 text-4xl font-extrabold tracking-tight sm:text-5xl">{doc.data?.title ?? TITLES[page]}</h1>
          {doc.data ? (
            <p className="mt-3 text-sm text-muted-foreground">
              Last updated: <time dateTime={doc.data.updated_at}>{format(new Date(doc.data.updated_at), 'MMMM d, yyyy')}</time>
            </p>
          ) : (
            !doc.isError && <Skeleton className="mt-3 h-5 w-48" />
          )}
        </header>

        {doc.isError ? (
          <div role="alert" className="mt-12 flex flex-col items-center gap-4 rounded-2xl border bg-card p-8 text-center shadow-sm">
            <p className="font-medium">We couldn&apos;t load this page.</p>
            <Button variant="outline" onClick={() => void doc.refetch()}>
              <RefreshCw aria-hidden="true" />
              Try Again
            </Button>
          </div>
        ) : doc.data ? (
          // Rendered and sanitised by the server (markdown-it without HTML, then a sanitiser).
          <article className="rv-prose mt-12" dangerouslySetInnerHTML={{ __html: doc.data.html }} />
        ) : (
          <div aria-busy="true" aria-label="Loading" className="mt-12 grid gap-4">
            <Skeleton className="h-7 w-1/2" />
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-4 w-3/4" />
            <Skeleton className="mt-6 h-7 w-1/3" />
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-4 w-5/6" />
          </div>
        )}

        <p className="mt-12 rounded-xl border bg-muted/40 p-4 text-sm text-muted-foreground">
          Questions about this page? Reach us through any channel on the{' '}
          <Link to={paths.community} className="font-medium text-primary underline-offset-4 hover:underline">
            Community page
          </Link>
          .
        </p>
      </div>
    </GlowMain>
  );
}
