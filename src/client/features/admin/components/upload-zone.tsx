import { CheckCircle2, CloudUpload, FileArchive, Image as ImageIcon, Pause, Play, RotateCcw, Trash2, Upload } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { formatBytes } from '@/lib/format';
import { cn } from '@/lib/utils';
import { formatTimeLeft } from '../lib/format';
import type { UploadControls } from '../lib/use-upload';

/** A file the resource already hosts (edit screen). */
export interface HostedSummary {
  name: string;
  /** Its size (bytes, or pixels for an image). */
  detail: string;
}

/**
 * One file slot: the drop zone (a real, labelled file input: Tab reaches it, Enter or Space opens
 * the picker), then the chosen file with its progress, Pause / Resume / Retry, Replace and Remove.
 * Its error, if any, shows under it as `${id}-error`.
 */
export function UploadZone({
  id,
  inputLabel,
  accept,
  image = false,
  upload,
  hosted = null,
  onRemoveHosted,
  onFile,
  error,
  hint,
}: {
  id: string;
  /** The file input's accessible name. */
  inputLabel: string;
  accept?: string;
  /** Says "Choose an image" and shows an image icon. */
  image?: boolean;
  upload: UploadControls;
  hosted?: HostedSummary | null;
  onRemoveHosted?(): void;
  onFile(file: File): void;
  error?: string;
  /** What the slot takes (hidden while an error shows). */
  hint: string;
}) {
  const input = React.useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = React.useState(false);
  const state = upload.state;
  const errorId = `${id}-error`;

  const choose = (files: FileList | null | undefined) => {
    const file = files?.[0];
    if (file) onFile(file);
  };

  const dropProps = {
    onDragEnter: (e: React.DragEvent) => {
      if (!e.dataTransfer.types.includes('Files')) return;
      e.preventDefault();
      setDragging(true);
    },
    onDragOver: (e: React.DragEvent) => {
      if (!e.dataTransfer.types.includes('Files')) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
    },
    onDragLeave: (e: React.DragEvent) => {
      if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
    },
    onDrop: (e: React.DragEvent) => {
      e.preventDefault();
      setDragging(false);
      choose(e.dataTransfer.files);
    },
  };

  const Icon = image ? ImageIcon : FileArchive;
  const showHosted = state.status === 'idle' && hosted !== null;

  return (
    <div className="grid gap-3">
      <div {...dropProps} className="grid gap-2" data-testid={`${id}-zone`}>
        <input
          ref={input}
          id={`${id}-input`}
          type="file"
          aria-label={inputLabel}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : `${id}-hint`}
          accept={accept}
          className="peer sr-only"
          onChange={(e) => {
            choose(e.target.files);
            // The same file again (after Remove, or to resume after a reload) must fire change again.
            e.target.value = '';
          }}
        />
        {state.status === 'idle' && !showHosted ? (
          <label
            htmlFor={`${id}-input`}
            className={cn(
              'flex cursor-pointer flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed px-4 py-8 text-center transition-colors hover:border-primary/60 hover:bg-muted/40 peer-focus-visible:border-primary peer-focus-visible:ring-[3px] peer-focus-visible:ring-ring/50',
              dragging ? 'border-primary bg-primary/5' : 'border-input',
              error && 'border-destructive',
            )}
          >
            <CloudUpload aria-hidden="true" className="size-8 text-muted-foreground" />
            <span className="text-sm">
              <span className="font-medium text-primary underline-offset-4">{image ? 'Choose an image' : 'Choose a file'}</span> or drop it here
            </span>
          </label>
        ) : (
          <div
            className={cn(
              'grid gap-3 rounded-lg border p-4 transition-colors peer-focus-visible:ring-[3px] peer-focus-visible:ring-ring/50',
              dragging && 'border-primary bg-primary/5',
            )}
          >
            <div className="flex min-w-0 items-center gap-3">
              <span className="grid size-10 shrink-0 place-items-center rounded-md bg-muted text-muted-foreground">
                <Icon aria-hidden="true" className="size-5" />
              </span>
              <div className="grid min-w-0 flex-1">
                <span className="truncate text-sm font-medium" title={showHosted ? hosted.name : state.status !== 'idle' ? state.file.name : undefined}>
                  {showHosted ? hosted.name : state.status !== 'idle' && state.file.name}
                </span>
                <span className="text-xs text-muted-foreground">
                  {showHosted ? (
                    `${hosted.detail} · Hosted on this site`
                  ) : (
                    state.status !== 'idle' && formatBytes(state.file.size)
                  )}
                </span>
              </div>
              {state.status === 'done' && <CheckCircle2 aria-label="Uploaded" className="size-5 shrink-0 text-emerald-600 dark:text-emerald-400" />}
            </div>
            {state.status !== 'idle' && <Progress id={id} upload={upload} fileName={state.file.name} />}
            <div className="flex flex-wrap gap-2">
              {state.status === 'uploading' && (
                <Button type="button" size="sm" variant="outline" onClick={upload.pause}>
                  <Pause aria-hidden="true" /> Pause
                </Button>
              )}
              {state.status === 'paused' && (
                <Button type="button" size="sm" variant="outline" onClick={upload.resume}>
                  <Play aria-hidden="true" /> Resume
                </Button>
              )}
              {state.status === 'error' && (
                <Button type="button" size="sm" variant="outline" onClick={upload.retry}>
                  <RotateCcw aria-hidden="true" /> Retry
                </Button>
              )}
              {(showHosted || state.status === 'done') && (
                <Button type="button" size="sm" variant="outline" onClick={() => input.current?.click()}>
                  <Upload aria-hidden="true" /> Replace
                </Button>
              )}
              <Button
                type="button"
                size="sm"
                variant="ghost"
                className="text-destructive hover:bg-destructive/10 hover:text-destructive"
                onClick={showHosted ? onRemoveHosted : upload.cancel}
              >
                <Trash2 aria-hidden="true" /> {state.status === 'done' || showHosted ? 'Remove' : 'Cancel upload'}
              </Button>
            </div>
          </div>
        )}
        {state.status === 'idle' && upload.interrupted && (
          <p className="rounded-md bg-amber-500/10 px-3 py-2 text-sm text-amber-900 dark:text-amber-200">
            The upload of “{upload.interrupted}” stopped before it finished. Choose the same file again to resume where it stopped.
          </p>
        )}
        <p id={`${id}-hint`} className={cn('text-xs text-muted-foreground', error && 'sr-only')}>
          {hint}
        </p>
      </div>
      <p aria-live="polite" className="sr-only">
        {state.status === 'done' ? `${state.file.name} uploaded` : state.status === 'paused' ? 'Upload paused' : ''}
      </p>
      {error && <FieldError id={errorId} message={error} />}
    </div>
  );
}

