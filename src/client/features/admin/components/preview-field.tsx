import type { CategoryValue } from '@contract/categories';
import { CATEGORY_PREVIEW_KINDS, type Preview, type PreviewKind, type PreviewSourceInput } from '@contract/previews';
import type { Resource } from '@contract/resources';
import { FileAudio, FileVideo, Upload } from 'lucide-react';
import * as React from 'react';
import { type UploadControls, useUpload } from '../lib/use-upload';
import { SourceChoices } from './media-source-field';
import { UploadZone } from './upload-zone';
import { PreviewStatus } from './preview-status';

/**
 * The resource form's Preview section: the media the server makes the resource's preview from
 * (`preview_source`, contract/previews.ts), of a kind the category takes (premium: any). Each file
 * is a tus upload like the download's; a video or a sound whose download is hosted may use that
 * file instead. Optional: without it the card keeps its thumbnail (and an edit keeps the preview).
 */

type Slot = 'main' | 'before' | 'after';

interface SlotSpec {
  /** The file input's accessible name. */
  label: string;
  accept: string;
  hint: string;
  /** Whether a chosen file looks like this kind (name and browser type: the server checks the bytes). */
  fits(file: File): boolean;
  /** After “{name}”: why it was refused. */
  refusal: string;
}

const ext = (file: File) => /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase() ?? '';

const IMAGE: Omit<SlotSpec, 'label'> = {
  accept: 'image/png,image/jpeg,image/webp,image/avif,image/gif',
  hint: 'PNG, JPEG, WebP, AVIF or GIF, the same shape as the other image.',
  fits: (f) => f.type.startsWith('image/'),
  refusal: 'is not an image. Choose a PNG, JPEG, WebP, AVIF or GIF file.',
};

const SPECS: Record<Exclude<PreviewKind, 'image-pair'>, SlotSpec> & { before: SlotSpec; after: SlotSpec } = {
  video: {
    label: 'Preview video',
    accept: 'video/*,.mp4,.m4v,.mov,.webm,.mkv',
    hint: 'MP4, MOV, WebM or MKV. The server makes a short muted clip, a poster frame and a storyboard from it.',
    fits: (f) => f.type.startsWith('video/') || ['mp4', 'm4v', 'mov', 'webm', 'mkv'].includes(ext(f)),
    refusal: 'is not a video. Choose an MP4, MOV, WebM or MKV file.',
  },
  audio: {
    label: 'Preview sound',
    accept: 'audio/*,.wav,.mp3,.flac,.ogg,.oga,.opus,.m4a,.aac,.aif,.aiff',
    hint: 'WAV, MP3, FLAC, OGG, M4A or AIFF. The server makes a short normalised clip and its waveform.',
    fits: (f) => f.type.startsWith('audio/') || ['wav', 'mp3', 'flac', 'ogg', 'oga', 'opus', 'm4a', 'aac', 'aif', 'aiff'].includes(ext(f)),
    refusal: 'is not a sound. Choose a WAV, MP3, FLAC, OGG, M4A or AIFF file.',
  },
  lut: {
    label: 'LUT file',
    accept: '.cube',
    hint: 'A .cube LUT (1D, or 3D of size up to 65). Visitors see it grade sample photos.',
    fits: (f) => ext(f) === 'cube',
    refusal: 'is not a .cube LUT. Choose a .cube file.',
  },
  font: {
    label: 'Font file',
    accept: '.ttf,.otf,.woff,.woff2,font/ttf,font/otf,font/woff,font/woff2',
    hint: 'TTF, OTF, WOFF or WOFF2. Visitors type their own text in it.',
    fits: (f) => f.type.startsWith('font/') || ['ttf', 'otf', 'woff', 'woff2'].includes(ext(f)),
    refusal: 'is not a font. Choose a TTF, OTF, WOFF or WOFF2 file.',
  },
  before: { label: 'Before image', ...IMAGE },
  after: { label: 'After image', ...IMAGE },
};

const KIND_CHOICES: Record<PreviewKind, string> = {
  video: 'Video',
  audio: 'Sound',
  lut: 'LUT',
  'image-pair': 'Before/after',
  font: 'Font',
};

