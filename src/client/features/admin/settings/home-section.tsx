import { type AdminSettings, SETTINGS_LIMITS } from '@contract/settings';
import { AlertTriangle, Loader2 } from 'lucide-react';
import { type HostedSummary, UploadZone } from '../components/upload-zone';
import { useUpload } from '../lib/use-upload';
import { SectionActions, SectionCard, TextField } from './fields';
import { type MediaSlotControls, useMediaSlot } from './media-slot';
import { useSectionForm } from './use-section-form';

/** Home: the hero's texts, and My Website (portfolio link, heading, text, two tiles, promo video). */
export function HomeSection({ settings }: { settings: AdminSettings }) {
  const video = useMediaSlot(useUpload('download', 'settings-promo-video'), settings.media.promo_video !== null);
  const controls = useSectionForm('home', settings, {
    extraDirty: video.dirty,
    extra: () => {
      if (video.busy) return { blocked: 'Wait for the upload to finish' };
      const value = video.value();
      return { patch: value === undefined ? {} : { promo_video_upload_id: value } };
    },
    onSaved: () => video.reset(),
    onOtherError: (key, message) => key === 'promo_video_upload_id' && video.setError(message),
  });
  const { form } = controls;
  const field = { form, prefix: 'home' } as const;

  return (
    <form noValidate onSubmit={controls.onSubmit} className="grid gap-6">
      <SectionCard title="Hero" description="The first thing visitors see on the home page.">
        <TextField {...field} name="hero_badge" label="Badge" maxLength={SETTINGS_LIMITS.heroText} hint="The small line above the title; empty hides it" />
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField {...field} name="hero_title.0" label="First title line" required maxLength={SETTINGS_LIMITS.heroLine} />
          <TextField {...field} name="hero_title.1" label="Second title line" maxLength={SETTINGS_LIMITS.heroLine} />
        </div>
        <TextField {...field} name="hero_text" label="Hero text" multiline rows={3} maxLength={SETTINGS_LIMITS.heroText} />
        <TextField {...field} name="hero_button" label="Button text" required maxLength={SETTINGS_LIMITS.label} hint="The button scrolls to the premium resources" />
      </SectionCard>
      <SectionCard title="My Website" description="The section about your own work, with its link and video.">
        <TextField {...field} name="portfolio_url" label="Portfolio URL" required inputMode="url" placeholder="https://…" hint="Where “View Portfolio” leads" />
        <TextField {...field} name="my_website_heading" label="Heading" required maxLength={SETTINGS_LIMITS.heading} />
        <TextField {...field} name="my_website_text" label="Text" multiline rows={3} maxLength={SETTINGS_LIMITS.heroText} />
        <div className="grid gap-5 md:grid-cols-2">
          {([0, 1] as const).map((i) => (
            <fieldset key={i} className="grid gap-4 rounded-lg border p-4">
              <legend className="px-1 text-sm font-medium">{i === 0 ? 'First tile' : 'Second tile'}</legend>
              <TextField {...field} name={`tiles.${i}.title`} label="Tile title" required maxLength={SETTINGS_LIMITS.tileTitle} />
              <TextField {...field} name={`tiles.${i}.text`} label="Tile text" multiline rows={2} maxLength={SETTINGS_LIMITS.tileText} />
            </fieldset>
          ))}
        </div>
        <PromoVideoSlot settings={settings} slot={video} />
      </SectionCard>
      <SectionActions
        label="Home"
        dirty={controls.dirty}
        saving={controls.saving}
        conflict={controls.conflict}
        onDiscard={() => {
          controls.discard();
          video.reset();
          video.upload.cancel();
        }}
        onLoadLatest={controls.loadLatest}
        waiting={video.busy ? 'The settings can be saved once the upload is complete.' : undefined}
      />
    </form>
  );
}

function PromoVideoSlot({ settings, slot }: { settings: AdminSettings; slot: MediaSlotControls }) {
  const { promo_video: saved, promo_video_job: job } = settings.media;
  const hosted: HostedSummary | null = !slot.removed && saved ? { name: 'Current promo video', detail: `${saved.width} × ${saved.height} px` } : null;
  const onFile = (f: File) => {
    slot.setError(undefined);
    if (f.size === 0) return slot.setError(`“${f.name}” is empty.`);
    if (!f.type.startsWith('video/')) return slot.setError(`“${f.name}” is not a video. Choose an MP4, WebM or MOV file.`);
    slot.upload.start(f);
  };
  return (
    <fieldset className="grid gap-3">
      <legend className="mb-2 text-sm font-medium leading-none">Promo video</legend>
      <div className="grid gap-4 lg:grid-cols-[16rem_minmax(0,1fr)] lg:items-start">
        <div className="overflow-hidden rounded-xl border bg-black">
          {saved && !slot.removed ? (
            <video className="aspect-video w-full object-cover" poster={saved.poster} src={saved.mp4} muted loop playsInline controls preload="none" aria-label="Current promo video" />
          ) : (
            <p className="grid aspect-video place-items-center px-4 text-center text-xs text-white/70">The built-in promo video</p>
          )}
        </div>
        <div className="grid gap-3">
          {job?.state === 'processing' && (
            <p role="status" className="flex items-center gap-2 rounded-md bg-violet-500/10 px-3 py-2 text-sm">
              <Loader2 aria-hidden="true" className="size-4 animate-spin motion-reduce:animate-none" />
              Processing the new video (muted, fast start, poster). The home page shows it once it is ready.
            </p>
          )}
          {job?.state === 'failed' && (
            <p role="alert" className="flex items-start gap-2 rounded-md bg-destructive/10 px-3 py-2 text-sm text-destructive">
              <AlertTriangle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              <span>
                The last video could not be processed{job.error ? `: ${job.error}` : '.'} Upload another one.
              </span>
            </p>
          )}
          <UploadZone
            id="settings-promo-video"
            inputLabel="Promo video file"
            accept="video/*"
            upload={slot.upload}
            hosted={hosted}
            onRemoveHosted={slot.remove}
            onFile={onFile}
            error={slot.error}
            hint="A short clip, played muted and looping beside My Website. It is processed on the server after saving."
          />
        </div>
      </div>
    </fieldset>
  );
}
