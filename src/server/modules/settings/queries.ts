import { type Generated, type Kysely, sql, type Transaction } from 'kysely';
import {
  LEGAL_PAGES,
  type LegalPageKey,
  SETTINGS_LIMITS,
  SETTINGS_SECTIONS,
  type SettingsSection,
  type SettingsSections,
  settingsSectionsSchema,
  type SettingsVersion,
  type SiteMedia,
} from '../../../contract/settings';
import type { Database } from '../../db/connection';
import type { Tables } from '../../db/schema';
import type { StoredImage } from '../files/stored';
import { SITE_DEFAULTS } from './defaults';
import { LEGAL_DEFAULTS, LEGAL_DEFAULTS_UPDATED_AT } from './legal-defaults';

/** One save of the settings (migration 025): the sections as they were after it. */
export interface SettingsVersionsTable {
  id: Generated<number>;
  saved_at: string;
  admin_id: number | null;
  /** JSON: the sections and media slots this save changed. */
  changed: string;
  restored_from: number | null;
  /** JSON: every section after this save (SettingsSections). */
  sections: string;
}

type SettingsTables = { settings_versions: SettingsVersionsTable };
export type SettingsDb = Kysely<Tables & SettingsTables>;
type Db = Kysely<Tables> | Transaction<Tables>;
export const settingsDb = (db: Db): SettingsDb => db.withTables<SettingsTables>();

/**
 * The `settings` rows (migration 002 makes every write to them bump the data version): one per
 * section under `settings.<section>`, the media under `settings.media`. A stored object section
 * holds what was saved (a save writes it whole; an upgrade may have written a few fields), read
 * over the defaults; a list section is the list.
 */
const KEY_PREFIX = 'settings.';
const MEDIA_KEY = `${KEY_PREFIX}media`;
const sectionKey = (s: SettingsSection) => `${KEY_PREFIX}${s}`;

/** How the legal section is stored: each page's Markdown and when its text last changed. */
type StoredLegal = Record<LegalPageKey, { markdown: string; updated_at: string }>;

/** The promo video as stored (settings/promo-video.ts). */
export interface StoredPromoVideo {
  /** The job making the current upload's video. */
  job_id: number;
  /** The uploaded source (files row), kept while its job may be retried. */
  file_id: number;
  /** The last ready video, shown to visitors. */
  video: NonNullable<SiteMedia['promo_video']> | null;
}

/** The media the settings show, as stored (null: the built-in default). */
export interface StoredSiteMedia {
  logo: { file_id: number; image: StoredImage } | null;
  favicon: { file_id: number; icons: { file_name: string; size: number }[] } | null;
  promo_video: StoredPromoVideo | null;
}
export const NO_MEDIA: StoredSiteMedia = { logo: null, favicon: null, promo_video: null };

/** Everything saved, as read: the sections (defaults where nothing valid was saved), media, version. */
export interface SavedSettings {
  sections: SettingsSections;
  legalUpdatedAt: Record<LegalPageKey, string>;
  media: StoredSiteMedia;
  /** The newest version's id; 0 before the first save. */
  version: number;
}

const parse = (json: string | undefined): unknown => {
  if (json === undefined) return undefined;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
};
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A section as stored, over its default; the default when what is stored is not valid any more. */
function sectionOf<S extends Exclude<SettingsSection, 'legal'>>(section: S, stored: unknown, defaults: SettingsSections): SettingsSections[S] {
  const fallback = defaults[section];
  if (stored === undefined) return fallback;
  const value = isObject(fallback) && isObject(stored) ? { ...fallback, ...stored } : stored;
  const parsed = settingsSectionsSchema.shape[section].safeParse(value);
  return parsed.success ? (parsed.data as SettingsSections[S]) : fallback;
}

function legalOf(stored: unknown): StoredLegal {
  const out = {} as StoredLegal;
  for (const page of LEGAL_PAGES) {
    const v = isObject(stored) ? stored[page] : undefined;
    out[page] =
      isObject(v) && typeof v.markdown === 'string' && typeof v.updated_at === 'string'
        ? { markdown: v.markdown, updated_at: v.updated_at }
        : { markdown: LEGAL_DEFAULTS[page], updated_at: LEGAL_DEFAULTS_UPDATED_AT };
  }
  return out;
}

/** The defaults, under the SITE_NAME setting's name. */
export function defaultSections(siteName: string): SettingsSections {
  const d = structuredClone({ ...SITE_DEFAULTS, legal: { ...LEGAL_DEFAULTS } });
  d.site.name = siteName;
  return d;
}

/** Sections from stored values (a version's snapshot, or the rows), each checked, over the defaults. */
export function normalizeSections(stored: Partial<Record<SettingsSection, unknown>>, siteName: string): SettingsSections {
  const d = defaultSections(siteName);
  return {
    site: sectionOf('site', stored.site, d),
    home: sectionOf('home', stored.home, d),
    community: sectionOf('community', stored.community, d),
    footer: sectionOf('footer', stored.footer, d),
    stats: sectionOf('stats', stored.stats, d),
    legal: (() => {
      const v = settingsSectionsSchema.shape.legal.safeParse(stored.legal);
      return v.success ? v.data : d.legal;
    })(),
  };
}

const mediaOf = (stored: unknown): StoredSiteMedia => (isObject(stored) ? { ...NO_MEDIA, ...(stored as Partial<StoredSiteMedia>) } : NO_MEDIA);

