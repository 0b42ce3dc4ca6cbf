import type { LegalPage, LegalPageKey } from '../../../contract/settings';
import type { SiteSettings } from '../../../contract/site';
import type { Database } from '../../db/connection';
import { versionedMemo } from '../../db/versioned-memo';
import { anyLive, type LiveFigures, shownFigures, siteFigures } from '../settings/figures';
import { LEGAL_TITLES } from '../settings/legal-defaults';
import { renderMarkdown } from '../settings/markdown';
import { siteMediaOf } from '../settings/media';
import { readSettings, type SavedSettings } from '../settings/queries';

/** The public answer from the owner's settings (visible community cards only, in order). */
export function publicSite(saved: Pick<SavedSettings, 'sections' | 'media'>, publicUrl: string | null, live: LiveFigures | undefined): SiteSettings {
  const s = saved.sections;
  const media = siteMediaOf(saved.media);
  return {
    name: s.site.name,
    description: s.site.description,
    public_url: publicUrl ?? (s.site.public_url.replace(/\/+$/, '') || null),
    logo: media.logo,
    favicon: media.favicon,
    hero: { badge: s.home.hero_badge, title: s.home.hero_title, text: s.home.hero_text, button: s.home.hero_button },
    portfolio_url: s.home.portfolio_url,
    my_website: { heading: s.home.my_website_heading, text: s.home.my_website_text, tiles: s.home.tiles, video: media.promo_video },
    stats: shownFigures(s.stats, live),
    community: s.community.filter((c) => !c.hidden).map(({ hidden: _hidden, ...c }) => c),
    footer: s.footer,
  };
}

const savedByVersion = versionedMemo<SavedSettings>(1);

/**
 * The saved settings as the public sees them, read again whenever the data version moves (a save on
 * any instance bumps it: migration 002's triggers on `settings`). The public answers that show them
 * expire every few seconds for their live figures (public-cache.ts); the settings themselves need not
 * be read, parsed and checked again each time.
 */
async function publicSettings(database: Database, siteName: string): Promise<SavedSettings> {
  const version = await database.dataVersion();
  const known = savedByVersion.get(database, siteName, version);
  if (known) return known;
  const saved = await readSettings(database.db, siteName);
  savedByVersion.set(database, siteName, version, saved);
  return saved;
}

/** GET /api/site: the saved settings over the defaults (SITE_NAME names the site until the owner does), live figures computed. */
export async function getSiteSettings(database: Database, siteName: string, publicUrl: string | null): Promise<SiteSettings> {
  const saved = await publicSettings(database, siteName);
  const live = anyLive(saved.sections.stats) ? await siteFigures(database) : undefined;
  return publicSite(saved, publicUrl, live);
}

/** GET /api/pages/:page: a legal page's Markdown rendered and sanitised, with when its text last changed. */
export async function getLegalPage(database: Database, siteName: string, page: LegalPageKey): Promise<LegalPage> {
  const saved = await publicSettings(database, siteName);
  return { title: LEGAL_TITLES[page], html: renderMarkdown(saved.sections.legal[page], saved.sections.site.name), updated_at: saved.legalUpdatedAt[page] };
}

/** What server-rendered heads, the sitemap and robots.txt need of the settings: name, description, public URL, favicon, the legal pages' dates. */
export interface SiteIdentity {
  name: string;
  description: string;
  /** The owner's public URL (without a trailing slash), or undefined: used where PUBLIC_URL is not set. */
  publicUrl: string | undefined;
  favicon: SiteSettings['favicon'];
  legalUpdatedAt: Record<LegalPageKey, string>;
}

/** The site's identity for page heads, social cards and the sitemap, from the settings as they are now. */
export async function getSiteIdentity(database: Database, siteName: string): Promise<SiteIdentity> {
  const saved = await publicSettings(database, siteName);
  return {
    name: saved.sections.site.name,
    description: saved.sections.site.description,
    publicUrl: saved.sections.site.public_url.replace(/\/+$/, '') || undefined,
    favicon: siteMediaOf(saved.media).favicon,
    legalUpdatedAt: saved.legalUpdatedAt,
  };
}
