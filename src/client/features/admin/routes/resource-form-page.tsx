import { zodResolver } from '@hookform/resolvers/zod';
import { type CategoryValue, formatCategoryTitle, getCategory } from '@contract/categories';
import { DESCRIPTION_MAX, TITLE_MAX } from '@contract/constants';
import { DEFAULT_LICENCE_KIND } from '@contract/resource-page';
import { THUMBNAIL_UPLOAD_MAX_BYTES } from '@contract/files';
import { type Resource, resourceInputSchema } from '@contract/resources';
import { Save } from 'lucide-react';
import * as React from 'react';
import { Controller, type FieldErrors, useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { z } from 'zod';
import { ResourceThumbnail, type ThumbnailSource } from '@/components/resource/thumbnail';
import { Button } from '@/components/ui/button';
import { Card, Input, Label, Skeleton, Spinner, Textarea } from '@/components/ui/primitives';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api';
import { formatBytes } from '@/lib/format';
import { paths } from '@/lib/paths';
import { useCreateResource } from '../api/create-resource';
import { useResource } from '../api/get-resources';
import { useUpdateResource } from '../api/update-resource';
import { BackToDashboard } from '../components/back-to-dashboard';
import { describedBy, FormField } from '../components/form-field';
import { LicenceField } from '../components/licence-field';
import { type HostedSummary, type MediaSource, MediaSourceField } from '../components/media-source-field';
import { PageHeader } from '../components/page-header';
import { PREVIEW_FIELD_ID, PreviewField, usePreviewSource } from '../components/preview-field';
import { TagPicker } from '../components/tag-picker';
import { useAdminTitle } from '../components/use-admin-title';
import { useErrorToast } from '../components/use-error-toast';
import { errorMessage, isSessionError } from '../lib/errors';
import { useUpload } from '../lib/use-upload';
import { UnknownCategory } from './unknown-category';
import { useCategoryParam } from './use-category-param';

/**
 * The form's own shape: the contract's fields, plus where the download and the thumbnail come from.
 * A link is checked by the contract's rule; an upload lives beside the form (useUpload) and is
 * checked on submit.
 */
const shape = resourceInputSchema.shape;
const formSchema = z
  .object({
    title: shape.title,
    description: shape.description,
    thumbnail_source: z.enum(['upload', 'link']),
    thumbnail_url: z.string(),
    download_source: z.enum(['upload', 'link']),
    download_url: z.string(),
    tags: shape.tags,
    is_premium: shape.is_premium,
    licence: shape.licence,
  })
  .superRefine((v, ctx) => {
    for (const [source, name, rule] of [
      [v.thumbnail_source, 'thumbnail_url', shape.thumbnail_url.unwrap()],
      [v.download_source, 'download_url', shape.download_url.unwrap()],
    ] as const) {
      if (source !== 'link') continue;
      const result = rule.safeParse(v[name]);
      if (!result.success) ctx.addIssue({ code: 'custom', path: [name], message: result.error.issues[0]?.message ?? 'Invalid URL' });
    }
  });
type FormInput = z.input<typeof formSchema>;
type FormOutput = z.output<typeof formSchema>;

type Slot = 'thumbnail' | 'download';
/** In the order the form shows them: the first invalid one gets the focus. */
const FIELDS = ['title', 'description', 'thumbnail_url', 'thumbnail_source', 'download_url', 'download_source', 'tags', 'is_premium', 'licence'] as const;
type FieldName = (typeof FIELDS)[number];
/** The server's name for a field → the form's (an upload's refusal shows at its slot). */
const SERVER_FIELDS: Record<string, FieldName> = { thumbnail_upload_id: 'thumbnail_source', download_upload_id: 'download_source' };

export function ResourceFormPage({ mode }: { mode: 'create' | 'edit' }) {
  const { raw, category } = useCategoryParam();
  if (!category) return <UnknownCategory value={raw} />;
  return mode === 'create' ? <CreateResource category={category} /> : <EditResource category={category} />;
}

function CreateResource({ category }: { category: CategoryValue }) {
  useAdminTitle('New Resource');
  return (
    <ResourceForm
      mode="create"
      category={category}
      initial={{
        title: '',
        description: '',
        // The issue: a creator drops the pack and its thumbnail into the form; a link stays one click away.
        thumbnail_source: 'upload',
        thumbnail_url: '',
        download_source: 'upload',
        download_url: '',
        tags: [],
        // PRODUCT.md: premium is on by default in the premium category.
        is_premium: category === 'premium_resources',
        licence: { kind: DEFAULT_LICENCE_KIND },
      }}
    />
  );
}

/** Spec: the edit screen loads the category list and picks the item by id (the server narrows the list to that id). */
function EditResource({ category }: { category: CategoryValue }) {
  useAdminTitle('Edit Resource');
  const rawId = useParams().id ?? '';
  const id = /^[1-9][0-9]{0,9}$/.test(rawId) && Number(rawId) <= 2_147_483_647 ? Number(rawId) : undefined;
  const resources = useResource(category, id ?? 0, id !== undefined);
  const resource = resources.data?.items.find((r) => r.id === id);
  const missing = (id === undefined || resources.isSuccess) && !resource;
  const notFound = React.useMemo(
    () => (missing ? new Error(`There is no resource ${rawId} in ${formatCategoryTitle(category)}.`) : null),
    [missing, rawId, category],
  );
  useErrorToast(resources.error ?? notFound, 'Failed to load resource');

  if (id !== undefined && resources.isPending) return <FormSkeleton />;
  if (!resource) {
    return (
      <Card role="alert" className="mx-auto flex max-w-lg flex-col items-center gap-3 p-10 text-center">
        <h1 className="text-2xl font-bold">Failed to load resource</h1>
        <p className="text-muted-foreground">
          {errorMessage(resources.error ?? notFound)}
        </p>
        <div className="flex flex-wrap justify-center gap-2">
          <BackToDashboard />
          <Button asChild>
            <Link to={paths.admin.resources(category)}>Back to {formatCategoryTitle(category)}</Link>
          </Button>
        </div>
      </Card>
    );
  }
  return <ResourceForm key={resource.id} mode="edit" category={category} resource={resource} initial={pickEditable(resource)} />;
}

function pickEditable(r: Resource): FormInput {
  return {
    title: r.title,
    description: r.description,
    // A hosted file shows as one (name, size); its link fields start empty for a switch to Link.
    thumbnail_source: r.thumbnail ? 'upload' : 'link',
    thumbnail_url: r.thumbnail ? '' : r.thumbnail_url,
    download_source: r.file ? 'upload' : 'link',
    download_url: r.file ? '' : r.download_url,
    tags: r.tags,
    is_premium: r.is_premium,
    licence: r.licence,
  };
}

function ResourceForm({
  mode,
  category,
  resource,
  initial,
}: {
  mode: 'create' | 'edit';
  category: CategoryValue;
  resource?: Resource;
  initial: FormInput;
}) {
  const navigate = useNavigate();
  const info = getCategory(category);
  const create = useCreateResource();
  const update = useUpdateResource();
  const saving = create.isPending || update.isPending;
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(formSchema),
    defaultValues: initial,
    // react-hook-form would focus the first field it registered, not the first on screen.
    shouldFocusError: false,
  });
  const uploads = { thumbnail: useUpload('thumbnail'), download: useUpload('download') };
  const previewSource = usePreviewSource(category, resource?.preview);
  // What the resource hosts now; null once the admin removes it (saving then needs a new file or a link).
  const [hosted, setHosted] = React.useState<Record<Slot, HostedSummary | null>>({
    thumbnail: resource?.thumbnail ? { name: 'Uploaded image', detail: `${resource.thumbnail.width} × ${resource.thumbnail.height} px` } : null,
    download: resource?.file ? { name: resource.file.name, detail: formatBytes(resource.file.size) } : null,
  });
  const focusFirstInvalid = (invalid: Partial<Record<FieldName, unknown>>) => {
    const first = FIELDS.find((f) => invalid[f]);
    if (!first) return;
    if (first === 'thumbnail_source' || first === 'download_source') {
      document.getElementById(`resource-${first === 'thumbnail_source' ? 'thumbnail' : 'download'}-input`)?.focus();
    } else form.setFocus(first);
  };
  /** The Preview section comes last in the form: its first control takes the focus when only it is wrong. */
  const focusPreview = () => document.querySelector<HTMLElement>(`#${PREVIEW_FIELD_ID} input[aria-invalid="true"], #${PREVIEW_FIELD_ID} input`)?.focus();
  const { errors, isSubmitting } = form.formState;
  const [preview, setPreview] = React.useState(initial.thumbnail_url ?? '');
  const description = form.watch('description') ?? '';
  const sources: Record<Slot, MediaSource> = { thumbnail: form.watch('thumbnail_source'), download: form.watch('download_source') };
  const busy = (slot: Slot) => sources[slot] === 'upload' && ['uploading', 'paused', 'error'].includes(uploads[slot].state.status);
  const uploading = busy('thumbnail') || busy('download') || previewSource.busy;
  // A video or a sound may preview itself only when the download is a hosted file (kept, or uploading now).
  const downloadHosted = sources.download === 'upload' && (hosted.download !== null || uploads.download.state.status !== 'idle');

  /** The body's part for one slot: a link, a finished upload, nothing (keep what is hosted), or what is missing. */
  const slotBody = (
    slot: Slot,
    values: Pick<FormOutput, 'thumbnail_source' | 'download_source' | 'thumbnail_url' | 'download_url'>,
  ): { body: Record<string, string>; missing?: string } => {
    if (values[`${slot}_source`] === 'link') return { body: { [`${slot}_url`]: values[`${slot}_url`] } };
    const state = uploads[slot].state;
    if (state.status === 'done' && state.id) return { body: { [`${slot}_upload_id`]: state.id } };
    // Still uploading: saving waits (the button says so).
    if (state.status !== 'idle' || hosted[slot]) return { body: {} };
    return { body: {}, missing: slot === 'download' ? 'Choose a file to upload, or give a link' : 'Choose an image to upload, or give a link' };
  };

  /** Marks a slot set to Upload that has no file; true when one was. */
  const markMissingUploads = (values: Pick<FormOutput, 'thumbnail_source' | 'download_source' | 'thumbnail_url' | 'download_url'>) => {
    const missing: Partial<Record<FieldName, true>> = {};
    for (const slot of ['thumbnail', 'download'] as const) {
      const message = slotBody(slot, values).missing;
      if (!message) continue;
      form.setError(`${slot}_source`, { type: 'required', message });
      missing[`${slot}_source`] = true;
    }
    return missing;
  };

  const onValid = async (values: FormOutput) => {
    if (saving) return;
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
    const thumbnail = slotBody('thumbnail', values);
    const download = slotBody('download', values);
    const fields = {
      title: values.title,
      description: values.description,
      ...thumbnail.body,
      ...download.body,
      tags: values.tags,
      is_premium: values.is_premium,
      licence: values.licence,
      ...(preview.source ? { preview_source: preview.source } : {}),
    };
    try {
      if (mode === 'create') {
        await create.mutateAsync({ ...fields, category });
        toast({ title: 'Resource created successfully', variant: 'success' });
      } else {
        // Only editable fields: download_count is never part of an edit.
        await update.mutateAsync({ id: resource!.id, patch: fields });
        toast({ title: 'Resource updated successfully', variant: 'success' });
      }
      navigate(paths.admin.resources(category));
    } catch (err) {
      if (isSessionError(err)) return;
      if (err instanceof ApiError && err.fields) {
        const invalid: Partial<Record<FieldName, true>> = {};
        let previewRefused = false;
        for (const [key, message] of Object.entries(err.fields)) {
          const name = key.split('.')[0]!;
          if (name === 'preview_source') {
            previewSource.setServerError(message);
            previewRefused = true;
            continue;
          }
          const field = SERVER_FIELDS[name] ?? (name as FieldName);
          if (!FIELDS.includes(field)) continue;
          form.setError(field, { type: 'server', message });
          invalid[field] = true;
        }
        if (Object.keys(invalid).length > 0) focusFirstInvalid(invalid);
        else if (previewRefused) focusPreview();
      }
      toast({ title: 'Failed to save resource', description: errorMessage(err), variant: 'destructive' });
    }
  };

  const onInvalid = (invalid: FieldErrors<FormInput>) => {
    const values = form.getValues();
    const missingUploads = markMissingUploads(values);
    focusFirstInvalid({ ...invalid, ...missingUploads });
    // Spec: any required field missing → this toast, and nothing is sent.
    const empty = (name: 'title' | 'description' | 'thumbnail_url' | 'download_url') => !String(values[name] ?? '').trim();
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

  const field = (name: 'title' | 'description' | 'thumbnail_url' | 'download_url') => ({
    id: `resource-${name}`,
    'aria-invalid': errors[name] ? true : undefined,
    // Every field but the title has a hint line under it.
    'aria-describedby': describedBy(`resource-${name}`, errors[name]?.message, name !== 'title'),
    'aria-required': true,
    ...form.register(name),
  });

  const thumbnailUrl = field('thumbnail_url');

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
  const localThumbnail = useObjectUrl(uploads.thumbnail.state.status === 'idle' ? null : uploads.thumbnail.file);

  return (
    <>
      <PageHeader
        title={mode === 'create' ? 'Add New Resource' : 'Edit Resource'}
        description={mode === 'create' ? `New resource in ${info.title}` : `${resource!.title} · ${info.title}`}
        actions={
          <Button asChild variant="outline">
            <Link to={paths.admin.resources(category)}>Back to {info.title}</Link>
          </Button>
        }
      />
      <form noValidate onSubmit={form.handleSubmit(onValid, onInvalid)} className="grid gap-6 lg:grid-cols-3">
        <Card className="grid gap-6 p-6 lg:col-span-2">
          <FormField id="resource-title" label="Title" required error={errors.title?.message}>
            <Input {...field('title')} maxLength={TITLE_MAX} placeholder="e.g. Cinematic Transitions Pack" />
          </FormField>
          <FormField
            id="resource-description"
            label="Description"
            required
            error={errors.description?.message}
            hint={`${description.length.toLocaleString('en-US')}/${DESCRIPTION_MAX.toLocaleString('en-US')} characters`}
          >
            <Textarea {...field('description')} rows={6} maxLength={DESCRIPTION_MAX} placeholder="What is in it, what it is for" />
          </FormField>
          <MediaSourceField
            id="resource-thumbnail"
            legend="Thumbnail"
            required
            uploadChoice="Upload an image"
            inputLabel="Thumbnail image"
            accept="image/png,image/jpeg,image/webp,image/avif,image/gif"
            source={sources.thumbnail}
            onSourceChange={(s) => setSource('thumbnail', s)}
            upload={uploads.thumbnail}
            hosted={hosted.thumbnail}
            onRemoveHosted={() => setHosted((h) => ({ ...h, thumbnail: null }))}
            onFile={onFile('thumbnail')}
            error={sources.thumbnail === 'upload' ? errors.thumbnail_source?.message : undefined}
            link={
              <FormField
                id="resource-thumbnail_url"
                label="Thumbnail URL"
                required
                error={errors.thumbnail_url?.message}
                hint="An https:// image address, or a site path such as /thumbnails/1.svg"
              >
                <Input
                  {...thumbnailUrl}
                  inputMode="url"
                  placeholder="https://…"
                  onBlur={(e) => {
                    void thumbnailUrl.onBlur(e);
                    setPreview(e.target.value.trim());
                  }}
                />
              </FormField>
            }
          />
          <MediaSourceField
            id="resource-download"
            legend="Download"
            required
            uploadChoice="Upload a file"
            inputLabel="Download file"
            source={sources.download}
            onSourceChange={(s) => setSource('download', s)}
            upload={uploads.download}
            hosted={hosted.download}
            onRemoveHosted={() => setHosted((h) => ({ ...h, download: null }))}
            onFile={onFile('download')}
            error={sources.download === 'upload' ? errors.download_source?.message : undefined}
            link={
              <FormField
                id="resource-download_url"
                label="Download URL"
                required
                error={errors.download_url?.message}
                hint="Where the Download button sends visitors (http or https)"
              >
                <Input {...field('download_url')} inputMode="url" placeholder="https://…" />
              </FormField>
            }
          />
          <PreviewField controls={previewSource} resource={resource} downloadHosted={downloadHosted} />
        </Card>

        <div className="grid content-start gap-6">
          <Card className="grid gap-3 p-6">
            <Label htmlFor="resource-tags">Tags</Label>
            <Controller
              control={form.control}
              name="tags"
              render={({ field: f }) => (
                <TagPicker
                  id="resource-tags"
                  value={f.value ?? []}
                  onChange={f.onChange}
                  suggestions={info.tags}
                  invalid={!!errors.tags}
                  describedBy={errors.tags ? 'resource-tags-error' : undefined}
                />
              )}
            />
            {errors.tags && (
              <p id="resource-tags-error" className="text-sm font-medium text-destructive">
                {errors.tags.message ??
                  errors.tags.root?.message ??
                  // A tag of its own is wrong (e.g. holds a comma): its message, not a generic one.
                  (Array.isArray(errors.tags) ? errors.tags.find((e) => e?.message)?.message : undefined) ??
                  'Invalid tags'}
              </p>
            )}
          </Card>
          <Card className="flex items-start justify-between gap-4 p-6">
            <div className="grid gap-1">
              <Label htmlFor="resource-premium">Premium resource</Label>
              <p id="resource-premium-hint" className="text-xs text-muted-foreground">
                Shows a Premium badge and joins the premium showcase.
              </p>
            </div>
            <Controller
              control={form.control}
              name="is_premium"
              render={({ field: f }) => (
                <Switch
                  id="resource-premium"
                  aria-describedby="resource-premium-hint"
                  checked={f.value ?? false}
                  onCheckedChange={f.onChange}
                />
              )}
            />
          </Card>
          <Card className="p-6">
            <Controller
              control={form.control}
              name="licence"
              render={({ field: f, fieldState }) => (
                <LicenceField
                  value={f.value ?? { kind: DEFAULT_LICENCE_KIND }}
                  onChange={f.onChange}
                  selectRef={f.ref}
                  error={fieldState.error?.message ?? licenceError(fieldState.error)}
                />
              )}
            />
          </Card>
          <Card className="grid gap-3 p-6">
            <p className="text-sm font-medium">Thumbnail preview</p>
            {sources.thumbnail === 'link' ? (
              <ThumbnailPreview resource={{ thumbnail_url: preview }} caption="Enter a thumbnail URL to see it here" />
            ) : localThumbnail ? (
              <img src={localThumbnail} alt="Thumbnail preview" className="aspect-video w-full rounded-lg border object-cover" />
            ) : (
              <ThumbnailPreview
                resource={hosted.thumbnail && resource?.thumbnail ? resource : { thumbnail_url: '' }}
                caption="Choose an image to see it here"
              />
            )}
          </Card>
        </div>

        <div className="flex flex-col-reverse items-stretch gap-2 sm:flex-row sm:items-center sm:justify-end lg:col-span-3">
          <Button asChild variant="outline">
            <Link to={paths.admin.resources(category)}>Cancel</Link>
          </Button>
          <Button
            type="submit"
            variant="gradient"
            disabled={saving || isSubmitting || uploading}
            aria-describedby={uploading ? 'resource-save-wait' : undefined}
          >
            {saving ? <Spinner /> : <Save aria-hidden="true" />}
            {saving ? 'Saving…' : mode === 'create' ? 'Create Resource' : 'Save Changes'}
          </Button>
          {/* Last in the DOM: above the buttons on a phone (column-reverse), at the left beside them on wider screens. */}
          {uploading && (
            <p id="resource-save-wait" className="text-sm text-muted-foreground sm:order-first sm:mr-auto">
              The form can be saved once the upload is complete.
            </p>
          )}
        </div>
      </form>
    </>
  );
}

