import type { Kysely } from 'kysely';
import { siteSettingsSchema, type SiteSettings } from '../../../contract/site';
import type { Tables } from '../../db/schema';
import { SITE_DEFAULTS, SITE_SETTING_KEYS } from './defaults';

type Field = keyof typeof SITE_SETTING_KEYS;
const FIELDS = Object.keys(SITE_SETTING_KEYS) as Field[];

/** Stored values over the defaults; a value that is not valid JSON of the right shape is ignored, not served. */
export async function getSiteSettings(db: Kysely<Tables>, name: string): Promise<SiteSettings> {
  const rows = await db
    .selectFrom('settings')
    .select(['key', 'value'])
    .where('key', 'in', Object.values(SITE_SETTING_KEYS))
    .execute();
  const stored = new Map(rows.map((r) => [r.key, r.value]));
  const settings: SiteSettings = { name, ...structuredClone(SITE_DEFAULTS) };
  for (const field of FIELDS) {
    const raw = stored.get(SITE_SETTING_KEYS[field]);
    if (raw === undefined) continue;
    const parsed = siteSettingsSchema.shape[field].safeParse(parseJson(raw));
    if (parsed.success) Object.assign(settings, { [field]: parsed.data });
  }
  return settings;
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
