import { FOOTER_YEAR_DEFAULT } from '../../../contract/constants';
import type { SiteSettings } from '../../../contract/site';

/**
 * The site settings a fresh install shows: the spec's community figures and details, the
 * eight community cards (placeholder links), and footer links. A row in `settings` under the
 * matching key overrides one field.
 */
export const SITE_DEFAULTS: Omit<SiteSettings, 'name'> = {
  stats: [
    { key: 'resources', label: 'Total Resources', value: 156, suffix: '+', daily: 2, weekly: 15, monthly: 45 },
    { key: 'downloads', label: 'Total Downloads', value: 2893, suffix: '+', daily: 56, weekly: 378, monthly: 1290 },
    { key: 'members', label: 'Community Members', value: 467, suffix: '+', daily: 3, weekly: 19, monthly: 76 },
    { key: 'growth', label: 'Monthly Growth', value: 15, suffix: '%', daily: 0.5, weekly: 3.5, monthly: 15 },
  ],
  community: [
    { name: 'WhatsApp Group', link: 'https://chat.whatsapp.com/', color: '#25D366', description: 'Daily drops and quick help from fellow editors.' },
    { name: 'Telegram', link: 'https://t.me/', color: '#26A5E4', description: 'Announcements and new packs the moment they land.' },
    { name: 'Instagram', link: 'https://www.instagram.com/', color: '#E4405F', description: 'Edits, reels and behind-the-scenes of new resources.' },
    { name: 'GitHub', link: 'https://github.com/', color: '#6E5494', description: 'Source code, scripts and open-source tools.' },
    { name: 'LinkedIn', link: 'https://www.linkedin.com/', color: '#0A66C2', description: 'Professional updates and collaborations.' },
    { name: 'Discord', link: 'https://discord.com/', color: '#5865F2', description: 'Chat with creators, share work and get feedback.' },
    { name: 'YouTube', link: 'https://www.youtube.com/', color: '#FF0000', description: 'Tutorials showing every resource in action.' },
    { name: 'Twitter', link: 'https://twitter.com/', color: '#1DA1F2', description: 'Quick tips, previews and community highlights.' },
  ],
  portfolio_url: 'https://example.com/',
  source_code_url: 'https://github.com/',
  footer_year: FOOTER_YEAR_DEFAULT,
};

/** The `settings` key holding each field. */
export const SITE_SETTING_KEYS = {
  stats: 'site.stats',
  community: 'site.community',
  portfolio_url: 'site.portfolio_url',
  source_code_url: 'site.source_code_url',
  footer_year: 'site.footer_year',
} as const satisfies Record<keyof typeof SITE_DEFAULTS, string>;
