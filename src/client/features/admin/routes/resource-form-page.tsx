import { zodResolver } from '@hookform/resolvers/zod';
import { type CategoryValue, formatCategoryTitle, getCategory } from '@contract/categories';
import { DESCRIPTION_MAX, TITLE_MAX } from '@contract/constants';
import { DEFAULT_LICENCE_KIND } from '@contract/resource-page';
import { type Resource, resourceInputSchema } from '@contract/resources';
import { Save } from 'lucide-react';
import * as React from 'react';
import { Controller, type FieldErrors, useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import type { z } from 'zod';
import { ResourceThumbnail } from '@/components/resource/thumbnail';
import { Button } from '@/components/ui/button';
import { Card, Input, Label, Skeleton, Spinner, Textarea } from '@/components/ui/primitives';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api';
import { paths } from '@/lib/paths';
import { useCreateResource } from '../api/create-resource';
import { useResource } from '../api/get-resources';
import { useUpdateResource } from '../api/update-resource';
import { BackToDashboard } from '../components/back-to-dashboard';
import { describedBy, FormField } from '../components/form-field';
import { LicenceField } from '../components/licence-field';
import { PageHeader } from '../components/page-header';
import { TagPicker } from '../components/tag-picker';
import { useAdminTitle } from '../components/use-admin-title';
import { useErrorToast } from '../components/use-error-toast';
import { errorMessage, isSessionError } from '../lib/errors';
import { UnknownCategory } from './unknown-category';
import { useCategoryParam } from './use-category-param';

/** The contract's create body minus the category, which comes from the route. */
const formSchema = resourceInputSchema.omit({ category: true });
type FormInput = z.input<typeof formSchema>;
type FormOutput = z.output<typeof formSchema>;

const REQUIRED = ['title', 'description', 'thumbnail_url', 'download_url'] as const;
/** In the order the form shows them: the first invalid one gets the focus. */
const FIELDS = [...REQUIRED, 'tags', 'is_premium', 'licence'] as const;
type FieldName = (typeof FIELDS)[number];

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
        thumbnail_url: '',
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
    thumbnail_url: r.thumbnail_url,
    download_url: r.download_url,
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
  const focusFirstInvalid = (invalid: Partial<Record<FieldName, unknown>>) => {
    const first = FIELDS.find((f) => invalid[f]);
    if (first) form.setFocus(first);
  };
  const { errors, isSubmitting } = form.formState;
  const [preview, setPreview] = React.useState(initial.thumbnail_url);
  const description = form.watch('description') ?? '';

  const onValid = async (values: FormOutput) => {
    if (saving) return;
    try {
      if (mode === 'create') {
        await create.mutateAsync({ ...values, category });
        toast({ title: 'Resource created successfully', variant: 'success' });
      } else {
        // Only editable fields: download_count is never part of an edit.
        await update.mutateAsync({ id: resource!.id, patch: values });
        toast({ title: 'Resource updated successfully', variant: 'success' });
      }
      navigate(paths.admin.resources(category));
    } catch (err) {
      if (isSessionError(err)) return;
      if (err instanceof ApiError && err.fields) {
        const invalid: Partial<Record<FieldName, true>> = {};
        for (const [key, message] of Object.entries(err.fields)) {
          const field = key.split('.')[0] as FieldName;
          if (!FIELDS.includes(field)) continue;
          form.setError(field, { type: 'server', message });
          invalid[field] = true;
        }
        focusFirstInvalid(invalid);
      }
      toast({ title: 'Failed to save resource', description: errorMessage(err), variant: 'destructive' });
    }
  };

  const onInvalid = (invalid: FieldErrors<FormInput>) => {
    focusFirstInvalid(invalid);
    const values = form.getValues();
    // Spec: any required field missing → this toast, and nothing is sent.
    if (REQUIRED.some((f) => !String(values[f] ?? '').trim())) {
      toast({ title: 'Please fill in all required fields', variant: 'destructive' });
    }
  };

  const field = (name: (typeof REQUIRED)[number]) => ({
    id: `resource-${name}`,
    'aria-invalid': errors[name] ? true : undefined,
    // Every field but the title has a hint line under it.
    'aria-describedby': describedBy(`resource-${name}`, errors[name]?.message, name !== 'title'),
    'aria-required': true,
    ...form.register(name),
  });

  const thumbnail = field('thumbnail_url');

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
        <Card className="grid gap-5 p-6 lg:col-span-2">
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
          <FormField
            id="resource-thumbnail_url"
            label="Thumbnail URL"
            required
            error={errors.thumbnail_url?.message}
            hint="An https:// image address, or a site path such as /thumbnails/1.svg"
          >
            <Input
              {...thumbnail}
              inputMode="url"
              placeholder="https://…"
              onBlur={(e) => {
                void thumbnail.onBlur(e);
                setPreview(e.target.value.trim());
              }}
            />
          </FormField>
          <FormField
            id="resource-download_url"
            label="Download URL"
            required
            error={errors.download_url?.message}
            hint="Where the Download button sends visitors (http or https)"
          >
            <Input {...field('download_url')} inputMode="url" placeholder="https://…" />
          </FormField>
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
            <ThumbnailPreview url={preview} />
          </Card>
        </div>

        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end lg:col-span-3">
          <Button asChild variant="outline">
            <Link to={paths.admin.resources(category)}>Cancel</Link>
          </Button>
          <Button type="submit" variant="gradient" disabled={saving || isSubmitting}>
            {saving ? <Spinner /> : <Save aria-hidden="true" />}
            {saving ? 'Saving…' : mode === 'create' ? 'Create Resource' : 'Save Changes'}
          </Button>
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

function ThumbnailPreview({ url }: { url: string }) {
  return (
    <ResourceThumbnail
      resource={{ thumbnail_url: url }}
      alt="Thumbnail preview"
      eager
      className="aspect-video w-full rounded-lg border object-cover"
      caption={(why) => (why === 'broken' ? 'The image could not be loaded' : 'Enter a thumbnail URL to see it here')}
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
