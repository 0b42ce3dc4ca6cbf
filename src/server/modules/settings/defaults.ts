import { FOOTER_YEAR_DEFAULT } from '../../../contract/constants';
import type { SettingsSections } from '../../../contract/settings';

/**
 * The settings a fresh install shows (issue 29): the spec's texts, the eight community cards with
 * placeholder links, and the figures. A new install shows resources, downloads and growth live
 * (from the database); Community Members stays a typed figure. Saved settings replace a section
 * whole. The legal pages' defaults are Markdown in ./legal-defaults.ts.
 */
export const SITE_DEFAULTS: Omit<SettingsSections, 'legal'> = {
  site: {
    name: 'Resource Vault',
    description: 'Free and premium resources for video and photo creators: transitions, presets, sound effects, LUTs, fonts and anime edit packs.',
    public_url: '',
  },
  home: {
    hero_badge: 'Hand-picked packs for video & photo creators',
    hero_title: ['PREMIUM', 'RESOURCES'],
    hero_text: 'Transitions, presets, sound effects, LUTs, fonts and anime edit packs — everything you need to make every frame hit harder.',
    hero_button: 'Explore Resources',
    portfolio_url: 'https://example.com/',
    my_website_heading: 'Crafting Digital Experiences',
    my_website_text: 'Beyond the packs, I design and build websites for creators and brands — fast, accessible and made to be remembered.',
    tiles: [
      { title: 'Clean Code', text: 'Readable, typed and tested code that stays fast as it grows.' },
      { title: 'Modern UI', text: 'Responsive interfaces with motion, depth and a dark mode done right.' },
    ],
  },
  community: [
    { name: 'WhatsApp Group', link: 'https://chat.whatsapp.com/', color: '#25D366', description: 'Daily drops and quick help from fellow editors.', icon: 'whatsapp', hidden: false },
    { name: 'Telegram', link: 'https://t.me/', color: '#26A5E4', description: 'Announcements and new packs the moment they land.', icon: 'telegram', hidden: false },
    { name: 'Instagram', link: 'https://www.instagram.com/', color: '#E4405F', description: 'Edits, reels and behind-the-scenes of new resources.', icon: 'instagram', hidden: false },
    { name: 'GitHub', link: 'https://github.com/', color: '#6E5494', description: 'Source code, scripts and open-source tools.', icon: 'github', hidden: false },
    { name: 'LinkedIn', link: 'https://www.linkedin.com/', color: '#0A66C2', description: 'Professional updates and collaborations.', icon: 'linkedin', hidden: false },
    { name: 'Discord', link: 'https://discord.com/', color: '#5865F2', description: 'Chat with creators, share work and get feedback.', icon: 'discord', hidden: false },
    { name: 'YouTube', link: 'https://www.youtube.com/', color: '#FF0000', description: 'Tutorials showing every resource in action.', icon: 'youtube', hidden: false },
    { name: 'Twitter', link: 'https://twitter.com/', color: '#1DA1F2', description: 'Quick tips, previews and community highlights.', icon: 'twitter', hidden: false },
  ],
  footer: {
    about: "I'm an editor and developer sharing the packs, presets and tools I use every day, so creators find high-quality resources to edit faster and better.",
    quick_links: [
      { label: 'Home', href: '/#hero' },
      { label: 'Categories', href: '/#categories' },
      { label: 'Resources', href: '/#premium-resources' },
      { label: 'My Website', href: '/#my-website' },
    ],
    socials: [
      { label: 'WhatsApp Group', icon: 'whatsapp', link: 'https://chat.whatsapp.com/' },
      { label: 'Telegram', icon: 'telegram', link: 'https://t.me/' },
      { label: 'Instagram', icon: 'instagram', link: 'https://www.instagram.com/' },
      { label: 'GitHub', icon: 'github', link: 'https://github.com/' },
      { label: 'LinkedIn', icon: 'linkedin', link: 'https://www.linkedin.com/' },
      { label: 'Discord', icon: 'discord', link: 'https://discord.com/' },
      { label: 'YouTube', icon: 'youtube', link: 'https://www.youtube.com/' },
      { label: 'Twitter', icon: 'twitter', link: 'https://twitter.com/' },
    ],
    source_code_url: 'https://github.com/',
    copyright_start_year: FOOTER_YEAR_DEFAULT,
    copyright_holder: '',
  },
  // The spec's figures, typed; `mode` says which are computed instead (live: the typed numbers are
  // kept for switching back).
  stats: [
    { key: 'resources', label: 'Total Resources', mode: 'live', value: 156, suffix: '+', daily: 2, weekly: 15, monthly: 45 },
    { key: 'downloads', label: 'Total Downloads', mode: 'live', value: 2893, suffix: '+', daily: 56, weekly: 378, monthly: 1290 },
    { key: 'members', label: 'Community Members', mode: 'fixed', value: 467, suffix: '+', daily: 3, weekly: 19, monthly: 76 },
    { key: 'growth', label: 'Monthly Growth', mode: 'live', value: 15, suffix: '%', daily: 0.5, weekly: 3.5, monthly: 15 },
  ],
};