/** The message of an error on the licence's credit line or text (react-hook-form nests it by field). */
function licenceError(error: unknown): string | undefined {
  const nested = error as { credit?: { message?: string }; text?: { message?: string } } | undefined;
  return nested?.credit?.message ?? nested?.text?.message;
}

/** A blob: URL for a chosen file while it is shown, revoked after. */
function useObjectUrl(file: File | null | undefined): string | null {
  const [url, setUrl] = React.useState<string | null>(null);
  React.useEffect(() => {
    if (!file) return setUrl(null);
    const next = URL.createObjectURL(file);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [file]);
  return url;
}

function ThumbnailPreview({ resource, caption }: { resource: ThumbnailSource; caption: string }) {
  return (
    <ResourceThumbnail
      resource={resource}
      alt="Thumbnail preview"
      eager
      sizes="(min-width: 64rem) 24rem, 100vw"
      className="aspect-video w-full rounded-lg border object-cover"
      caption={(why) => (why === 'broken' ? 'The image could not be loaded' : caption)}
    />
  );
}

function FormSkeleton() {
  return (
    <div aria-busy="true" aria-label="Loading resource" className="grid gap-6">
      <Skeleton className="h-10 w-64" />
      <div className="grid gap-6 lg:grid-cols-3">
        <Skeleton className="h-96 lg:col-span-2" />
        <Skeleton className="h-96" />
      </div>
    </div>
  );
}