/** The saved settings (one read of the settings rows and the newest version's id). */
export async function readSettings(db: Db, siteName: string): Promise<SavedSettings> {
  const [rows, newest] = await Promise.all([
    db.selectFrom('settings').select(['key', 'value']).where('key', 'like', `${KEY_PREFIX}%`).execute(),
    settingsDb(db).selectFrom('settings_versions').select('id').orderBy('id', 'desc').limit(1).executeTakeFirst(),
  ]);
  const stored = new Map(rows.map((r) => [r.key, parse(r.value)]));
  const legal = legalOf(stored.get(sectionKey('legal')));
  const raw = Object.fromEntries(SETTINGS_SECTIONS.filter((s) => s !== 'legal').map((s) => [s, stored.get(sectionKey(s))]));
  const sections = normalizeSections(
    { ...raw, legal: { privacy: legal.privacy.markdown, terms: legal.terms.markdown } },
    siteName,
  );
  return {
    sections,
    legalUpdatedAt: { privacy: legal.privacy.updated_at, terms: legal.terms.updated_at },
    media: mediaOf(stored.get(MEDIA_KEY)),
    version: newest ? Number(newest.id) : 0,
  };
}

/** The media alone (the promo video's job publishing its result). */
export async function readMedia(db: Db): Promise<StoredSiteMedia> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', MEDIA_KEY).executeTakeFirst();
  return mediaOf(parse(row?.value));
}

/**
 * Refuses concurrent saves on PostgreSQL until this transaction ends (SQLite runs one write
 * transaction at a time): the version a save checks is then the newest when it commits.
 */
export async function lockSettings(trx: Transaction<Tables>, database: Database): Promise<void> {
  if (database.dialect === 'postgres') await sql`lock table settings_versions in share row exclusive mode`.execute(trx);
}

async function putRow(trx: Transaction<Tables>, key: string, value: unknown): Promise<void> {
  const json = JSON.stringify(value);
  await trx
    .insertInto('settings')
    .values({ key, value: json })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: json }))
    .execute();
}

/** Writes the sections given (each whole); the legal pages with when each last changed. */
export async function writeSections(
  trx: Transaction<Tables>,
  sections: Partial<SettingsSections>,
  legal: Record<LegalPageKey, { markdown: string; updated_at: string }> | undefined,
): Promise<void> {
  for (const s of SETTINGS_SECTIONS) {
    if (s === 'legal') continue;
    if (sections[s] !== undefined) await putRow(trx, sectionKey(s), sections[s]);
  }
  if (legal) await putRow(trx, sectionKey('legal'), legal);
}

export async function writeMedia(trx: Transaction<Tables>, media: StoredSiteMedia): Promise<void> {
  await putRow(trx, MEDIA_KEY, media);
}

/** Records a save and keeps the newest SETTINGS_LIMITS.versions; its id. */
export async function insertVersion(
  trx: Transaction<Tables>,
  v: { savedAt: string; adminId: number | null; changed: string[]; restoredFrom: number | null; sections: SettingsSections },
): Promise<number> {
  const db = settingsDb(trx);
  const row = await db
    .insertInto('settings_versions')
    .values({ saved_at: v.savedAt, admin_id: v.adminId, changed: JSON.stringify(v.changed), restored_from: v.restoredFrom, sections: JSON.stringify(v.sections) })
    .returning('id')
    .executeTakeFirstOrThrow();
  const oldestKept = await db.selectFrom('settings_versions').select('id').orderBy('id', 'desc').offset(SETTINGS_LIMITS.versions - 1).limit(1).executeTakeFirst();
  if (oldestKept) await db.deleteFrom('settings_versions').where('id', '<', oldestKept.id).execute();
  return Number(row.id);
}

const versionColumns = ['v.id', 'v.saved_at', 'v.changed', 'v.restored_from', 'v.admin_id', 'a.username'] as const;

function toVersion(r: { id: number; saved_at: string; changed: string; restored_from: number | null; admin_id: number | null; username: string | null }): SettingsVersion {
  const changed = parse(r.changed);
  return {
    id: Number(r.id),
    saved_at: r.saved_at,
    admin: r.admin_id !== null && r.username !== null ? { id: Number(r.admin_id), username: r.username } : null,
    changed: Array.isArray(changed) ? changed.filter((c): c is string => typeof c === 'string') : [],
    restored_from: r.restored_from === null ? null : Number(r.restored_from),
  };
}

/** The kept versions, newest first. */
export async function listVersions(db: Db): Promise<SettingsVersion[]> {
  const rows = await settingsDb(db)
    .selectFrom('settings_versions as v')
    .leftJoin('admins as a', 'a.id', 'v.admin_id')
    .select(versionColumns)
    .orderBy('v.id', 'desc')
    .limit(SETTINGS_LIMITS.versions)
    .execute();
  return rows.map(toVersion);
}

/** One kept version with its sections as stored (normalize before use); undefined when not kept. */
export async function getVersion(db: Db, id: number): Promise<(SettingsVersion & { stored: unknown }) | undefined> {
  const row = await settingsDb(db)
    .selectFrom('settings_versions as v')
    .leftJoin('admins as a', 'a.id', 'v.admin_id')
    .select([...versionColumns, 'v.sections'])
    .where('v.id', '=', id)
    .executeTakeFirst();
  return row ? { ...toVersion(row), stored: parse(row.sections) } : undefined;
}
