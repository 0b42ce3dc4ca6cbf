import { useQueryClient } from '@tanstack/react-query';
import { getCategory } from '@contract/categories';
import { describeLicence, parseResourcePath } from '@contract/resource-page';
import type { DownloadResponse, PublicResource } from '@contract/resources';
import { CalendarPlus, ChartColumn, Copy, Download, EyeOff, House, RefreshCw, Scale } from 'lucide-react';
import * as React from 'react';
import { useLocation } from 'react-router';
import { Link } from '@/lib/link';
import { copyCredit, DownloadButton } from '@/components/resource/download-button';
import { formatDownloads, PremiumBadge } from '@/components/resource/resource-meta';
import { previewBoxClass, ResourcePreview } from '@/components/resource/resource-preview';
import { ResourceThumbnail } from '@/components/resource/thumbnail';
import { NotFoundPanel } from '@/components/not-found';
import { Breadcrumb } from '@/components/ui/breadcrumb';
import { Button } from '@/components/ui/button';
import { Badge, badgeVariants, Skeleton } from '@/components/ui/primitives';
import { ApiError } from '@/lib/api';
import { formatUtcDate } from '@/lib/format';
import { ClientOnly } from '@/lib/hydration';
import { homeSections, paths } from '@/lib/paths';
import { useSignedInAdmin } from '@/lib/signed-in-admin';
import { useSiteName } from '@/lib/site-api';
import { cn } from '@/lib/utils';
import { resourceQueryOptions, useIsPreviewPage, useRelated, useResource } from './api/get-resource';
import { Fact, FileDetails } from './file-details';
import { ReportLink } from './report-link';
import { ShareButton } from './share-button';
import { WhatsInside } from './whats-inside';

export default function ResourcePage() {
  const { pathname } = useLocation();
  const id = parseResourcePath(pathname);
  const query = useResource(id);
  if (id === undefined || (query.error instanceof ApiError && query.error.status === 404)) return <ResourceNotFound />;
  if (query.isError) return <ResourceLoadError onRetry={() => void query.refetch()} />;
  if (!query.data) return <ResourcePageSkeleton />;
  return <ResourceView resource={query.data} />;
}

/** The tab's title, description and canonical link follow the page (the server sent them for the first one). */
function useResourceHead(resource: PublicResource) {
  const siteName = useSiteName();
  React.useEffect(() => {
    document.title = `${resource.title} - ${siteName}`;
    document.querySelector('meta[name="description"]')?.setAttribute('content', resource.description.replace(/\s+/g, ' ').slice(0, 160));
    let link = document.querySelector<HTMLLinkElement>('link[rel="canonical"]');
    // The server's link (with PUBLIC_URL's origin) stays while this page shows; a page reached inside the app gets one.
    if (!link || new URL(link.href).pathname !== resource.url) {
      link ??= document.head.appendChild(Object.assign(document.createElement('link'), { rel: 'canonical' }));
      link.href = new URL(resource.url, location.origin).href;
    }
    const shown = link;
    // Other pages have no canonical link of their own: this one must not outlive the page.
    return () => shown.remove();
  }, [resource.title, resource.description, resource.url, siteName]);
}

/** The preview's width: the page's main column. */
const PREVIEW_SIZES = '(min-width: 64rem) 44rem, 100vw';

