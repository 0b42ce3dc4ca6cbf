import type { Kysely } from 'kysely';
import type { SettingsSections } from '../../../contract/settings';
import type { SiteSettings } from '../../../contract/site';
import type { Tables } from '../../db/schema';
import { SITE_DEFAULTS } from './defaults';

/** The public answer from the owner's sections (visible community cards only, in order). */
export function publicSite(s: Omit<SettingsSections, 'legal'>, publicUrl: string | null): SiteSettings {
  return {
    name: s.site.name,
    description: s.site.description,
    public_url: publicUrl ?? (s.site.public_url || null),
    logo: null,
    favicon: null,
    hero: { badge: s.home.hero_badge, title: s.home.hero_title, text: s.home.hero_text, button: s.home.hero_button },
    portfolio_url: s.home.portfolio_url,
    my_website: { heading: s.home.my_website_heading, text: s.home.my_website_text, tiles: s.home.tiles, video: null },
    stats: s.stats.map(({ mode: _mode, ...stat }) => stat),
    community: s.community.filter((c) => !c.hidden).map(({ hidden: _hidden, ...c }) => c),
    footer: s.footer,
  };
}

/** The site settings: the defaults, under the configured site name (the settings module stores the owner's). */
export async function getSiteSettings(_db: Kysely<Tables>, name: string): Promise<SiteSettings> {
  const defaults = structuredClone(SITE_DEFAULTS);
  defaults.site.name = name;
  return publicSite(defaults, null);
}
