import type { DownloadResponse, PublicResource } from '@contract/resources';
import { X } from 'lucide-react';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { cn } from '@/lib/utils';
import { DownloadButton } from './download-button';
import { DownloadsAndAge, PremiumBadge, TagList } from './resource-meta';
import { previewBoxClass, ResourcePreview } from './resource-preview';

/** A quick look at a resource: the full preview of its kind (or its thumbnail), what it is, and its download button. */
export function ResourcePreviewDialog({
  resource,
  open,
  onOpenChange,
  onRecorded,
}: {
  resource: PublicResource;
  open: boolean;
  onOpenChange(open: boolean): void;
  onRecorded?: (result: DownloadResponse) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent hideClose className="w-[calc(100%-1rem)] max-w-3xl gap-0 overflow-hidden p-0">
        <div className={cn('relative bg-muted', previewBoxClass(resource.preview))}>
          <ResourcePreview resource={resource} autoPlay />
          {/* Over the image, the close button needs its own backdrop to stay visible. */}
          <DialogClose
            aria-label="Close"
            className="absolute right-3 top-3 flex size-9 cursor-pointer items-center justify-center rounded-full bg-black/55 text-white shadow-md backdrop-blur transition-colors hover:bg-black/75 focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-white/70"
          >
            <X aria-hidden="true" className="size-4" />
          </DialogClose>
          {resource.is_premium && <PremiumBadge className="absolute left-4 top-4" />}
        </div>
        <div className="grid gap-4 p-6">
          <div className="grid gap-2">
            <DialogTitle className="text-xl leading-tight">{resource.title}</DialogTitle>
            <DialogDescription className="text-base leading-relaxed">{resource.description}</DialogDescription>
          </div>
          <TagList tags={resource.tags} />
          <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
            <DownloadsAndAge resource={resource} />
            <DownloadButton resource={resource} onRecorded={onRecorded} className="sm:min-w-40" />
          </div>
        </div>
      </DialogContent>
    </Dialog>
  );
}