const slotsOf = (kind: PreviewKind): Slot[] => (kind === 'image-pair' ? ['before', 'after'] : ['main']);
const specOf = (kind: PreviewKind, slot: Slot): SlotSpec => (slot === 'main' ? SPECS[kind as Exclude<PreviewKind, 'image-pair'>] : SPECS[slot]);
const canPreviewItself = (kind: PreviewKind) => kind === 'video' || kind === 'audio';

export interface PreviewSourceControls {
  kinds: readonly PreviewKind[];
  kind: PreviewKind;
  setKind(kind: PreviewKind): void;
  /** The admin chose “Use the download file” (only offered while the download is hosted). */
  fromDownload: boolean;
  setFromDownload(value: boolean): void;
  uploads: Record<Slot, UploadControls>;
  errors: Partial<Record<Slot | 'section', string>>;
  /** Checks a chosen file and starts its upload, or shows why it was refused (nothing is sent). */
  onFile(slot: Slot): (file: File) => void;
  /** A refusal from the server (the `preview_source` field of a 400). */
  setServerError(message: string): void;
  /** Whether an upload of the current kind is under way, paused or stopped by an error. */
  busy: boolean;
  /**
   * What to send: the source, nothing (no new preview media), or `missing` when only half of a
   * before/after pair was given (that slot then shows why).
   */
  body(downloadHosted: boolean): { source?: PreviewSourceInput; missing?: true };
}

export function usePreviewSource(category: CategoryValue, current: Preview | null | undefined): PreviewSourceControls {
  const kinds = CATEGORY_PREVIEW_KINDS[category];
  const [kind, setKindState] = React.useState<PreviewKind>(current && kinds.includes(current.kind) ? current.kind : kinds[0]!);
  const [fromDownload, setFromDownloadState] = React.useState(false);
  const [errors, setErrors] = React.useState<PreviewSourceControls['errors']>({});
  const uploads: Record<Slot, UploadControls> = {
    main: useUpload('download', 'preview'),
    before: useUpload('download', 'preview-before'),
    after: useUpload('download', 'preview-after'),
  };

  const setKind = (next: PreviewKind) => {
    if (next === kind) return;
    // A file of one kind is no source for another: its upload stops (a finished one is swept by the server).
    for (const slot of slotsOf(kind)) if (uploads[slot].state.status !== 'idle') uploads[slot].cancel();
    setKindState(next);
    setErrors({});
  };

  const onFile = (slot: Slot) => (file: File) => {
    setErrors((e) => ({ ...e, [slot]: undefined, section: undefined }));
    const spec = specOf(kind, slot);
    const refuse = (message: string) => setErrors((e) => ({ ...e, [slot]: message }));
    if (file.size === 0) return refuse(`“${file.name}” is empty.`);
    if (!spec.fits(file)) return refuse(`“${file.name}” ${spec.refusal}`);
    uploads[slot].start(file);
  };

  const busy = slotsOf(kind).some((slot) => ['uploading', 'paused', 'error'].includes(uploads[slot].state.status));

  const body = (downloadHosted: boolean): ReturnType<PreviewSourceControls['body']> => {
    if (canPreviewItself(kind) && fromDownload && downloadHosted) return { source: { kind, from_download: true } };
    const id = (slot: Slot) => {
      const s = uploads[slot].state;
      return s.status === 'done' ? s.id : undefined;
    };
    if (kind !== 'image-pair') {
      const upload_id = id('main');
      return upload_id ? { source: { kind, upload_id } } : {};
    }
    const [before_upload_id, after_upload_id] = [id('before'), id('after')];
    if (before_upload_id && after_upload_id) return { source: { kind, before_upload_id, after_upload_id } };
    if (!before_upload_id && !after_upload_id) return {};
    const missing: Slot = before_upload_id ? 'after' : 'before';
    setErrors((e) => ({ ...e, [missing]: `Choose the ${missing} image too: a before/after preview needs both.` }));
    return { missing: true };
  };

  return {
    kinds,
    kind,
    setKind,
    fromDownload,
    setFromDownload: (value) => {
      setFromDownloadState(value);
      setErrors({});
    },
    uploads,
    errors,
    onFile,
    setServerError: (message) => setErrors((e) => ({ ...e, section: message })),
    busy,
    body,
  };
}

