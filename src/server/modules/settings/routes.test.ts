import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import { adminSettingsSchema, type AdminSettings, legalPageSchema, SETTINGS_LIMITS, settingsVersionDetailSchema } from '../../../contract/settings';
import { siteSettingsSchema } from '../../../contract/site';
import { createAndSignIn, type SignedIn } from '../../testing/auth-helpers';
import { insertResource } from '../../testing/resource-fixtures';
import { BROWSER, createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';
import { SITE_DEFAULTS } from './defaults';

type Method = 'GET' | 'PATCH' | 'POST';

describe.each(TEST_DATABASES)('the owner’s settings on %s', (kind) => {
  let t: TestApp;
  let root: SignedIn;
  let editor: SignedIn;

  beforeAll(async () => {
    // The client's HTML template without a build: the head is the server's either way.
    const clientDir = mkdtempSync(path.join(tmpdir(), 'rv-settings-'));
    copyFileSync(path.resolve('index.html'), path.join(clientDir, 'index.html'));
    t = await createTestApp(kind, { siteName: 'Env Vault', clientDir });
    root = await createAndSignIn(t.app, t.database, 'owner', { superUser: true });
    editor = await createAndSignIn(t.app, t.database, 'editor');
  });
  afterAll(async () => {
    await t?.close();
  });

  const as = (who: SignedIn | undefined, method: Method, url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: who ? { cookie: who.cookie } : {} });
  const settings = async (): Promise<AdminSettings> => {
    const res = await as(root, 'GET', API.adminSettings);
    expect(res.statusCode).toBe(200);
    return adminSettingsSchema.strict().parse(res.json());
  };
  const site = async () => {
    const res = await t.app.inject({ url: API.site });
    expect(res.statusCode).toBe(200);
    return siteSettingsSchema.strict().parse(res.json());
  };
  const patch = (body: object) => as(root, 'PATCH', API.adminSettings, body);
  const rows = async () => (await t.database.db.selectFrom('settings').selectAll().where('key', 'like', 'settings.%').orderBy('key').execute()).map((r) => [r.key, r.value]);

  it('answers the defaults on a new install: the spec’s texts, SITE_NAME as the name, three live figures', async () => {
    const s = await settings();
    expect(s.version).toBe(0);
    expect(s.site.name).toBe('Env Vault');
    expect(s.home).toEqual(SITE_DEFAULTS.home);
    expect(s.community).toEqual(SITE_DEFAULTS.community);
    expect(s.stats.map((x) => [x.key, x.mode])).toEqual([
      ['resources', 'live'],
      ['downloads', 'live'],
      ['members', 'fixed'],
      ['growth', 'live'],
    ]);
    expect(s.legal.privacy).toContain('## Information we collect');
    expect(s.media).toEqual({ logo: null, favicon: null, promo_video: null, promo_video_job: null });
    const pub = await site();
    expect(pub.name).toBe('Env Vault');
    expect(pub.stats.find((x) => x.key === 'members')?.value).toBe(467);
  });

  it('refuses a plain admin (403) and a signed-out visitor (401) on every settings route, changing nothing', async () => {
    const before = await rows();
    const routes: [Method, string, object?][] = [
      ['GET', API.adminSettings],
      ['PATCH', API.adminSettings, { site: { ...SITE_DEFAULTS.site, name: 'Taken Over' } }],
      ['GET', API.adminSettingsVersions],
      ['GET', API.adminSettingsVersion(1)],
      ['POST', API.adminSettingsRestore(1)],
      ['POST', API.adminSettingsPreviewMarkdown, { markdown: '# Hi' }],
    ];
    for (const [method, url, body] of routes) {
      const plain = await as(editor, method, url, body);
      expect(plain.statusCode, `${method} ${url} as a plain admin`).toBe(403);
      expect(plain.json().error.code).toBe('FORBIDDEN');
      const anonymous = await as(undefined, method, url, body);
      expect(anonymous.statusCode, `${method} ${url} signed out`).toBe(401);
    }
    expect(await rows()).toEqual(before);
  });

  it('saves each section and shows it in GET /api/site and in the page heads', async () => {
    const s = await settings();
    const res = await patch({
      base_version: s.version,
      site: { name: 'Mira Edits', description: 'Packs by Mira.', public_url: 'https://mira.example' },
      home: { ...s.home, hero_title: ['MIRA', 'PACKS'], portfolio_url: 'https://mira.example/work' },
      community: [
        { name: 'Mira Discord', link: 'https://discord.gg/mira', color: '#112233', description: 'Chat with me.', icon: 'discord', hidden: false },
        { name: 'Secret', link: 'https://t.me/secret', color: '#445566', description: '', icon: 'telegram', hidden: true },
        { name: 'Mail', link: 'mailto:mira@example.com', color: '#778899', description: 'Write to me.', icon: 'generic', hidden: false },
      ],
      footer: { ...s.footer, about: 'Mira edits things.', copyright_holder: 'Mira', copyright_start_year: 2021, source_code_url: '' },
      stats: s.stats.map((x) => (x.key === 'members' ? { ...x, value: 1200, label: 'Members' } : x)),
    });
    expect(res.statusCode, res.body).toBe(200);
    const saved = adminSettingsSchema.strict().parse(res.json());
    expect(saved.version).toBeGreaterThan(s.version);
    expect(saved.site.name).toBe('Mira Edits');

    const pub = await site();
    expect(pub.name).toBe('Mira Edits');
    expect(pub.description).toBe('Packs by Mira.');
    expect(pub.public_url).toBe('https://mira.example');
    expect(pub.hero.title).toEqual(['MIRA', 'PACKS']);
    expect(pub.portfolio_url).toBe('https://mira.example/work');
    expect(pub.community.map((c) => c.name)).toEqual(['Mira Discord', 'Mail']);
    expect(pub.footer).toMatchObject({ about: 'Mira edits things.', copyright_holder: 'Mira', copyright_start_year: 2021, source_code_url: '' });
    expect(pub.stats.find((x) => x.key === 'members')).toMatchObject({ label: 'Members', value: 1200 });

    const community = await t.app.inject({ url: '/community' });
    expect(community.body).toContain('<title>Community - Mira Edits</title>');
    const home = await t.app.inject({ url: '/' });
    expect(home.body).toContain('<meta name="description" content="Packs by Mira." />');
    // The owner's public URL builds the sitemap's links where PUBLIC_URL is not set, whatever Host the request names.
    const sitemap = await t.app.inject({ url: '/sitemap.xml', headers: { host: 'attacker.example' } });
    expect(sitemap.body).toContain('<loc>https://mira.example/community</loc>');
    expect(sitemap.body).not.toContain('attacker.example');
    expect(sitemap.headers['cache-control']).toBe('public, max-age=3600');

    const versions = (await as(root, 'GET', API.adminSettingsVersions)).json().items;
    expect(versions[0]).toMatchObject({ admin: { id: root.admin.id, username: 'owner' }, restored_from: null });
    expect([...versions[0].changed].sort()).toEqual(['community', 'footer', 'home', 'site', 'stats']);
  });

  it('refuses bad fields with their paths and saves nothing', async () => {
    const s = await settings();
    const before = await rows();
    const card = { name: 'Card', link: 'https://example.com/', color: '#123456', description: '', icon: 'generic', hidden: false };
    const cases: [object, string][] = [
      [{ community: [{ ...card, color: 'red' }] }, 'community.0.color'],
      [{ community: [card, { ...card, link: 'javascript:alert(1)' }] }, 'community.1.link'],
      [{ community: Array.from({ length: SETTINGS_LIMITS.communityCards + 1 }, () => card) }, 'community'],
      [{ site: { ...s.site, favourite: 'x' } }, 'site'],
      [{ theme: 'dark' }, '_'],
      [{ home: { ...s.home, portfolio_url: 'ftp://example.com/' } }, 'home.portfolio_url'],
      [{ stats: s.stats.map((x) => (x.key === 'members' ? { ...x, mode: 'live' } : x)) }, 'stats'],
      // A good section beside a bad one: neither is saved.
      [{ site: { ...s.site, name: 'Half Saved' }, footer: { ...s.footer, socials: [{ label: 'X', icon: 'twitter', link: 'javascript:void(0)' }] } }, 'footer.socials.0.link'],
    ];
    for (const [body, field] of cases) {
      const res = await patch(body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      const error = res.json().error;
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(Object.keys(error.fields ?? {}), res.body).toContain(field);
    }
    expect(await rows()).toEqual(before);
    expect((await settings()).version).toBe(s.version);
  });

  it('refuses a save based on an older version with 409, saving nothing', async () => {
    const s = await settings();
    const ok = await patch({ base_version: s.version, home: { ...s.home, hero_badge: 'First writer' } });
    expect(ok.statusCode).toBe(200);
    const stale = await patch({ base_version: s.version, home: { ...s.home, hero_badge: 'Second writer' } });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('CONFLICT');
    expect((await settings()).home.hero_badge).toBe('First writer');
  });

  it('keeps the last 20 versions and restores one as a new version', async () => {
    const first = await settings();
    for (let i = 1; i <= SETTINGS_LIMITS.versions + 2; i++) {
      const res = await patch({ home: { ...first.home, hero_badge: `Badge ${i}` } });
      expect(res.statusCode).toBe(200);
    }
    const list = (await as(root, 'GET', API.adminSettingsVersions)).json().items as { id: number; changed: string[] }[];
    expect(list).toHaveLength(SETTINGS_LIMITS.versions);
    expect(list.map((v) => v.id)).toEqual([...list.map((v) => v.id)].sort((a, b) => b - a));
    const kept = await t.database.db.withTables<{ settings_versions: { id: number } }>().selectFrom('settings_versions').select('id').execute();
    expect(kept).toHaveLength(SETTINGS_LIMITS.versions);

    const target = list[4];
    const detail = settingsVersionDetailSchema.parse((await as(root, 'GET', API.adminSettingsVersion(target.id))).json());
    expect(detail.sections.home.hero_badge).toBe(`Badge ${SETTINGS_LIMITS.versions + 2 - 4}`);
    const restored = await as(root, 'POST', API.adminSettingsRestore(target.id));
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().home.hero_badge).toBe(detail.sections.home.hero_badge);
    expect((await site()).hero.badge).toBe(detail.sections.home.hero_badge);
    const newest = (await as(root, 'GET', API.adminSettingsVersions)).json().items[0];
    expect(newest).toMatchObject({ restored_from: target.id, changed: ['home'] });
    expect((await as(root, 'GET', API.adminSettingsVersion(999_999))).statusCode).toBe(404);
    expect((await as(root, 'POST', API.adminSettingsRestore(999_999))).statusCode).toBe(404);
  });

  it('renders the legal pages inert: no script, no raw HTML, no javascript: links; external links nofollow', async () => {
    const s = await settings();
    const before = await t.app.inject({ url: API.page('terms') });
    const markdown = [
      '# Our policy',
      '<script>alert(1)</script>',
      '<img src=x onerror=alert(1)>',
      '[click](javascript:alert(1)) [data](data:text/html;base64,PHNjcmlwdD4=) [vb](vbscript:msgbox)',
      'Visit [the docs](https://docs.example.com/x) or [terms](/terms) or https://bare.example.com.',
      '## Our policy',
      'Written for {site}.',
    ].join('\n\n');
    const res = await patch({ legal: { ...s.legal, privacy: markdown } });
    expect(res.statusCode).toBe(200);
    const page = legalPageSchema.parse((await t.app.inject({ url: API.page('privacy') })).json());
    expect(page.title).toBe('Privacy Policy');
    // Tags only Markdown makes, and links to http(s) or this site only: the rest is text.
    expect(page.html).not.toMatch(/<(?!\/?(?:h1|h2|p|a)\b)/);
    expect([...page.html.matchAll(/href="([^"]*)"/g)].map((m) => m[1])).toEqual(['https://docs.example.com/x', '/terms', 'https://bare.example.com']);
    expect(page.html).toContain('[click](javascript:alert(1))');
    expect(page.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.html).toContain('<a href="https://docs.example.com/x" rel="noopener nofollow" target="_blank">the docs</a>');
    expect(page.html).toContain('<a href="/terms">terms</a>');
    expect(page.html).toContain('<a href="https://bare.example.com" rel="noopener nofollow" target="_blank">');
    expect(page.html).toContain('<h1 id="our-policy">Our policy</h1>');
    expect(page.html).toContain('<h2 id="our-policy-2">Our policy</h2>');
    expect(page.html).toContain(`Written for ${(await settings()).site.name}.`);
    expect(Date.parse(page.updated_at)).toBeGreaterThan(Date.parse('2026-11-27T00:00:00.000Z') - 1);
    // The other page's date moves only when its own text does.
    const terms = legalPageSchema.parse((await t.app.inject({ url: API.page('terms') })).json());
    expect(terms.updated_at).toBe(before.json().updated_at);
    const again = await patch({ legal: { ...s.legal, privacy: markdown }, home: { ...s.home, hero_text: 'Other' } });
    expect(again.statusCode).toBe(200);
    expect(legalPageSchema.parse((await t.app.inject({ url: API.page('privacy') })).json()).updated_at).toBe(page.updated_at);

    const preview = await as(root, 'POST', API.adminSettingsPreviewMarkdown, { markdown: '[x](javascript:alert(1)) <b>raw</b> **bold**' });
    expect(preview.statusCode).toBe(200);
    expect(preview.json().html).toBe('<p>[x](javascript:alert(1)) &lt;b&gt;raw&lt;/b&gt; <strong>bold</strong></p>\n');
    expect((await t.app.inject({ url: API.page('cookies') })).statusCode).toBe(404);

    const sitemap = await t.app.inject({ url: '/sitemap.xml' });
    expect(sitemap.body).toContain(`/privacy</loc><lastmod>${page.updated_at}</lastmod>`);
    expect(sitemap.body).toContain(`/terms</loc><lastmod>${terms.updated_at}</lastmod>`);
  });

  it('computes live figures, which rise after a counted download; fixed ones answer the typed figures', async () => {
    const s = await settings();
    const live = s.stats.map((x) => (x.key === 'members' ? x : { ...x, mode: 'live' as const }));
    expect((await patch({ stats: live })).statusCode).toBe(200);
    const id = await insertResource(t.database, { created_at: new Date().toISOString(), download_count: 5 });
    await insertResource(t.database, { created_at: '2020-01-01T00:00:00.000Z' });
    const figure = async (key: string) => {
      const { stats } = siteSettingsSchema.parse((await t.app.inject({ url: API.site, headers: { 'cache-control': 'no-cache' } })).json());
      return stats.find((x) => x.key === key)!;
    };
    const resources = await figure('resources');
    const totalResources = (await t.database.db.selectFrom('resources').select('id').execute()).length;
    expect(resources.value).toBe(totalResources);
    expect(resources.daily).toBeGreaterThanOrEqual(1);

    const before = await figure('downloads');
    const download = await t.app.inject({ method: 'POST', url: API.download(id), headers: BROWSER });
    expect(download.statusCode).toBe(200);
    // Downloads do not bump the data version: a new resource does (an admin write), so the public
    // answer is computed again here without waiting for the cache's age to run out.
    await insertResource(t.database);
    const after = await figure('downloads');
    expect(after.value).toBe(before.value + 1);
    expect(after.daily).toBe(before.daily + 1);
    expect(after.monthly).toBe(before.monthly + 1);

    expect((await patch({ stats: live.map((x) => ({ ...x, mode: 'fixed' as const })) })).statusCode).toBe(200);
    const fixed = await figure('downloads');
    expect(fixed.value).toBe(s.stats[1].value);
  });
});