function ResourceView({ resource }: { resource: PublicResource }) {
  useResourceHead(resource);
  const queryClient = useQueryClient();
  const category = getCategory(resource.category);
  const categoryHref = category.isPublic ? paths.category(category.value) : `${paths.home}#${homeSections.premium}`;
  const onRecorded = (result: DownloadResponse) => {
    queryClient.setQueryData(resourceQueryOptions(resource.id).queryKey, (r) => (r ? { ...r, download_count: result.download_count } : r));
    // Lists and carousels showing it read the new count next time they are shown.
    void queryClient.invalidateQueries({ queryKey: ['resources'], refetchType: 'none' });
  };
  const paragraphs = resource.description.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
  const preview = useIsPreviewPage(resource.id);

  return (
    <main id="main" className="bg-background pb-24">
      {preview && <PreviewBanner />}
      <div className="mx-auto max-w-6xl px-4 pt-6 sm:px-6 lg:px-8">
        <Breadcrumb
          className="mb-5 text-sm text-muted-foreground"
          linkClassName="inline-flex items-center gap-1 hover:text-foreground"
          currentClassName="line-clamp-1 max-w-[16rem] font-medium text-foreground sm:max-w-md"
          trail={[
            {
              label: (
                <>
                  <House aria-hidden="true" className="size-3.5" />
                  Home
                </>
              ),
              to: paths.home,
            },
            { label: category.title, to: categoryHref },
            { label: resource.title },
          ]}
        />

        <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_20rem]">
          <div className="min-w-0">
            <div className={cn('relative overflow-hidden rounded-2xl border bg-muted shadow-sm', previewBoxClass(resource.preview))}>
              {/*
                The server sends the thumbnail (its code is not in the server's render); the preview of its kind replaces it once
                live. It covers the box as the previews' images do: one that drew even a pixel larger would become the page's
                largest paint, seconds later (object-contain in this bordered box was 0.5% smaller).
              */}
              <ClientOnly fallback={<ResourceThumbnail resource={resource} alt={resource.title} eager sizes={PREVIEW_SIZES} className="size-full object-cover" />}>
                <ResourcePreview resource={resource} />
              </ClientOnly>
              {resource.is_premium && <PremiumBadge className="absolute left-4 top-4" />}
            </div>
            <h1 className="mt-6 text-3xl font-bold leading-tight tracking-tight sm:text-4xl">{resource.title}</h1>
            <div className="mt-4 grid gap-3 text-base leading-relaxed text-muted-foreground">
              {paragraphs.map((p, i) => (
                <p key={i} className="whitespace-pre-line">
                  {p}
                </p>
              ))}
            </div>
            {resource.tags.length > 0 && (
              <ul aria-label="Tags" className="mt-5 flex flex-wrap gap-2">
                {resource.tags.map((t) => (
                  <li key={t}>
                    {category.isPublic ? (
                      <Link to={paths.categoryTag(category.value, t)} className={cn(badgeVariants({ variant: 'secondary' }), 'px-3 py-1 font-medium hover:bg-secondary/70')}>
                        {t}
                      </Link>
                    ) : (
                      <Badge variant="secondary" className="font-medium">
                        {t}
                      </Badge>
                    )}
                  </li>
                ))}
              </ul>
            )}
            <WhatsInside resource={resource} />
          </div>

          <aside aria-label="Download" className="grid content-start gap-5">
            <div className="grid gap-4 rounded-2xl border bg-card p-5 shadow-sm">
              <DownloadButton
                resource={resource}
                onRecorded={onRecorded}
                className="h-11 w-full text-base"
                disabled={preview ? 'Downloads open once the resource is published.' : undefined}
              />
              <ShareButton resource={resource} />
              {!preview && resource.file === null && <ReportLink resourceId={resource.id} />}
              <AdminStatsLink resource={resource} />
              <dl className="grid gap-2.5 text-sm">
                <Fact icon={<Download aria-hidden="true" className="size-4" />} term="Downloads">
                  <span data-testid="download-count">{formatDownloads(resource.download_count)}</span>
                </Fact>
                <Fact icon={<CalendarPlus aria-hidden="true" className="size-4" />} term="Added">
                  <time dateTime={resource.created_at}>{formatUtcDate(resource.created_at)}</time>
                </Fact>
                <Fact icon={<RefreshCw aria-hidden="true" className="size-4" />} term="Updated">
                  <time dateTime={resource.updated_at}>{formatUtcDate(resource.updated_at)}</time>
                </Fact>
                <FileDetails resource={resource} />
              </dl>
            </div>
            <LicenceCard resource={resource} />
          </aside>
        </div>

        <RelatedResources id={resource.id} />
      </div>
    </main>
  );
}

/** Across the top of a preview link's page: what is shown is not public yet (docs/decisions/397-save-choices-and-the-preview-page.md). */
function PreviewBanner() {
  return (
    <div role="region" aria-label="Preview" className="border-b border-amber-500/40 bg-amber-100 text-amber-950 dark:bg-amber-950/60 dark:text-amber-100">
      <div className="mx-auto flex max-w-6xl items-start gap-3 px-4 py-3 sm:items-center sm:px-6 lg:px-8">
        <EyeOff aria-hidden="true" className="mt-0.5 size-5 shrink-0 sm:mt-0" />
        <p className="text-sm">
          <strong className="font-semibold">Preview — not published.</strong>{' '}
          Visitors cannot see this page yet: only people with this link can, until it expires. Downloads open once it is published.
        </p>
      </div>
    </div>
  );
}

