import { Link2, Upload } from 'lucide-react';
import type * as React from 'react';
import type { UploadControls } from '../lib/use-upload';
import { FieldError, type HostedSummary, UploadZone } from './upload-zone';

export type MediaSource = 'upload' | 'link';

/**
 * Where a resource's download or thumbnail comes from: an upload (drop zone, progress, pause,
 * resume, retry) or a link (the caller's URL field). The file input is real and labelled, so a
 * keyboard reaches it with Tab and opens the picker with Enter or Space.
 */
export function MediaSourceField({
  id,
  legend,
  uploadChoice,
  inputLabel,
  accept,
  source,
  onSourceChange,
  upload,
  hosted,
  onRemoveHosted,
  onFile,
  error,
  link,
  required,
}: {
  id: string;
  legend: string;
  /** 'Upload a file' / 'Upload an image'. */
  uploadChoice: string;
  /** The file input's accessible name: 'Download file' / 'Thumbnail image'. */
  inputLabel: string;
  accept?: string;
  source: MediaSource;
  onSourceChange(source: MediaSource): void;
  upload: UploadControls;
  /** What the resource hosts now, unless replaced or removed. */
  hosted: HostedSummary | null;
  onRemoveHosted(): void;
  /** A file was chosen or dropped (the caller checks it and starts the upload). */
  onFile(file: File): void;
  error?: string;
  /** The Link choice's field. */
  link: React.ReactNode;
  required?: boolean;
}) {
  const image = accept?.startsWith('image/') ?? false;
  return (
    <fieldset className="grid gap-3" aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="mb-2 text-sm font-medium leading-none">
        {legend}
        {required && (
          <span aria-hidden="true" className="ml-0.5 text-destructive">
            *
          </span>
        )}
      </legend>
      <SourceChoices
        name={`${id}-source`}
        value={source}
        onChange={onSourceChange}
        choices={[
          ['upload', uploadChoice, Upload],
          ['link', 'Link', Link2],
        ]}
      />
      {source === 'link' ? (
        <>
          {link}
          {error && <FieldError id={`${id}-error`} message={error} />}
        </>
      ) : (
        <UploadZone
          id={id}
          inputLabel={inputLabel}
          accept={accept}
          image={image}
          upload={upload}
          hosted={hosted}
          onRemoveHosted={onRemoveHosted}
          onFile={onFile}
          error={error}
          hint={
            image
              ? 'PNG, JPEG, WebP, AVIF or GIF. Resized for every screen; location data is removed.'
              : 'Any file up to the server’s limit. A dropped connection or a reload resumes where it stopped.'
          }
        />
      )}
    </fieldset>
  );
}

/** A segmented choice of radios (Upload / Link, a preview's kind…): Tab reaches it, the arrow keys move along it. */
export function SourceChoices<T extends string>({
  name,
  value,
  onChange,
  choices,
  labelledBy,
}: {
  name: string;
  value: T;
  onChange(value: T): void;
  choices: readonly (readonly [T, string, React.ComponentType<{ className?: string; 'aria-hidden'?: boolean | 'true' }>?])[];
  /** The id of the group's visible name, when the surrounding legend does not say it. */
  labelledBy?: string;
}) {
  return (
    <div role={labelledBy ? 'radiogroup' : undefined} aria-labelledby={labelledBy} className="flex w-full flex-wrap rounded-lg border bg-muted/50 p-1 sm:w-auto sm:justify-self-start">
      {choices.map(([choice, text, ChoiceIcon]) => (
        <label key={choice} className="relative flex-1">
          <input
            type="radio"
            name={name}
            value={choice}
            checked={value === choice}
            onChange={() => onChange(choice)}
            // Transparent over its text: the radio itself takes the click (and stays a visible target).
            className="peer absolute inset-0 z-10 size-full cursor-pointer appearance-none rounded-md opacity-0"
          />
          <span className="flex h-8 cursor-pointer items-center justify-center gap-1.5 whitespace-nowrap rounded-md px-3 text-sm text-muted-foreground transition-colors peer-checked:bg-background peer-checked:font-medium peer-checked:text-foreground peer-checked:shadow-sm peer-focus-visible:ring-[3px] peer-focus-visible:ring-ring/50">
            {ChoiceIcon && <ChoiceIcon aria-hidden="true" className="size-4" />}
            {text}
          </span>
        </label>
      ))}
    </div>
  );
}
