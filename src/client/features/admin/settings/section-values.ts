import { type AdminSettings, type SettingsPatch, type SettingsSection, type SettingsSections, settingsSectionsSchema } from '@contract/settings';
import { z } from 'zod';

/**
 * The Settings screen's pure logic: each section's form values, the PATCH a save sends, where a
 * refusal's field shows, how a list moves, and when a form follows a newer saved version.
 */

/** A form's root must be an object: a list section (community cards, figures) is its `items`. */
export type SectionFormValues = {
  site: SettingsSections['site'];
  home: SettingsSections['home'];
  community: { items: SettingsSections['community'] };
  footer: SettingsSections['footer'];
  stats: { items: SettingsSections['stats'] };
  legal: SettingsSections['legal'];
};

const LIST_SECTIONS = ['community', 'stats'] as const satisfies readonly SettingsSection[];
type ListSection = (typeof LIST_SECTIONS)[number];
const isList = (section: SettingsSection): section is ListSection => (LIST_SECTIONS as readonly string[]).includes(section);

const shape = settingsSectionsSchema.shape;
/** Each section's form checked by the contract's own rules (the server checks the same again). */
export const sectionFormSchemas = {
  site: shape.site,
  home: shape.home,
  community: z.object({ items: shape.community }),
  footer: shape.footer,
  stats: z.object({ items: shape.stats }),
  legal: shape.legal,
} satisfies { [S in SettingsSection]: z.ZodType<SectionFormValues[S]> };

/** A section's saved values as its form holds them. */
export function sectionFormValues<S extends SettingsSection>(section: S, settings: SettingsSections): SectionFormValues[S] {
  const value = structuredClone(settings[section]);
  return (isList(section) ? { items: value } : value) as SectionFormValues[S];
}

/** The PATCH body of one section's save: that section whole, anything extra (media), and the version the form started from. */
export function sectionPatch<S extends SettingsSection>(section: S, values: SectionFormValues[S], baseVersion: number, extra: Partial<SettingsPatch> = {}): SettingsPatch {
  const value = isList(section) ? (values as { items: unknown }).items : values;
  return { [section]: value, ...extra, base_version: baseVersion } as SettingsPatch;
}

/**
 * Where a refusal's field (`community.2.link`, `site.name`, `stats`) shows in the section's form
 * (`items.2.link`, `name`, `items`); null for a field of another section or none of the form's
 * (an upload's refusal is shown by its slot).
 */
export function formFieldPath(section: SettingsSection, serverKey: string): string | null {
  const [head, ...rest] = serverKey.split('.');
  if (head !== section) return null;
  if (isList(section)) return ['items', ...rest].join('.');
  return rest.length > 0 ? rest.join('.') : null;
}

/** A refusal's fields sorted onto one section's form; `other` holds the messages no field of the form shows. */
export function sectionFieldErrors(section: SettingsSection, fields: Record<string, string>): { form: [string, string][]; other: [string, string][] } {
  const form: [string, string][] = [];
  const other: [string, string][] = [];
  for (const [key, message] of Object.entries(fields)) {
    const path = formFieldPath(section, key);
    if (path) form.push([path, message]);
    else other.push([key, message]);
  }
  return { form, other };
}

/**
 * Where a key pressed on an item's drag handle moves it: up and down one place, Home and End to
 * either end; null when the key is not one of these or the item cannot go further.
 */
export function keyboardMoveTarget(key: string, index: number, count: number): number | null {
  const target = key === 'ArrowUp' ? index - 1 : key === 'ArrowDown' ? index + 1 : key === 'Home' ? 0 : key === 'End' ? count - 1 : null;
  if (target === null || target < 0 || target >= count || target === index) return null;
  return target;
}

/** What a screen reader hears after a move: "Discord moved to position 2 of 8". */
export const movedAnnouncement = (name: string, to: number, count: number) => `${name || 'Card'} moved to position ${to + 1} of ${count}`;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * A newer saved version arrived (this admin saved another section, or a refetch brought someone
 * else's save). A form with no edits shows it. A form with edits keeps them; its base version moves
 * on only when that version left this section as the form loaded it, so a save still gets 409 when
 * someone else changed this very section meanwhile, and not when they (or this admin) changed another.
 */
export function followSavedVersion<S extends SettingsSection>(args: {
  section: S;
  dirty: boolean;
  /** The values the form loaded (what it counts as saved). */
  loaded: SectionFormValues[S];
  base: number;
  latest: Pick<AdminSettings, 'version'> & SettingsSections;
}): { base: number; reset?: SectionFormValues[S] } {
  const { section, dirty, loaded, base, latest } = args;
  if (latest.version === base) return { base };
  const values = sectionFormValues(section, latest);
  if (!dirty) return { base: latest.version, reset: values };
  return same(values, loaded) ? { base: latest.version } : { base };
}

/** The history's names for what a version changed (sections and media slots). */
export const CHANGE_LABELS: Record<string, string> = {
  site: 'Site',
  home: 'Home',
  community: 'Community',
  footer: 'Footer',
  stats: 'Figures',
  legal: 'Legal pages',
  logo: 'Logo',
  favicon: 'Favicon',
  promo_video: 'Promo video',
};
export const changeLabel = (key: string) => CHANGE_LABELS[key] ?? key;
