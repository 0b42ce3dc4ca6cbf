import type { DownloadResponse, PublicResource } from '@contract/resources';
import { Download } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/primitives';
import { startDownload, useDownloading } from './download';

/**
 * The one download button: 'Downloading...' and disabled while the resource downloads (wherever
 * the download was started), the resource's title for screen readers.
 */
export function DownloadButton({
  resource,
  label = 'Download',
  onRecorded,
  className,
  tabIndex,
}: {
  resource: Pick<PublicResource, 'id' | 'title'>;
  label?: string;
  /** The server's answer, e.g. to show the new count. */
  onRecorded?: (result: DownloadResponse) => void;
  className?: string;
  tabIndex?: number;
}) {
  const busy = useDownloading(resource.id);
  return (
    <Button
      variant="gradient"
      onClick={() => startDownload(resource.id, onRecorded)}
      disabled={busy}
      aria-busy={busy}
      tabIndex={tabIndex}
      className={className}
    >
      {busy ? <Spinner /> : <Download aria-hidden="true" />}
      {busy ? 'Downloading...' : label}
      <span className="sr-only"> {resource.title}</span>
    </Button>
  );
}
