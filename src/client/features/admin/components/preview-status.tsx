import type { PreviewKind } from '@contract/previews';
import type { Resource } from '@contract/resources';
import { RotateCw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Badge } from '@/components/ui/primitives';
import { toast } from '@/components/ui/use-toast';
import { useRetryPreview } from '../api/retry-preview';
import { errorMessage, isSessionError } from '../lib/errors';

const KIND_LABELS: Record<PreviewKind, string> = {
  video: 'video',
  audio: 'sound',
  lut: 'LUT',
  'image-pair': 'before/after',
  font: 'font',
};

/**
 * A resource's preview as the admin sees it: ready, queued, processing, or failed with the reason
 * and a retry button (none when a retry cannot help). Nothing for a resource without preview media.
 */
export function PreviewStatus({ resource }: { resource: Pick<Resource, 'id' | 'title' | 'category' | 'preview'> }) {
  const retry = useRetryPreview();
  const p = resource.preview;
  if (!p) return null;
  const kind = KIND_LABELS[p.kind];
  if (p.status === 'ready') {
    return (
      <Badge variant="secondary" className="mt-1">
        {`Preview ready · ${kind}`}
      </Badge>
    );
  }
  if (p.status !== 'failed') {
    return (
      <Badge variant="outline" className="mt-1 text-muted-foreground">
        {p.status === 'queued' ? `Preview queued · ${kind}` : `Preview processing · ${kind}`}
      </Badge>
    );
  }
  return (
    <div className="mt-1 grid justify-items-start gap-1">
      <Badge variant="destructive">{`Preview failed · ${kind}`}</Badge>
      {p.reason && <p className="text-xs text-destructive">{p.reason}</p>}
      {/* A file refused for what it is fails again: the reason says to upload another instead. */}
      {p.can_retry !== false && (
        <Button
          // Also inside the resource form: retrying must not submit it.
          type="button"
          variant="outline"
          size="sm"
          className="h-7 px-2 text-xs"
          disabled={retry.isPending}
          onClick={() =>
            retry.mutate(resource, {
              onError: (err) => {
                if (!isSessionError(err)) toast({ title: 'Error', description: errorMessage(err, 'Could not retry the preview.'), variant: 'destructive' });
              },
            })
          }
        >
          <RotateCw aria-hidden="true" className="size-3" />
          Retry preview
          <span className="sr-only"> of {resource.title}</span>
        </Button>
      )}
    </div>
  );
}
