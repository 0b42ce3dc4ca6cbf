import type { DownloadResponse, PublicResource } from '@contract/resources';
import { Copy, Download } from 'lucide-react';
import * as React from 'react';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/primitives';
import { toast } from '@/components/ui/use-toast';
import { copyText } from '@/lib/clipboard';
import { startDownload, useDownloading } from './download';

/**
 * The one download button: 'Downloading...' and disabled while the resource downloads (wherever
 * the download was started), the resource's title for screen readers. A resource whose licence
 * asks for attribution first shows the credit line to copy; the download starts from that dialog.
 */
export function DownloadButton({
  resource,
  label = 'Download',
  onRecorded,
  className,
  tabIndex,
  disabled,
}: {
  resource: Pick<PublicResource, 'id' | 'title'> & Partial<Pick<PublicResource, 'licence' | 'file'>>;
  label?: string;
  /** The server's answer, e.g. to show the new count. */
  onRecorded?: (result: DownloadResponse) => void;
  className?: string;
  tabIndex?: number;
  /** Why the resource cannot be downloaded here (a preview of an unpublished one): the button is off and says so. */
  disabled?: string;
}) {
  const busy = useDownloading(resource.id);
  const [confirming, setConfirming] = React.useState(false);
  const credit = resource.licence?.kind === 'attribution' ? resource.licence.credit : undefined;
  const start = () => startDownload(resource.id, { hosted: !!resource.file, onRecorded });
  return (
    <>
      <Button
        variant="gradient"
        onClick={() => (credit === undefined ? start() : setConfirming(true))}
        disabled={busy || disabled !== undefined}
        aria-busy={busy}
        aria-describedby={disabled ? `download-off-${resource.id}` : undefined}
        tabIndex={tabIndex}
        className={className}
      >
        {busy ? <Spinner /> : <Download aria-hidden="true" />}
        {busy ? 'Downloading...' : label}
        <span className="sr-only"> {resource.title}</span>
      </Button>
      {disabled && (
        <p id={`download-off-${resource.id}`} className="-mt-2 text-center text-xs text-muted-foreground">
          {disabled}
        </p>
      )}
      {credit !== undefined && (
        <AlertDialog open={confirming} onOpenChange={setConfirming}>
          <AlertDialogContent>
            <AlertDialogHeader>
              <AlertDialogTitle>Attribution required</AlertDialogTitle>
              <AlertDialogDescription>Free to use when you credit the creator. Add this line where you use it:</AlertDialogDescription>
            </AlertDialogHeader>
            <p data-testid="credit-line" className="whitespace-pre-line rounded-md border bg-muted px-3 py-2 font-mono text-sm">
              {credit}
            </p>
            <AlertDialogFooter>
              <AlertDialogCancel>Cancel</AlertDialogCancel>
              <Button variant="outline" onClick={() => void copyCredit(credit)}>
                <Copy aria-hidden="true" />
                Copy credit
              </Button>
              <Button
                variant="gradient"
                onClick={() => {
                  setConfirming(false);
                  start();
                }}
              >
                <Download aria-hidden="true" />
                Download
              </Button>
            </AlertDialogFooter>
          </AlertDialogContent>
        </AlertDialog>
      )}
    </>
  );
}

export async function copyCredit(credit: string) {
  if (await copyText(credit)) toast({ title: 'Credit copied', description: 'Paste it where you use the resource.' });
  else toast({ title: 'Copy failed', description: 'Select the credit line and copy it yourself.', variant: 'destructive' });
}
