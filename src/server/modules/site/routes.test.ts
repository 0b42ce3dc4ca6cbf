import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import { legalPageSchema } from '../../../contract/settings';
import { siteSettingsSchema } from '../../../contract/site';
import { LEGAL_DEFAULTS_UPDATED_AT } from '../settings/legal-defaults';
import { createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';

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

  it("serves the spec's texts, four figures, eight community cards and the footer defaults", async () => {
    const site = await get();
    expect(site.name).toBe('Edit Vault');
    expect(site.hero).toMatchObject({ title: ['PREMIUM', 'RESOURCES'], button: 'Explore Resources' });
    expect(site.my_website.heading).toBe('Crafting Digital Experiences');
    expect(site.my_website.tiles.map((tile) => tile.title)).toEqual(['Clean Code', 'Modern UI']);
    expect(site.stats.map((s) => s.label)).toEqual(['Total Resources', 'Total Downloads', 'Community Members', 'Monthly Growth']);
    expect(site.community.map((c) => c.name)).toEqual(['WhatsApp Group', 'Telegram', 'Instagram', 'GitHub', 'LinkedIn', 'Discord', 'YouTube', 'Twitter']);
    for (const c of site.community) {
      expect(c.link).toMatch(/^https:\/\//);
      expect(c.color).toMatch(/^#[0-9A-Fa-f]{6}$/);
      expect(c.description.length).toBeGreaterThan(10);
    }
    expect(site.footer.copyright_start_year).toBe(2024);
    expect(site.footer.quick_links.map((l) => l.label)).toEqual(['Home', 'Categories', 'Resources', 'My Website']);
    expect(site.portfolio_url).toMatch(/^https:\/\//);
    expect(site.footer.source_code_url).toMatch(/^https:\/\//);
  });

  it('serves the default legal pages: what the site keeps, under the site’s name, with their date', async () => {
    const privacy = legalPageSchema.strict().parse((await t.app.inject({ url: API.page('privacy') })).json());
    expect(privacy.title).toBe('Privacy Policy');
    expect(privacy.updated_at).toBe(LEGAL_DEFAULTS_UPDATED_AT);
    expect(privacy.html).toContain('<h2 id="information-we-collect">Information we collect</h2>');
    expect(privacy.html).toContain('Edit Vault lets you browse');
    expect(privacy.html).not.toContain('{site}');
    for (const kept of ['no visitor accounts', 'local storage', 'deleted once the day is over', 'Server logs', 'sets no cookies']) expect(privacy.html).toContain(kept);
    const terms = legalPageSchema.strict().parse((await t.app.inject({ url: API.page('terms') })).json());
    expect(terms.title).toBe('Terms of Service');
    expect(terms.html).toContain('These terms govern your use of Edit Vault');
    const sitemap = (await t.app.inject({ url: '/sitemap.xml' })).body;
    expect(sitemap).toContain(`/privacy</loc><lastmod>${LEGAL_DEFAULTS_UPDATED_AT}</lastmod>`);
    expect((await t.app.inject({ url: API.page('..%2Fsite') })).statusCode).toBe(404);
  });
});
