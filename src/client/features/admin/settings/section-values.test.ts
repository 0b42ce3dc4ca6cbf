import type { SettingsSections } from '@contract/settings';
import { describe, expect, it } from 'vitest';
import { followSavedVersion, formFieldPath, keyboardMoveTarget, movedAnnouncement, sectionFieldErrors, sectionFormSchemas, sectionFormValues, sectionPatch } from './section-values';

const card = (name: string) => ({ name, link: `https://${name.toLowerCase()}.example/`, color: '#123ABC', description: '', icon: 'generic' as const, hidden: false });

const SECTIONS: SettingsSections = {
  site: { name: 'Vault', description: 'Packs for editors', public_url: '' },
  home: {
    hero_badge: 'Badge',
    hero_title: ['PREMIUM', 'RESOURCES'],
    hero_text: 'Text',
    hero_button: 'Explore Resources',
    portfolio_url: 'https://example.com/',
    my_website_heading: 'Heading',
    my_website_text: '',
    tiles: [
      { title: 'One', text: '' },
      { title: 'Two', text: '' },
    ],
  },
  community: [card('Discord'), card('YouTube'), card('GitHub')],
  footer: { about: '', quick_links: [], socials: [], source_code_url: '', copyright_start_year: 2024, copyright_holder: '' },
  stats: [
    { key: 'resources', label: 'Total Resources', mode: 'live', value: 156, suffix: '+', daily: 2, weekly: 15, monthly: 45 },
    { key: 'downloads', label: 'Total Downloads', mode: 'live', value: 2893, suffix: '+', daily: 56, weekly: 378, monthly: 1290 },
    { key: 'members', label: 'Community Members', mode: 'fixed', value: 467, suffix: '+', daily: 3, weekly: 19, monthly: 76 },
    { key: 'growth', label: 'Monthly Growth', mode: 'live', value: 15, suffix: '%', daily: 0.5, weekly: 3.5, monthly: 15 },
  ],
  legal: { privacy: '# Privacy', terms: '# Terms' },
};
const at = (version: number, sections: SettingsSections = SECTIONS) => ({ ...structuredClone(sections), version });

describe('section form values and the PATCH of a save', () => {
  it('holds a list section under `items` and sends it back as the section itself', () => {
    const values = sectionFormValues('community', SECTIONS);
    expect(values).toEqual({ items: SECTIONS.community });
    expect(sectionPatch('community', values, 7)).toEqual({ community: SECTIONS.community, base_version: 7 });
  });

  it('sends an object section whole, with media beside it', () => {
    const values = sectionFormValues('site', SECTIONS);
    expect(sectionPatch('site', values, 3, { logo_upload_id: null })).toEqual({ site: SECTIONS.site, logo_upload_id: null, base_version: 3 });
  });

  it('copies the saved values: editing the form does not change the cache', () => {
    const values = sectionFormValues('community', SECTIONS);
    values.items[0]!.name = 'Changed';
    expect(SECTIONS.community[0]!.name).toBe('Discord');
  });

  it('checks a form with the contract: a bad colour and a javascript: link are refused at their paths', () => {
    const bad = { items: [{ ...card('X'), color: 'red', link: 'javascript:alert(1)' }] };
    const result = sectionFormSchemas.community.safeParse(bad);
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['items.0.color', 'items.0.link']));
    expect(sectionFormSchemas.community.safeParse(sectionFormValues('community', SECTIONS)).success).toBe(true);
  });

  it('refuses a live Community Members figure', () => {
    const values = sectionFormValues('stats', SECTIONS);
    values.items[2]!.mode = 'live';
    expect(sectionFormSchemas.stats.safeParse(values).success).toBe(false);
  });
});

describe('where a refusal shows', () => {
  it('maps the server’s paths onto the section’s form', () => {
    expect(formFieldPath('community', 'community.2.link')).toBe('items.2.link');
    expect(formFieldPath('community', 'community')).toBe('items');
    expect(formFieldPath('site', 'site.name')).toBe('name');
    expect(formFieldPath('home', 'home.hero_title.1')).toBe('hero_title.1');
    expect(formFieldPath('footer', 'footer.socials.0.link')).toBe('socials.0.link');
  });

  it('leaves other sections’ and media fields to the caller', () => {
    expect(formFieldPath('site', 'logo_upload_id')).toBeNull();
    expect(formFieldPath('site', 'home.hero_text')).toBeNull();
    expect(formFieldPath('site', 'site')).toBeNull();
    expect(sectionFieldErrors('site', { 'site.name': 'Too long', logo_upload_id: 'Not an image' })).toEqual({
      form: [['name', 'Too long']],
      other: [['logo_upload_id', 'Not an image']],
    });
  });
});

describe('keyboardMoveTarget', () => {
  it('moves one place with the arrows and to either end with Home and End', () => {
    expect(keyboardMoveTarget('ArrowUp', 2, 4)).toBe(1);
    expect(keyboardMoveTarget('ArrowDown', 2, 4)).toBe(3);
    expect(keyboardMoveTarget('Home', 2, 4)).toBe(0);
    expect(keyboardMoveTarget('End', 1, 4)).toBe(3);
  });
  it('stops at the ends and ignores other keys', () => {
    expect(keyboardMoveTarget('ArrowUp', 0, 4)).toBeNull();
    expect(keyboardMoveTarget('ArrowDown', 3, 4)).toBeNull();
    expect(keyboardMoveTarget('Home', 0, 4)).toBeNull();
    expect(keyboardMoveTarget('Enter', 1, 4)).toBeNull();
  });
  it('announces the new position counted from one', () => {
    expect(movedAnnouncement('Discord', 1, 8)).toBe('Discord moved to position 2 of 8');
    expect(movedAnnouncement('', 0, 3)).toBe('Card moved to position 1 of 3');
  });
});

describe('followSavedVersion', () => {
  const loaded = sectionFormValues('community', SECTIONS);

  it('shows a newer version in a form without edits', () => {
    const next = { ...SECTIONS, community: [card('Telegram')] };
    expect(followSavedVersion({ section: 'community', dirty: false, loaded, base: 1, latest: at(2, next) })).toEqual({ base: 2, reset: { items: next.community } });
  });

  it('keeps the edits and moves the base on when the new version left this section alone', () => {
    const next = { ...SECTIONS, site: { ...SECTIONS.site, name: 'Renamed' } };
    expect(followSavedVersion({ section: 'community', dirty: true, loaded, base: 1, latest: at(2, next) })).toEqual({ base: 2 });
  });

  it('keeps the old base when someone else changed this section: the save then meets a conflict', () => {
    const next = { ...SECTIONS, community: [card('Telegram')] };
    expect(followSavedVersion({ section: 'community', dirty: true, loaded, base: 1, latest: at(2, next) })).toEqual({ base: 1 });
  });

  it('does nothing for the version it has', () => {
    expect(followSavedVersion({ section: 'community', dirty: false, loaded, base: 4, latest: at(4) })).toEqual({ base: 4 });
  });
});

