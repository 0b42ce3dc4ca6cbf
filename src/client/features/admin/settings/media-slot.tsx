import { THUMBNAIL_UPLOAD_MAX_BYTES } from '@contract/files';
import * as React from 'react';
import { formatBytes } from '@/lib/format';
import { cn } from '@/lib/utils';
import { type HostedSummary, UploadZone } from '../components/upload-zone';
import type { UploadControls } from '../lib/use-upload';

const IMAGE_TYPES = 'image/png,image/jpeg,image/webp,image/avif,image/gif';

/**
 * One uploaded medium of the settings (logo, favicon, promo video): the file slot (progress,
 * pause, resume, replace, remove) and what the save sends for it.
 */
export function useMediaSlot(upload: UploadControls, hasSaved: boolean) {
  const [removed, setRemoved] = React.useState(false);
  const [error, setError] = React.useState<string | undefined>();
  const status = upload.state.status;
  return {
    upload,
    error,
    setError,
    removed,
    /** The saved medium is to go (the default comes back). */
    remove: () => setRemoved(true),
    /** Unsaved: a new file, or the saved one removed. */
    dirty: status !== 'idle' || (removed && hasSaved),
    busy: status === 'uploading' || status === 'paused' || status === 'error',
    /** The PATCH's value: a finished upload's id, null to remove, undefined to keep. */
    value(): string | null | undefined {
      if (upload.state.status === 'done' && upload.state.id) return upload.state.id;
      return removed && hasSaved ? null : undefined;
    },
    /** After a save: the slot shows what is saved. */
    reset() {
      setRemoved(false);
      setError(undefined);
      if (upload.state.status === 'done') upload.cancel();
    },
  };
}
export type MediaSlotControls = ReturnType<typeof useMediaSlot>;

/** An image slot (logo, favicon) with a preview of what visitors will see. */
export function ImageSlot({
  id,
  label,
  hint,
  slot,
  saved,
  previewClassName,
}: {
  id: string;
  label: string;
  hint: string;
  slot: MediaSlotControls;
  /** The saved image, if any. */
  saved: { src: string; detail: string } | null;
  previewClassName?: string;
}) {
  const file = slot.upload.file;
  const objectUrl = useObjectUrl(slot.upload.state.status !== 'idle' ? file : null);
  const shown = objectUrl ?? (!slot.removed && saved ? saved.src : null);
  const hosted: HostedSummary | null = !slot.removed && saved ? { name: `Current ${label.toLowerCase()}`, detail: saved.detail } : null;

  const onFile = (f: File) => {
    slot.setError(undefined);
    if (f.size === 0) return slot.setError(`“${f.name}” is empty.`);
    if (!f.type.startsWith('image/')) return slot.setError(`“${f.name}” is not an image. Choose a PNG, JPEG, WebP, AVIF or GIF file.`);
    if (f.size > THUMBNAIL_UPLOAD_MAX_BYTES) return slot.setError(`An image can be at most ${formatBytes(THUMBNAIL_UPLOAD_MAX_BYTES)}.`);
    slot.upload.start(f);
  };

  return (
    <fieldset className="grid gap-3">
      <legend className="mb-2 text-sm font-medium leading-none">{label}</legend>
      <div className="grid gap-4 sm:grid-cols-[7rem_minmax(0,1fr)] sm:items-start">
        <div
          className={cn(
            'grid size-28 place-items-center overflow-hidden rounded-xl border bg-[conic-gradient(var(--color-muted)_25%,transparent_0_50%,var(--color-muted)_0_75%,transparent_0)] bg-[length:16px_16px]',
            previewClassName,
          )}
        >
          {shown ? (
            <img src={shown} alt={`${label} preview`} className="max-h-full max-w-full object-contain" />
          ) : (
            <span className="px-2 text-center text-xs text-muted-foreground">Built-in {label.toLowerCase()}</span>
          )}
        </div>
        <UploadZone
          id={id}
          inputLabel={`${label} image`}
          accept={IMAGE_TYPES}
          image
          upload={slot.upload}
          hosted={hosted}
          onRemoveHosted={slot.remove}
          onFile={onFile}
          error={slot.error}
          hint={hint}
        />
      </div>
    </fieldset>
  );
}

/** An object URL for a chosen file, revoked when it changes. */
export function useObjectUrl(file: File | null): string | null {
  const [url, setUrl] = React.useState<string | null>(null);
  React.useEffect(() => {
    if (!file) {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(file);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [file]);
  return url;
}
