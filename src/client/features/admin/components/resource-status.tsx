import type { Resource } from '@contract/resources';
import { Eye } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Badge, Spinner } from '@/components/ui/primitives';
import { toast } from '@/components/ui/use-toast';
import { cn } from '@/lib/utils';
import { useCreatePreviewLink } from '../api/create-preview-link';
import { errorMessage, isSessionError } from '../lib/errors';
import { browserTimeZone, formatZonedShort } from '../lib/zoned-time';

type StatusOf = Pick<Resource, 'status' | 'publish_at'>;

/** A resource's status in words: `Draft`, `Scheduled for Dec 1, 2026, 9:30 AM` (the admin's zone), `Published`. */
export function statusText(r: StatusOf, timeZone = browserTimeZone()): string {
  if (r.status === 'draft') return 'Draft';
  if (r.status === 'scheduled') return r.publish_at ? `Scheduled for ${formatZonedShort(r.publish_at, timeZone)}` : 'Scheduled';
  return 'Published';
}

const STATUS_CLASS: Record<Resource['status'], string> = {
  draft: 'border-dashed border-muted-foreground/50 bg-muted text-muted-foreground',
  scheduled: 'border-sky-500/40 bg-sky-500/10 text-sky-700 dark:text-sky-300',
  published: 'border-emerald-500/40 bg-emerald-500/10 text-emerald-700 dark:text-emerald-300',
};

export function ResourceStatusBadge({ resource, className }: { resource: StatusOf; className?: string }) {
  return (
    <Badge variant="outline" data-status={resource.status} className={cn(STATUS_CLASS[resource.status], className)}>
      {statusText(resource)}
    </Badge>
  );
}

/**
 * Opens a draft's or scheduled resource's page in a new tab through a preview link. The tab opens
 * inside the click (no popup blocker) and goes to the link once the server has signed it.
 */
export function usePreviewLink() {
  const create = useCreatePreviewLink();
  const open = (resource: Pick<Resource, 'id'>) => {
    const tab = window.open('', '_blank');
    if (tab) tab.opener = null;
    create.mutate(resource, {
      onSuccess: (link) => {
        const url = new URL(link.url, window.location.origin).href;
        if (tab && !tab.closed) tab.location.href = url;
        else window.open(url, '_blank');
      },
      onError: (err) => {
        tab?.close();
        if (!isSessionError(err)) toast({ title: 'Error', description: errorMessage(err, 'Could not open the preview.'), variant: 'destructive' });
      },
    });
  };
  return { open, pending: create.isPending ? create.variables?.id : undefined };
}

/** "Preview" for a resource the public cannot see yet; nothing for a published one (its page is public). */
export function PreviewLinkButton({
  resource,
  preview,
  iconOnly = false,
  className,
}: {
  resource: Pick<Resource, 'id' | 'title' | 'status'>;
  preview: ReturnType<typeof usePreviewLink>;
  iconOnly?: boolean;
  className?: string;
}) {
  if (resource.status === 'published') return null;
  const busy = preview.pending === resource.id;
  return (
    <Button
      type="button"
      variant={iconOnly ? 'ghost' : 'outline'}
      size={iconOnly ? 'icon' : 'sm'}
      className={className}
      aria-label={iconOnly ? `Preview ${resource.title}` : undefined}
      title={iconOnly ? 'Preview (opens in a new tab)' : undefined}
      disabled={busy}
      onClick={() => preview.open(resource)}
    >
      {busy ? <Spinner /> : <Eye aria-hidden="true" />}
      {!iconOnly && 'Preview'}
    </Button>
  );
}
