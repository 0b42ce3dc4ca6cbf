import type { CategoryValue } from '@contract/categories';
import { DEFAULT_LICENCE_KIND } from '@contract/resource-page';
import { type Resource, resourceInputSchema } from '@contract/resources';
import { DEFAULT_THUMBNAIL_CHOICE, THUMBNAIL_CHOICES } from '@contract/thumbnail-choice';
import { z } from 'zod';
import { APP_IDS } from '@contract/apps';
import { MIN_VERSION_MAX } from '@contract/contents';
import { storage } from '@/lib/storage';
import type { UploadState } from '../lib/use-upload';

/**
 * The form's own shape: the contract's fields, plus where the download and the thumbnail come from.
 * A link is checked by the contract's rule; an upload lives beside the form (useUpload) and is
 * checked on submit.
 */
const shape = resourceInputSchema.shape;
const appsValueSchema = z
  .array(z.object({ id: z.enum(APP_IDS), min_version: z.string().max(MIN_VERSION_MAX, { error: `At most ${MIN_VERSION_MAX} characters` }) }))
  .nullable();
const mediaSourceSchema = z.enum(['upload', 'link']);
const valuesSchema = z.object({
  title: shape.title,
  description: shape.description,
  thumbnail_source: mediaSourceSchema,
  thumbnail_url: z.string(),
  download_source: mediaSourceSchema,
  download_url: z.string(),
  tags: shape.tags,
  is_premium: shape.is_premium,
  licence: shape.licence,
  thumbnail_choice: shape.thumbnail_choice,
  /** The admin's list of apps (contract/contents.ts), or null: deduced from the download's files. */
  apps: appsValueSchema,
});
export const formSchema = valuesSchema.superRefine((v, ctx) => {
  for (const [source, name, rule] of [
    [v.thumbnail_source, 'thumbnail_url', shape.thumbnail_url.unwrap()],
    [v.download_source, 'download_url', shape.download_url.unwrap()],
  ] as const) {
    if (source !== 'link') continue;
    const result = rule.safeParse(v[name]);
    if (!result.success) ctx.addIssue({ code: 'custom', path: [name], message: result.error.issues[0]?.message ?? 'Invalid URL' });
  }
});
export type FormInput = z.input<typeof formSchema>;
export type FormOutput = z.output<typeof formSchema>;

export type Slot = 'thumbnail' | 'download';
/** In the order the form shows them: the first invalid one gets the focus. */
export const FIELDS = ['title', 'description', 'thumbnail_url', 'thumbnail_source', 'download_url', 'download_source', 'tags', 'is_premium', 'licence', 'thumbnail_choice', 'apps'] as const;
export type FieldName = (typeof FIELDS)[number];
/** The server's name for a field → the form's (an upload's refusal shows at its slot). */
const SERVER_FIELDS: Record<string, FieldName> = { thumbnail_upload_id: 'thumbnail_source', download_upload_id: 'download_source' };

/** A new resource's form. */
export function newResourceValues(category: CategoryValue): FormInput {
  return {
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
    thumbnail_choice: DEFAULT_THUMBNAIL_CHOICE,
    apps: null,
  };
}

/** An existing resource's form. */
export function resourceValues(r: Resource): FormInput {
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
    thumbnail_choice: r.thumbnail_choice,
    apps: r.apps_corrected ? r.apps.map((a) => ({ id: a.id, min_version: a.min_version ?? '' })) : null,
  };
}

type SlotValues = Pick<FormOutput, 'thumbnail_source' | 'download_source' | 'thumbnail_url' | 'download_url'>;

/**
 * The save body's part for one slot: a link, a finished upload, nothing (keep what is hosted, or
 * wait for the upload), or what is missing.
 */
export function slotBody(slot: Slot, values: SlotValues, upload: UploadState, hosted: boolean): { body: Record<string, string>; missing?: string } {
  if (values[`${slot}_source`] === 'link') return { body: { [`${slot}_url`]: values[`${slot}_url`] } };
  if (upload.status === 'done' && upload.id) return { body: { [`${slot}_upload_id`]: upload.id } };
  if (upload.status !== 'idle' || hosted) return { body: {} };
  return { body: {}, missing: slot === 'download' ? 'Choose a file to upload, or give a link' : 'Choose an image to upload, or give a link' };
}

/** A refusal's `fields` sorted onto the form: its own fields (in form order) and the Preview section's. */
export function serverFieldErrors(fields: Record<string, string>): { form: [FieldName, string][]; preview?: string } {
  const form: [FieldName, string][] = [];
  let preview: string | undefined;
  for (const [key, message] of Object.entries(fields)) {
    const name = key.split('.')[0]!;
    if (name === 'preview_source') {
      preview = message;
      continue;
    }
    const field = SERVER_FIELDS[name] ?? (name as FieldName);
    if (FIELDS.includes(field)) form.push([field, message]);
  }
  form.sort(([a], [b]) => FIELDS.indexOf(a) - FIELDS.indexOf(b));
  return { form, preview };
}

/**
 * Unsaved fields, kept in the browser per resource (a new one per category) until saved or
 * discarded, so a reload mid-upload loses nothing (docs/decisions/361-resource-form-drafts.md).
 */
// Checked loosely: a draft holds work in progress (an empty title, a credit line still to write).
const draftSchema = z.object({
  values: z
    .object({
      title: z.string(),
      description: z.string(),
      thumbnail_source: mediaSourceSchema,
      thumbnail_url: z.string(),
      download_source: mediaSourceSchema,
      download_url: z.string(),
      tags: z.array(z.string()),
      is_premium: z.boolean(),
      licence: z.discriminatedUnion('kind', [
        z.strictObject({ kind: z.literal('free-commercial') }),
        z.strictObject({ kind: z.literal('attribution'), credit: z.string() }),
        z.strictObject({ kind: z.literal('personal') }),
        z.strictObject({ kind: z.literal('custom'), text: z.string() }),
      ]),
      thumbnail_choice: z.enum(THUMBNAIL_CHOICES),
      apps: appsValueSchema,
    })
    .partial(),
  saved_at: z.string(),
});
export type Draft = z.infer<typeof draftSchema>;

export function draftKey(category: CategoryValue, id?: number): string {
  return id === undefined ? `rv-resource-draft:new:${category}` : `rv-resource-draft:${id}`;
}

/** The draft under `key`, or null (none, or one this version of the form cannot read). */
export function readDraft(key: string): Draft | null {
  const raw = storage.get(key);
  if (!raw) return null;
  try {
    const parsed = draftSchema.safeParse(JSON.parse(raw));
    if (parsed.success) return parsed.data;
  } catch {
    /* not JSON: dropped below */
  }
  storage.remove(key);
  return null;
}

/** Keeps the fields that differ from the form's starting values; none left → no draft. */
export function writeDraft(key: string, values: FormInput, initial: FormInput, now = new Date()) {
  const changed = Object.fromEntries(
    Object.entries(values).filter(([name, value]) => JSON.stringify(value) !== JSON.stringify(initial[name as keyof FormInput])),
  );
  if (Object.keys(changed).length === 0) storage.remove(key);
  else storage.set(key, JSON.stringify({ values: changed, saved_at: now.toISOString() }));
}

export function clearDraft(key: string) {
  storage.remove(key);
}
