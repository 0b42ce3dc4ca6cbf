/**
 * A resource's own page: its address (`/resources/{id}-{slug}`, the slug from the title) and its
 * licence. One module for server (API `url`, redirects, sitemap) and client (links, share).
 */
// No zod here: the public pages import this module (contract/resources.ts holds licenceSchema, which
// is checked against the Licence type below).

/** Credit line or custom licence text. */
export const LICENCE_TEXT_MAX = 2000;

/** Longest slug kept in an address: titles run to 200 characters, addresses stay readable. */
const SLUG_MAX = 80;

/**
 * The readable part of a resource's address: lower-case ASCII letters and digits joined by single
 * hyphens. Accents are dropped (`Café` → `cafe`); a title with nothing left (`日本`) gives ''.
 */
export function slugify(title: string): string {
  // Most titles are printable ASCII and need no Unicode decomposition (a sitemap page slugs 50,000
  // titles); others are decomposed first (accents dropped).
  const slug = /^[\x20-\x7e]*$/.test(title) ? asciiSlug(title) : unicodeSlug(title);
  if (slug.length <= SLUG_MAX) return slug;
  const cut = slug.slice(0, SLUG_MAX);
  // Cut at a word boundary when there is one in the second half.
  const dash = cut.lastIndexOf('-');
  return (dash > SLUG_MAX / 2 ? cut.slice(0, dash) : cut).replace(/-+$/, '');
}

/** The rules, for any text: `&` reads "and", every run of anything but a–z and 0–9 is one hyphen, none at the ends. */
export function unicodeSlug(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const NOT_LETTER_OR_DIGIT = /[^a-z0-9]+/g;

/** The same rules for printable ASCII: no decomposition, and one regular expression where `&` is absent. */
function asciiSlug(title: string): string {
  let slug = title.toLowerCase();
  if (slug.includes('&')) slug = slug.replace(/&/g, ' and ');
  slug = slug.replace(NOT_LETTER_OR_DIGIT, '-');
  // Runs are single hyphens now: at most one at each end.
  const start = slug.charCodeAt(0) === 45 ? 1 : 0;
  const end = slug.length > start && slug.charCodeAt(slug.length - 1) === 45 ? slug.length - 1 : slug.length;
  return slug.slice(start, end);
}

export const RESOURCE_PAGE_PREFIX = '/resources/';

/** The canonical path of a resource's page. */
export function resourcePath(resource: { id: number; title: string }): string {
  const slug = slugify(resource.title);
  return `${RESOURCE_PAGE_PREFIX}${resource.id}${slug ? `-${slug}` : ''}`;
}

/** Ids the API accepts (a 32-bit integer key). */
const ID_MAX = 2_147_483_647;

/**
 * The id of `/resources/{id}-{anything}` (or `/resources/{id}`), undefined for any other path.
 * The slug is not checked here: a path that is not the canonical one is redirected to it.
 */
export function parseResourcePath(pathname: string): number | undefined {
  const m = /^\/resources\/([1-9][0-9]{0,9})(?:-[^/]*)?\/?$/.exec(pathname);
  if (!m) return undefined;
  const id = Number(m[1]);
  return id <= ID_MAX ? id : undefined;
}

/** How a resource may be used. */
export const LICENCE_KINDS = ['free-commercial', 'attribution', 'personal', 'custom'] as const;
export type LicenceKind = (typeof LICENCE_KINDS)[number];
/** What existing and new resources get unless the admin chooses otherwise. */
export const DEFAULT_LICENCE_KIND = 'free-commercial' satisfies LicenceKind;

/** A resource's licence: attribution carries the credit line to copy; custom carries its own text. */
export type Licence =
  | { kind: 'free-commercial' }
  | { kind: 'attribution'; credit: string }
  | { kind: 'personal' }
  | { kind: 'custom'; text: string };

/** Short names of the kinds (admin form, page). */
export const LICENCE_LABELS: Record<LicenceKind, string> = {
  'free-commercial': 'Free for personal and commercial use',
  attribution: 'Free with attribution',
  personal: 'Personal use only',
  custom: 'Custom licence',
};

/** The licence's one-line summary and, where it has one, its text (credit line or custom terms). */
export function describeLicence(licence: Licence): { label: string; text?: string } {
  if (licence.kind === 'attribution') return { label: LICENCE_LABELS.attribution, text: licence.credit };
  if (licence.kind === 'custom') return { label: LICENCE_LABELS.custom, text: licence.text };
  return { label: LICENCE_LABELS[licence.kind] };
}

/** The stored pair (licence_kind, licence_text) → the contract's shape; unknown kinds read as the default. */
export function licenceFromColumns(kind: string, stored: string | null): Licence {
  if (kind === 'attribution') return { kind, credit: stored ?? '' };
  if (kind === 'custom') return { kind, text: stored ?? '' };
  if (kind === 'personal') return { kind };
  return { kind: 'free-commercial' };
}

/** The contract's shape → the stored pair. */
export function licenceToColumns(licence: Licence): { licence_kind: LicenceKind; licence_text: string | null } {
  if (licence.kind === 'attribution') return { licence_kind: licence.kind, licence_text: licence.credit };
  if (licence.kind === 'custom') return { licence_kind: licence.kind, licence_text: licence.text };
  return { licence_kind: licence.kind, licence_text: null };
}