function Progress({ id, upload, fileName }: { id: string; upload: UploadControls; fileName: string }) {
  const s = upload.state;
  if (s.status === 'idle') return null;
  const percent = s.total > 0 ? Math.floor((s.sent / s.total) * 100) : 0;
  const detail =
    s.status === 'done'
      ? '100% · Uploaded'
      : s.status === 'paused'
      ? `Paused at ${percent}%`
      : s.status === 'error'
        ? `Stopped at ${percent}%`
        : [
            `${percent}%`,
            `${formatBytes(s.sent)} of ${formatBytes(s.total)}`,
            s.speed !== null ? `${formatBytes(Math.round(s.speed))}/s` : null,
            s.secondsLeft !== null ? formatTimeLeft(s.secondsLeft) : percent === 100 ? 'finishing…' : null,
          ]
            .filter(Boolean)
            .join(' · ');
  return (
    <div className="grid gap-1.5">
      <div
        role="progressbar"
        aria-label={`Upload of ${fileName}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}%`}
        aria-describedby={`${id}-progress`}
        className="h-2 overflow-hidden rounded-full bg-muted"
      >
        <div
          className={cn(
            'h-full rounded-full transition-[width] duration-300',
            s.status === 'error'
              ? 'bg-destructive'
              : s.status === 'paused'
                ? 'bg-muted-foreground'
                : s.status === 'done'
                  ? 'bg-emerald-600 dark:bg-emerald-500'
                  : 'bg-gradient-to-r from-violet-600 to-fuchsia-600',
          )}
          style={{ width: `${percent}%` }}
        />
      </div>
      <p id={`${id}-progress`} className="text-xs tabular-nums text-muted-foreground">
        {detail}
        {s.resumed && s.status === 'uploading' && ' · resumed where it stopped'}
      </p>
      {s.status === 'error' && s.error && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {s.error}
        </p>
      )}
    </div>
  );
}

export function FieldError({ id, message }: { id: string; message: string }) {
  return (
    <p id={id} role="alert" className="text-sm font-medium text-destructive">
      {message}
    </p>
  );
}
