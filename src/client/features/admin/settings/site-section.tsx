import { type AdminSettings, SETTINGS_LIMITS } from '@contract/settings';
import { useUpload } from '../lib/use-upload';
import { SectionActions, SectionCard, TextField } from './fields';
import { ImageSlot, useMediaSlot } from './media-slot';
import { useSectionForm } from './use-section-form';

/** Site: name, description, public URL, logo and favicon. */
export function SiteSection({ settings }: { settings: AdminSettings }) {
  const { logo, favicon } = settings.media;
  const logoSlot = useMediaSlot(useUpload('thumbnail', 'settings-logo'), logo !== null);
  const faviconSlot = useMediaSlot(useUpload('thumbnail', 'settings-favicon'), favicon !== null);
  const slots = { logo_upload_id: logoSlot, favicon_upload_id: faviconSlot };
  const controls = useSectionForm('site', settings, {
    extraDirty: logoSlot.dirty || faviconSlot.dirty,
    extra: () => {
      if (logoSlot.busy || faviconSlot.busy) return { blocked: 'Wait for the upload to finish' };
      const patch: Record<string, string | null> = {};
      for (const [field, slot] of Object.entries(slots)) {
        const value = slot.value();
        if (value !== undefined) patch[field] = value;
      }
      return { patch };
    },
    onSaved: () => Object.values(slots).forEach((s) => s.reset()),
    onOtherError: (key, message) => slots[key as keyof typeof slots]?.setError(message),
  });
  const { form } = controls;
  const faviconSrc = favicon?.icons.find((i) => i.sizes === '180x180' || i.sizes === '192x192')?.src ?? favicon?.icons.at(-1)?.src;

  return (
    <form noValidate onSubmit={controls.onSubmit} className="grid gap-6">
      <SectionCard title="Name and description" description="Used in page titles, the header, the footer, search results and social cards.">
        <TextField form={form} prefix="site" name="name" label="Site name" required maxLength={SETTINGS_LIMITS.name} />
        <TextField
          form={form}
          prefix="site"
          name="description"
          label="Description"
          required
          multiline
          rows={2}
          maxLength={SETTINGS_LIMITS.description}
          hint="One line: the meta description and social cards"
        />
        <TextField
          form={form}
          prefix="site"
          name="public_url"
          label="Public URL"
          inputMode="url"
          placeholder="https://resources.example.com"
          hint="The address links are built on when the server's PUBLIC_URL is not set. Leave empty to use the address of each request."
        />
      </SectionCard>
      <SectionCard title="Logo and favicon" description="Uploaded like thumbnails: re-encoded, metadata removed. The favicon's sizes are made from one square image.">
        <ImageSlot
          id="settings-logo"
          label="Logo"
          slot={logoSlot}
          saved={logo ? { src: logo.src, detail: `${logo.width} × ${logo.height} px` } : null}
          hint="Shown in the header beside the site name. PNG, JPEG, WebP, AVIF or GIF; a transparent background looks best."
        />
        <ImageSlot
          id="settings-favicon"
          label="Favicon"
          slot={faviconSlot}
          saved={faviconSrc ? { src: faviconSrc, detail: `${favicon!.icons.length} sizes` } : null}
          previewClassName="[&>img]:size-16"
          hint="The tab's icon. A square image of at least 512 × 512 px."
        />
      </SectionCard>
      <SectionActions
        label="Site"
        dirty={controls.dirty}
        saving={controls.saving}
        conflict={controls.conflict}
        onDiscard={() => {
          controls.discard();
          logoSlot.reset();
          faviconSlot.reset();
          logoSlot.upload.cancel();
          faviconSlot.upload.cancel();
        }}
        onLoadLatest={controls.loadLatest}
        waiting={logoSlot.busy || faviconSlot.busy ? 'The settings can be saved once the upload is complete.' : undefined}
      />
    </form>
  );
}
