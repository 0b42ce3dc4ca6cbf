import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteSettingsSchema } from '../../../contract/site';
import { createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';
import { SITE_DEFAULTS, SITE_SETTING_KEYS } from './defaults';

describe.each(TEST_DATABASES)('GET /api/site on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { siteName: 'Edit Vault' });
  });
  afterAll(async () => {
    await t.close();
  });

  const get = async () => {
    const res = await t.app.inject({ url: '/api/site' });
    expect(res.statusCode).toBe(200);
    return siteSettingsSchema.strict().parse(res.json());
  };

  it("serves the spec's figures, eight community cards and the footer defaults", async () => {
    const site = await get();
    expect(site.name).toBe('Edit Vault');
    expect(site.stats.map((s) => [s.label, s.value, s.suffix, s.daily, s.weekly, s.monthly])).toEqual([
      ['Total Resources', 156, '+', 2, 15, 45],
      ['Total Downloads', 2893, '+', 56, 378, 1290],
      ['Community Members', 467, '+', 3, 19, 76],
      ['Monthly Growth', 15, '%', 0.5, 3.5, 15],
    ]);
    expect(site.community.map((c) => c.name)).toEqual([
      'WhatsApp Group',
      'Telegram',
      'Instagram',
      'GitHub',
      'LinkedIn',
      'Discord',
      'YouTube',
      'Twitter',
    ]);
    for (const c of site.community) {
      expect(c.link).toMatch(/^https:\/\//);
      expect(c.color).toMatch(/^#[0-9A-Fa-f]{6}$/);
      expect(c.description.length).toBeGreaterThan(10);
    }
    expect(site.footer_year).toBe(2024);
    expect(site.portfolio_url).toMatch(/^https:\/\//);
    expect(site.source_code_url).toMatch(/^https:\/\//);
  });

  it('reads stored settings over the defaults and ignores a stored value of the wrong shape', async () => {
    await t.database.db
      .insertInto('settings')
      .values([
        { key: SITE_SETTING_KEYS.footer_year, value: '2026' },
        { key: SITE_SETTING_KEYS.portfolio_url, value: JSON.stringify('https://me.example.com/') },
        { key: SITE_SETTING_KEYS.stats, value: JSON.stringify([{ key: 'resources', label: 'broken' }]) },
        { key: SITE_SETTING_KEYS.community, value: '{not json' },
      ])
      .execute();
    const site = await get();
    expect(site.footer_year).toBe(2026);
    expect(site.portfolio_url).toBe('https://me.example.com/');
    expect(site.stats).toEqual(SITE_DEFAULTS.stats);
    expect(site.community).toEqual(SITE_DEFAULTS.community);
  });
});
