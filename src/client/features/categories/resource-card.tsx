import { Eye } from 'lucide-react';
import { type CategoryInfo, getCategory } from '@contract/categories';
import type { DownloadResponse, PublicResource } from '@contract/resources';
import * as React from 'react';
import { Link } from '@/lib/link';
import { DownloadButton } from '@/components/resource/download-button';
import { ResourcePreviewDialog } from '@/components/resource/preview-dialog';
import { ResourceCardPreview } from '@/components/resource/resource-preview';
import { DownloadsAndAge, PremiumBadge, TagList } from '@/components/resource/resource-meta';
import { ResourceThumbnail } from '@/components/resource/thumbnail';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/primitives';
import { paths } from '@/lib/paths';
import { cn } from '@/lib/utils';
import { useShowDownloadCount } from './api/show-download-count';

/** Tags shown on a card; the preview shows all. */
const CARD_TAGS = 3;
/** The card's width in the grid (1, 2 or 3 columns inside max-w-7xl). */
const CARD_SIZES = '(min-width: 64rem) 24rem, (min-width: 48rem) 50vw, 100vw';

/**
 * What a card far from the viewport skips until it comes near (`content-visibility: auto`), in a box
 * of about its height meanwhile. Inside the card, whose own box and hover shadow stay whole (its
 * content is clipped to its rounded box anyway). Its effect on the first paint: docs/performance.md,
 * "Pages: budgets and Lighthouse".
 */
const RENDERED_NEAR_VIEWPORT = '[contain-intrinsic-size:auto_28rem] [content-visibility:auto]';

export function ResourceCard({
  resource,
  eager = false,
  renderNearViewport = false,
  showCategory = false,
}: {
  resource: PublicResource;
  eager?: boolean;
  /** Lay out and paint the card's content only when it is near the viewport (cards below the first row). */
  renderNearViewport?: boolean;
  /** Say the card's category above its title (a list of every category: the search page). */
  showCategory?: boolean;
}) {
  const [previewOpen, setPreviewOpen] = React.useState(false);
  const showCount = useShowDownloadCount();
  const onRecorded = (result: DownloadResponse) => showCount(resource.id, result);
  return (
    <article className="group relative flex h-full flex-col overflow-hidden rounded-2xl border bg-card text-card-foreground shadow-sm transition-all duration-300 hover:-translate-y-1 hover:border-primary/30 hover:shadow-xl hover:shadow-primary/10">
      {/* The picture opens the page too; for the keyboard the title's link is the one (one tab stop).
          The preview's controls sit beside the link, not in it (no button inside a link). */}
      <div className={cn('flex flex-1 flex-col', renderNearViewport && RENDERED_NEAR_VIEWPORT)}>
        <div data-preview-host className="relative aspect-video overflow-hidden bg-muted">
          <Link to={resource.url} tabIndex={-1} className="block size-full">
            <ResourceThumbnail
              resource={resource}
              alt={resource.title}
              eager={eager}
              sizes={CARD_SIZES}
              className="size-full object-cover transition-transform duration-500 group-hover:scale-105"
            />
            <div aria-hidden="true" className="pointer-events-none absolute inset-0 bg-gradient-to-t from-black/30 via-transparent to-transparent opacity-0 transition-opacity group-hover:opacity-100" />
          </Link>
          <ResourceCardPreview resource={resource} />
          {resource.is_premium && <PremiumBadge className="pointer-events-none absolute left-3 top-3" />}
        </div>
        <div className="flex flex-1 flex-col p-5">
          {showCategory && <CardCategory category={getCategory(resource.category)} />}
          <h2 className="line-clamp-1 text-lg font-semibold leading-7 tracking-tight" title={resource.title}>
            <Link to={resource.url} className="rounded-sm hover:underline focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50">
              {resource.title}
            </Link>
          </h2>
          <p className="mt-1.5 line-clamp-2 h-10 text-sm leading-5 text-muted-foreground">{resource.description}</p>
          <div className="mt-3 h-[1.375rem] overflow-hidden">
            <TagList tags={resource.tags} limit={CARD_TAGS} />
          </div>
          <DownloadsAndAge resource={resource} compact className="mt-4" />
          <div className="mt-auto grid grid-cols-2 gap-2 pt-5">
            <Button variant="outline" onClick={() => setPreviewOpen(true)}>
              <Eye aria-hidden="true" />
              Preview
              <span className="sr-only"> {resource.title}</span>
            </Button>
            <DownloadButton resource={resource} onRecorded={onRecorded} />
          </div>
        </div>
      </div>
      <ResourcePreviewDialog resource={resource} open={previewOpen} onOpenChange={setPreviewOpen} onRecorded={onRecorded} />
    </article>
  );
}

/** The card's category: a link to its page, plain text for one without a page (premium resources). */
function CardCategory({ category }: { category: CategoryInfo }) {
  return (
    <p className="mb-1 text-xs font-semibold uppercase tracking-wide text-primary">
      {category.isPublic ? (
        <Link to={paths.category(category.value)} className="rounded-sm hover:underline focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50">
          {category.title}
        </Link>
      ) : (
        category.title
      )}
    </p>
  );
}

/** Same boxes as ResourceCard, so nothing moves when the cards replace it. */
export function ResourceCardSkeleton() {
  return (
    <div aria-hidden="true" data-testid="resource-skeleton" className="flex h-full flex-col overflow-hidden rounded-2xl border bg-card shadow-sm">
      <Skeleton className="aspect-video rounded-none" />
      <div className="flex flex-1 flex-col p-5">
        <Skeleton className="my-1 h-5 w-3/4" />
        <div className="mt-1.5 grid h-10 content-center gap-2">
          <Skeleton className="h-3.5 w-full" />
          <Skeleton className="h-3.5 w-2/3" />
        </div>
        <div className="mt-3 flex h-[1.375rem] gap-1.5">
          <Skeleton className="h-full w-16 rounded-full" />
          <Skeleton className="h-full w-20 rounded-full" />
          <Skeleton className="h-full w-14 rounded-full" />
        </div>
        <div className="mt-4 flex h-4 justify-between">
          <Skeleton className="h-full w-24" />
          <Skeleton className="h-full w-28" />
        </div>
        <div className="mt-auto grid grid-cols-2 gap-2 pt-5">
          <Skeleton className="h-10 rounded-md" />
          <Skeleton className="h-10 rounded-md" />
        </div>
      </div>
    </div>
  );
}
