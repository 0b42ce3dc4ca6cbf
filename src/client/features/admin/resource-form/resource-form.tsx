import { type CategoryValue, getCategory } from '@contract/categories';
import { DESCRIPTION_MAX, TITLE_MAX } from '@contract/constants';
import type { Resource } from '@contract/resources';
import { CalendarClock, EyeOff, FilePen, History, Save, Send } from 'lucide-react';
import * as React from 'react';
import { Link } from '@/lib/link';
import { Button } from '@/components/ui/button';
import { Card, Input, Spinner, Textarea } from '@/components/ui/primitives';
import { paths } from '@/lib/paths';
import { FormField } from '../components/form-field';
import { MediaSourceField } from '../components/media-source-field';
import { PageHeader } from '../components/page-header';
import { PreviewField } from '../components/preview-field';
import { PreviewLinkButton, ResourceStatusBadge, usePreviewLink } from '../components/resource-status';
import { browserTimeZone, formatZoned } from '../lib/zoned-time';
import type { FormInput } from './form-values';
import { ScheduleDialog } from './schedule-dialog';
import { AppsCard, LicenceCard, PremiumField, TagsField } from './side-fields';
import { ThumbnailPreviewCard } from './thumbnail-preview';
import { useResourceForm } from './use-resource-form';

/** The resource form: its fields laid out, the logic in useResourceForm. */
export function ResourceForm({
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
  const info = getCategory(category);
  const controls = useResourceForm({ mode, category, resource, initial });
  const { form, errors, field, sources, uploads, hosted, saving, submitting, uploading } = controls;
  const description = form.watch('description') ?? '';
  const thumbnailUrl = field('thumbnail_url');
  const [scheduling, setScheduling] = React.useState(false);
  const busy = saving || submitting || uploading;
  const status = resource?.status;

  const schedule = async (publishAt: string) => {
    setScheduling(false);
    // Refused on its time by the server: the dialog opens again with the reason under the field.
    if ((await controls.saveAs({ status: 'scheduled', publish_at: publishAt })) === 'publish_at') setScheduling(true);
  };
  /** A save button: its own spinner while it runs; the one that keeps the status is the form's submit (Enter). */
  const saveButton = (as: 'keep' | 'published' | 'draft', label: string, icon: React.ReactNode, primary: boolean) => (
    <Button
      key={label}
      type={as === 'keep' ? 'submit' : 'button'}
      variant={primary ? 'gradient' : 'outline'}
      disabled={busy}
      aria-describedby={uploading ? 'resource-save-wait' : undefined}
      onClick={as === 'keep' ? undefined : () => void controls.saveAs({ status: as })}
    >
      {controls.savingAs === as ? <Spinner /> : icon}
      {controls.savingAs === as ? 'Saving…' : label}
    </Button>
  );
  const scheduleButton = (
    <Button
      key="schedule"
      type="button"
      variant="outline"
      disabled={busy}
      aria-describedby={uploading ? 'resource-save-wait' : undefined}
      onClick={() => {
        controls.clearPublishAtError();
        setScheduling(true);
      }}
    >
      {controls.savingAs === 'scheduled' ? <Spinner /> : <CalendarClock aria-hidden="true" />}
      {controls.savingAs === 'scheduled' ? 'Saving…' : 'Schedule…'}
    </Button>
  );
  // The spec's flow: a new resource is published. A draft is saved as one by default; a published one stays published.
  const actions =
    status === 'published'
      ? [saveButton('draft', 'Unpublish', <EyeOff aria-hidden="true" />, false), saveButton('keep', 'Save Changes', <Save aria-hidden="true" />, true)]
      : [
          saveButton(status === 'draft' ? 'keep' : 'draft', 'Save draft', <FilePen aria-hidden="true" />, false),
          scheduleButton,
          saveButton(mode === 'create' ? 'keep' : 'published', 'Publish', <Send aria-hidden="true" />, true),
        ];

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
      {controls.draft && (
        <Card role="status" className="mb-6 flex flex-wrap items-center justify-between gap-3 border-amber-500/40 bg-amber-500/10 px-6 py-4">
          <p className="flex items-center gap-2 text-sm">
            <History aria-hidden="true" className="size-4 shrink-0" />
            Your unsaved changes are back. Save them, or discard them to start again from what is saved.
          </p>
          <Button type="button" variant="outline" size="sm" onClick={controls.discardDraft}>
            Discard changes
          </Button>
        </Card>
      )}
      <form noValidate onSubmit={controls.onSubmit} className="grid gap-6 lg:grid-cols-3">
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
            onSourceChange={(s) => controls.setSource('thumbnail', s)}
            upload={uploads.thumbnail}
            hosted={hosted.thumbnail}
            onRemoveHosted={() => controls.removeHosted('thumbnail')}
            onFile={controls.onFile('thumbnail')}
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
                    controls.setThumbnailLink(e.target.value.trim());
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
            onSourceChange={(s) => controls.setSource('download', s)}
            upload={uploads.download}
            hosted={hosted.download}
            onRemoveHosted={() => controls.removeHosted('download')}
            onFile={controls.onFile('download')}
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
          <PreviewField controls={controls.previewSource} resource={resource} downloadHosted={controls.downloadHosted} />
        </Card>

        <div className="grid content-start gap-6">
          {resource && <StatusCard resource={resource} />}
          <TagsField controls={controls} category={category} />
          <PremiumField controls={controls} />
          <LicenceCard controls={controls} />
          <AppsCard controls={controls} deduced={resource && !resource.apps_corrected ? resource.apps : []} />
          <ThumbnailPreviewCard controls={controls} resource={resource} />
        </div>

        <div className="flex flex-col-reverse items-stretch gap-2 sm:flex-row sm:items-center sm:justify-end lg:col-span-3">
          <Button asChild variant="outline">
            <Link to={paths.admin.resources(category)} onClick={controls.cancel}>
              Cancel
            </Link>
          </Button>
          {actions}
          {/* Last in the DOM: above the buttons on a phone (column-reverse), at the left beside them on wider screens. */}
          {uploading && (
            <p id="resource-save-wait" className="text-sm text-muted-foreground sm:order-first sm:mr-auto">
              The form can be saved once the upload is complete.
            </p>
          )}
        </div>
      </form>
      <ScheduleDialog
        open={scheduling}
        onOpenChange={setScheduling}
        title={form.watch('title')?.trim() ?? ''}
        current={resource?.publish_at}
        serverError={controls.publishAtError}
        onSchedule={(at) => void schedule(at)}
      />
    </>
  );
}

const STATUS_NOTES = {
  draft: 'Not on the site: only admins see it.',
  scheduled: 'Hidden until its time, then public by itself.',
  published: 'On the site for everyone.',
} as const;

/** Where the resource stands: its status, when a scheduled one goes public, and a preview of one not public yet. */
function StatusCard({ resource }: { resource: Resource }) {
  const preview = usePreviewLink();
  return (
    <Card className="grid gap-3 p-6">
      <div className="flex items-center justify-between gap-3">
        <h2 id="resource-status-heading" className="text-sm font-medium">
          Status
        </h2>
        <ResourceStatusBadge resource={{ status: resource.status, publish_at: null }} />
      </div>
      <p className="text-sm text-muted-foreground">
        {resource.status === 'scheduled' && resource.publish_at
          ? `Goes public ${formatZoned(resource.publish_at, browserTimeZone())}.`
          : STATUS_NOTES[resource.status]}
      </p>
      <PreviewLinkButton resource={resource} preview={preview} className="justify-self-start" />
    </Card>
  );
}
