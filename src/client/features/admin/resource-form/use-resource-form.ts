import { zodResolver } from '@hookform/resolvers/zod';
import type { CategoryValue } from '@contract/categories';
import { THUMBNAIL_UPLOAD_MAX_BYTES } from '@contract/files';
import type { Resource, ResourceStatus } from '@contract/resources';
import * as React from 'react';
import { type FieldErrors, useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api';
import { formatBytes } from '@/lib/format';
import { paths } from '@/lib/paths';
import { useCreateResource } from '../api/create-resource';
import { useUpdateResource } from '../api/update-resource';
import { describedBy } from '../components/form-field';
import type { MediaSource } from '../components/media-source-field';
import { PREVIEW_FIELD_ID, usePreviewSource } from '../components/preview-field';
import type { HostedSummary } from '../components/upload-zone';
import { errorMessage, isSessionError } from '../lib/errors';
import { useUpload } from '../lib/use-upload';
import { browserTimeZone, formatZoned } from '../lib/zoned-time';
import {
  clearDraft,
  type Draft,
  draftKey,
  type FieldName,
  FIELDS,
  type FormInput,
  type FormOutput,
  formSchema,
  readDraft,
  serverFieldErrors,
  type Slot,
  slotBody,
  writeDraft,
} from './form-values';

export type TextField = 'title' | 'description' | 'thumbnail_url' | 'download_url';

/**
 * How a save leaves the resource's status: published, a draft, or scheduled at `publish_at` (UTC).
 * No status: as it is (an edit); a new resource is then published, the spec's flow.
 */
export type SaveIntent = { status?: undefined } | { status: 'published' | 'draft' } | { status: 'scheduled'; publish_at: string };
/** What became of a save: done, stopped by the form's own checks, refused on its publish time, or failed otherwise. */
export type SaveOutcome = 'saved' | 'invalid' | 'publish_at' | 'failed';

/** The success toast's description: what the save did to the resource's status. */
function statusNote(intent: SaveIntent, before: ResourceStatus | undefined): string | undefined {
  if (intent.status === 'scheduled') return `Scheduled for ${formatZoned(intent.publish_at, browserTimeZone())}.`;
  if (intent.status === 'draft') return before === 'published' ? 'Moved to drafts: visitors no longer see it.' : 'Saved as a draft: only admins can see it.';
  if (intent.status === 'published' && before !== undefined && before !== 'published') return 'Published: it is on the site now.';
  return undefined;
}

/**
 * Everything the resource form does, apart from how it looks: its values (with a draft kept in
 * the browser until saved or discarded), the uploads beside them, the save body, and where each
 * refusal shows. The fields are small components that take what this returns.
 */
export function useResourceForm({
  mode,
  category,
  resource,
  initial: saved,
}: {
  mode: 'create' | 'edit';
  category: CategoryValue;
  resource?: Resource;
  /** The saved values, which Discard returns to (read once: a refetch does not move them). */
  initial: FormInput;
}) {
  const [initial] = React.useState(saved);
  const navigate = useNavigate();
  const create = useCreateResource();
  const update = useUpdateResource();
  const saving = create.isPending || update.isPending;
  const key = draftKey(category, resource?.id);
  const [draft, setDraft] = React.useState<Draft | null>(() => readDraft(key));
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(formSchema),
    defaultValues: { ...initial, ...draft?.values },
    // react-hook-form would focus the first field it registered, not the first on screen.
    shouldFocusError: false,
  });
  React.useEffect(() => {
    const watching = form.watch((values) => writeDraft(key, values as FormInput, initial));
    return () => watching.unsubscribe();
  }, [form, key, initial]);

  const uploads = { thumbnail: useUpload('thumbnail'), download: useUpload('download') };
  const previewSource = usePreviewSource(category, resource?.preview);
  // What the resource hosts now; null once the admin removes it (saving then needs a new file or a link).
  const [hosted, setHosted] = React.useState<Record<Slot, HostedSummary | null>>({
    thumbnail: resource?.thumbnail ? { name: 'Uploaded image', detail: `${resource.thumbnail.width} × ${resource.thumbnail.height} px` } : null,
    download: resource?.file ? { name: resource.file.name, detail: formatBytes(resource.file.size) } : null,
  });
  // The thumbnail link shown in the preview card: taken when its field is left, not at each key.
  const [thumbnailLink, setThumbnailLink] = React.useState(() => form.getValues('thumbnail_url') ?? '');
  const { errors, isSubmitting } = form.formState;
  const sources: Record<Slot, MediaSource> = { thumbnail: form.watch('thumbnail_source'), download: form.watch('download_source') };
  const busy = (slot: Slot) => sources[slot] === 'upload' && ['uploading', 'paused', 'error'].includes(uploads[slot].state.status);
  const uploading = busy('thumbnail') || busy('download') || previewSource.busy;
  // A video or a sound may preview itself only when the download is a hosted file (kept, or uploading now).
  const downloadHosted = sources.download === 'upload' && (hosted.download !== null || uploads.download.state.status !== 'idle');

  const focusFirstInvalid = (invalid: Partial<Record<FieldName, unknown>>) => {
    const first = FIELDS.find((f) => invalid[f]);
    if (!first) return;
    if (first === 'thumbnail_source' || first === 'download_source') {
      document.getElementById(`resource-${first === 'thumbnail_source' ? 'thumbnail' : 'download'}-input`)?.focus();
    } else form.setFocus(first);
  };
  /** The Preview section comes last in the form: its first control takes the focus when only it is wrong. */
  const focusPreview = () => document.querySelector<HTMLElement>(`#${PREVIEW_FIELD_ID} input[aria-invalid="true"], #${PREVIEW_FIELD_ID} input`)?.focus();

  const bodyOf = (slot: Slot, values: Parameters<typeof slotBody>[1]) => slotBody(slot, values, uploads[slot].state, hosted[slot] !== null);

  /** Marks a slot set to Upload that has no file; the slots that were. */
  const markMissingUploads = (values: Parameters<typeof slotBody>[1]) => {
    const missing: Partial<Record<FieldName, true>> = {};
    for (const slot of ['thumbnail', 'download'] as const) {
      const message = bodyOf(slot, values).missing;
      if (!message) continue;
      form.setError(`${slot}_source`, { type: 'required', message });
      missing[`${slot}_source`] = true;
    }
    return missing;
  };

  // Which save a button asked for, read by onValid; and what became of it, for the one who asked.
  const intent = React.useRef<SaveIntent>({});
  const [asked, setAsked] = React.useState<SaveIntent['status'] | 'keep'>('keep');
  const outcome = React.useRef<SaveOutcome>('invalid');
  // The server's refusal of the publish time, shown under the schedule's time field.
  const [publishAtError, setPublishAtError] = React.useState<string | undefined>();

  const onValid = async (values: FormOutput) => {
    if (saving) return;
    outcome.current = 'failed';
    if (uploading) {
      toast({ title: 'Wait for the upload to finish', description: 'The form can be saved once every upload is complete.', variant: 'destructive' });
      return;
    }
    const missing = markMissingUploads(values);
    const preview = previewSource.body(downloadHosted);
    if (Object.keys(missing).length > 0 || preview.missing) {
      if (Object.keys(missing).length > 0) focusFirstInvalid(missing);
      else focusPreview();
      toast({ title: 'Please fill in all required fields', variant: 'destructive' });
      return;
    }
    const fields = {
      title: values.title,
      description: values.description,
      ...bodyOf('thumbnail', values).body,
      ...bodyOf('download', values).body,
      tags: values.tags,
      is_premium: values.is_premium,
      licence: values.licence,
      thumbnail_choice: values.thumbnail_choice,
      apps: values.apps === null ? null : values.apps.map((a) => ({ id: a.id, min_version: a.min_version.trim() || null })),
      ...(preview.source ? { preview_source: preview.source } : {}),
      ...intent.current,
    };
    const note = statusNote(intent.current, resource?.status);
    setPublishAtError(undefined);
    try {
      if (mode === 'create') {
        await create.mutateAsync({ ...fields, category });
        toast({ title: 'Resource created successfully', description: note, variant: 'success' });
      } else {
        // Only editable fields: download_count is never part of an edit.
        await update.mutateAsync({ id: resource!.id, patch: fields });
        toast({ title: 'Resource updated successfully', description: note, variant: 'success' });
      }
      outcome.current = 'saved';
      clearDraft(key);
      navigate(paths.admin.resources(category));
    } catch (err) {
      if (isSessionError(err)) return;
      if (err instanceof ApiError && err.fields?.publish_at) {
        // Shown under the schedule's time field (the caller opens it again), not on the form.
        setPublishAtError(err.fields.publish_at);
        outcome.current = 'publish_at';
      }
      if (err instanceof ApiError && err.fields) {
        const refused = serverFieldErrors(err.fields);
        for (const [field, message] of refused.form) form.setError(field, { type: 'server', message });
        if (refused.preview) previewSource.setServerError(refused.preview);
        if (refused.form.length > 0) focusFirstInvalid(Object.fromEntries(refused.form));
        else if (refused.preview) focusPreview();
      }
      toast({ title: 'Failed to save resource', description: errorMessage(err), variant: 'destructive' });
    }
  };

  const onInvalid = (invalid: FieldErrors<FormInput>) => {
    outcome.current = 'invalid';
    const values = form.getValues();
    const missingUploads = markMissingUploads(values);
    focusFirstInvalid({ ...invalid, ...missingUploads });
    // Spec: any required field missing → this toast, and nothing is sent.
    const empty = (name: TextField) => !String(values[name] ?? '').trim();
    if (
      Object.keys(missingUploads).length > 0 ||
      empty('title') ||
      empty('description') ||
      (values.thumbnail_source === 'link' && empty('thumbnail_url')) ||
      (values.download_source === 'link' && empty('download_url'))
    ) {
      toast({ title: 'Please fill in all required fields', variant: 'destructive' });
    }
  };

  /** A text field's props: its id, its error and hint for screen readers, and react-hook-form's. */
  const field = (name: TextField) => ({
    id: `resource-${name}`,
    'aria-invalid': errors[name] ? true : undefined,
    // Every field but the title has a hint line under it.
    'aria-describedby': describedBy(`resource-${name}`, errors[name]?.message, name !== 'title'),
    'aria-required': true,
    ...form.register(name),
  });

  const setSource = (slot: Slot, source: MediaSource) => {
    form.setValue(`${slot}_source`, source);
    form.clearErrors([`${slot}_source`, `${slot}_url`]);
  };
  const onFile = (slot: Slot) => (file: File) => {
    form.clearErrors(`${slot}_source`);
    if (file.size === 0) {
      form.setError(`${slot}_source`, { type: 'size', message: `“${file.name}” is empty.` });
      return;
    }
    if (slot === 'thumbnail' && !file.type.startsWith('image/')) {
      form.setError('thumbnail_source', { type: 'type', message: `“${file.name}” is not an image. Choose a PNG, JPEG, WebP, AVIF or GIF file.` });
      return;
    }
    if (slot === 'thumbnail' && file.size > THUMBNAIL_UPLOAD_MAX_BYTES) {
      form.setError('thumbnail_source', { type: 'size', message: `A thumbnail can be at most ${formatBytes(THUMBNAIL_UPLOAD_MAX_BYTES)}.` });
      return;
    }
    uploads[slot].start(file);
  };

  /** Forgets the unsaved fields: the form is back to what was saved. */
  const discardDraft = () => {
    clearDraft(key);
    setDraft(null);
    form.reset(initial);
    setThumbnailLink(initial.thumbnail_url ?? '');
  };

  const submit = form.handleSubmit(onValid, onInvalid);
  /** Saves the form with `how` as its status; resolves to what became of it. */
  const saveAs = async (how: SaveIntent): Promise<SaveOutcome> => {
    intent.current = how;
    setAsked(how.status ?? 'keep');
    outcome.current = 'invalid';
    await submit();
    return outcome.current;
  };

  return {
    form,
    errors,
    field,
    /** The form's own submit (Enter, or the button that keeps the status): a new resource is published, an edit keeps its status. */
    onSubmit: (e?: React.BaseSyntheticEvent) => {
      intent.current = {};
      setAsked('keep');
      return submit(e);
    },
    saveAs,
    /** Which save is running (its status; 'keep' for one that keeps it), for its button's spinner. */
    savingAs: saving ? asked : undefined,
    publishAtError,
    clearPublishAtError: () => setPublishAtError(undefined),
    saving,
    submitting: isSubmitting,
    uploading,
    uploads,
    previewSource,
    downloadHosted,
    sources,
    setSource,
    onFile,
    hosted,
    removeHosted: (slot: Slot) => setHosted((h) => ({ ...h, [slot]: null })),
    thumbnailLink,
    setThumbnailLink,
    /** The unsaved fields restored on opening the form, until discarded. */
    draft,
    discardDraft,
    /** Leaving without saving: the unsaved fields go. */
    cancel: () => clearDraft(key),
  };
}

export type ResourceFormControls = ReturnType<typeof useResourceForm>;