/** The id of the section's first control, for focusing it when the server refuses the preview media. */
export const PREVIEW_FIELD_ID = 'resource-preview';

export function PreviewField({
  controls,
  resource,
  downloadHosted,
}: {
  controls: PreviewSourceControls;
  /** The resource being edited: its current preview shows, with its state. */
  resource?: Pick<Resource, 'id' | 'title' | 'category' | 'preview'>;
  /** The download is a hosted file (kept or being uploaded): a video or a sound may preview itself. */
  downloadHosted: boolean;
}) {
  const { kinds, kind, errors } = controls;
  const offerDownload = canPreviewItself(kind) && downloadHosted;
  const useDownload = offerDownload && controls.fromDownload;
  const id = PREVIEW_FIELD_ID;
  const current = resource?.preview;
  return (
    <fieldset id={id} className="grid gap-3" aria-describedby={errors.section ? `${id}-error` : `${id}-hint`}>
      <legend className="mb-2 text-sm font-medium leading-none">Preview</legend>
      <p id={`${id}-hint`} className="-mt-1 text-xs text-muted-foreground">
        {current
          ? 'New media replace the current preview once saved.'
          : 'Optional. What visitors play, hear or try on the card; the thumbnail shows until it is ready.'}
      </p>
      {current && resource && (
        <div className="flex flex-wrap items-start gap-x-2 text-sm">
          <span className="mt-1 text-muted-foreground">Current preview:</span>
          <PreviewStatus resource={resource} />
        </div>
      )}
      {kinds.length > 1 && (
        <ChoiceLabel id={`${id}-kind-label`}>Preview kind</ChoiceLabel>
      )}
      {kinds.length > 1 && (
        <SourceChoices
          name={`${id}-kind`}
          labelledBy={`${id}-kind-label`}
          value={kind}
          onChange={controls.setKind}
          choices={kinds.map((k) => [k, KIND_CHOICES[k]] as const)}
        />
      )}
      {offerDownload && <ChoiceLabel id={`${id}-source-label`}>Preview source</ChoiceLabel>}
      {offerDownload && (
        <SourceChoices
          name={`${id}-source`}
          labelledBy={`${id}-source-label`}
          value={useDownload ? 'download' : 'upload'}
          onChange={(v) => controls.setFromDownload(v === 'download')}
          choices={[
            ['upload', kind === 'video' ? 'Upload a video' : 'Upload a sound', Upload],
            ['download', 'Use the download file', kind === 'video' ? FileVideo : FileAudio],
          ]}
        />
      )}
      {useDownload ? (
        <p className="rounded-md bg-muted/60 px-3 py-2 text-sm">
          The download file is the preview: the server makes the {kind === 'video' ? 'clip' : 'sound clip'} from it after the save.
        </p>
      ) : (
        slotsOf(kind).map((slot) => {
          const spec = specOf(kind, slot);
          const zone = (
            <UploadZone
              key={`${kind}-${slot}`}
              id={`${id}-${slot}`}
              inputLabel={spec.label}
              accept={spec.accept}
              image={kind === 'image-pair'}
              upload={controls.uploads[slot]}
              onFile={controls.onFile(slot)}
              error={errors[slot]}
              hint={spec.hint}
            />
          );
          if (kind !== 'image-pair') return zone;
          // Two zones side by side: each says which image it takes (the input's own name says it to a screen reader).
          return (
            <div key={`${kind}-${slot}`} className="grid gap-1.5">
              <p aria-hidden="true" className="text-sm font-medium">
                {spec.label}
              </p>
              {zone}
            </div>
          );
        })
      )}
      {errors.section && (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-destructive">
          {errors.section}
        </p>
      )}
    </fieldset>
  );
}

function ChoiceLabel({ id, children }: { id: string; children: React.ReactNode }) {
  return (
    <p id={id} className="-mb-1.5 text-xs font-medium text-muted-foreground">
      {children}
    </p>
  );
}