/** For a signed-in admin only: the resource's download statistics in the admin area. */
function AdminStatsLink({ resource }: { resource: PublicResource }) {
  if (!useSignedInAdmin()) return null;
  return (
    <Button asChild variant="ghost" className="w-full">
      <Link to={paths.admin.resourceStats(resource.category, resource.id)}>
        <ChartColumn aria-hidden="true" />
        Statistics
      </Link>
    </Button>
  );
}

function LicenceCard({ resource }: { resource: PublicResource }) {
  const licence = describeLicence(resource.licence);
  return (
    <section id="licence" aria-labelledby="licence-heading" className="grid gap-3 rounded-2xl border bg-card p-5 shadow-sm">
      <h2 id="licence-heading" className="inline-flex items-center gap-2 text-sm font-semibold">
        <Scale aria-hidden="true" className="size-4" />
        Licence
      </h2>
      <p className="text-sm font-medium">{licence.label}</p>
      {resource.licence.kind === 'attribution' && (
        <>
          <p className="text-sm text-muted-foreground">Credit the creator where you use it:</p>
          <p className="whitespace-pre-line rounded-md border bg-muted px-3 py-2 font-mono text-xs">{resource.licence.credit}</p>
          <Button variant="outline" size="sm" onClick={() => void copyCredit(licence.text ?? '')}>
            <Copy aria-hidden="true" />
            Copy credit
          </Button>
        </>
      )}
      {resource.licence.kind === 'custom' && <p className="whitespace-pre-line text-sm text-muted-foreground">{resource.licence.text}</p>}
    </section>
  );
}

/** Cards of the related resources: 1 column on phones, 2 on tablets, 3 on wide screens. */
const RELATED_SIZES = '(min-width: 64rem) 22rem, (min-width: 40rem) 50vw, 100vw';

function RelatedResources({ id }: { id: number }) {
  const related = useRelated(id);
  const items = related.data?.items ?? [];
  // None, or none to show (a preview's resource is not public, so neither is its related list).
  if ((related.isSuccess && items.length === 0) || related.isError) return null;
  return (
    <section aria-labelledby="related-heading" className="mt-16">
      <h2 id="related-heading" className="text-xl font-semibold tracking-tight">
        Related resources
      </h2>
      <ul className="mt-5 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {related.isPending
          ? Array.from({ length: 3 }, (_, i) => (
              <li key={i} aria-hidden="true">
                <Skeleton className="aspect-video rounded-xl" />
                <Skeleton className="mt-3 h-5 w-2/3" />
              </li>
            ))
          : items.map((r) => (
              <li key={r.id} className="group">
                <Link to={r.url} className="block rounded-xl focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50">
                  <div className="relative aspect-video overflow-hidden rounded-xl border bg-muted">
                    <ResourceThumbnail resource={r} alt="" sizes={RELATED_SIZES} className="size-full object-cover transition-transform duration-500 group-hover:scale-105" />
                    {r.is_premium && <PremiumBadge className="absolute left-3 top-3" />}
                  </div>
                  <h3 className="mt-3 line-clamp-1 font-semibold group-hover:underline">{r.title}</h3>
                  <p className="mt-1 text-xs text-muted-foreground">{formatDownloads(r.download_count)}</p>
                </Link>
              </li>
            ))}
      </ul>
    </section>
  );
}

function ResourcePageSkeleton() {
  return (
    <main id="main" aria-busy="true" className="mx-auto w-full max-w-6xl px-4 pb-24 pt-6 sm:px-6 lg:px-8">
      <span className="sr-only" role="status">
        Loading resource
      </span>
      <Skeleton className="mb-5 h-5 w-64" />
      <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div>
          <Skeleton className="aspect-video rounded-2xl" />
          <Skeleton className="mt-6 h-9 w-3/4" />
          <Skeleton className="mt-4 h-4 w-full" />
          <Skeleton className="mt-2 h-4 w-5/6" />
        </div>
        <Skeleton className="h-64 rounded-2xl" />
      </div>
    </main>
  );
}

function ResourceLoadError({ onRetry }: { onRetry(): void }) {
  return (
    <main id="main" className="flex min-h-[60vh] flex-col items-center justify-center px-4 py-24 text-center">
      <h1 className="text-2xl font-bold tracking-tight">This resource could not be loaded</h1>
      <p className="mt-3 text-muted-foreground">Please check your connection and try again.</p>
      <Button variant="outline" className="mt-6" onClick={onRetry}>
        Try again
      </Button>
    </main>
  );
}

function ResourceNotFound() {
  return <NotFoundPanel message="This resource does not exist. It may have been removed, or the link may be mistyped." />;
}
