import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { API } from '../src/contract/api-paths';
import { STORAGE_ADMIN } from '../src/contract/constants';
import type { SiteSettings } from '../src/contract/site';
import { createAccount } from '../src/server/modules/admins/accounts';
import { expectAccessible, openPage, screenshot, type Session, signIn, useBrowserServer } from './harness';

/**
 * The owner's Settings in a real browser (issue 29). Every test but the plain admin's needs the
 * settings API (GET/PATCH /api/admin/settings, versions, restore, GET /api/pages/:page).
 */

/** A toast by its title (found by CSS: a modal dialog hides everything else from the accessibility tree). */
const toast = (page: Page, title: string | RegExp) => page.locator('li[data-swipe-direction]').filter({ hasText: title });
const SLOW = 150_000;
const sectionLink = (page: Page, name: string) => page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name, exact: true });
/** A browser's User-Agent: isbot lets its downloads count. */
const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

type StoredSession = { cookies: Awaited<ReturnType<BrowserContext['cookies']>>; profile: string };

describe('Settings in a real browser', () => {
  const env = useBrowserServer();
  let superSession: StoredSession;

  beforeAll(async () => {
    const s = await openPage(env.browser, env.server.url);
    await signIn(s.page);
    const profile = await s.page.evaluate((k) => localStorage.getItem(k), STORAGE_ADMIN);
    superSession = { cookies: await s.context.cookies(), profile: profile! };
    await s.close();
  });

  /** A fresh context carrying the super admin's session. */
  async function openAsSuper(opts: Parameters<typeof openPage>[2] = {}): Promise<Session> {
    const s = await openPage(env.browser, env.server.url, opts);
    await s.context.addCookies(superSession.cookies);
    await s.context.addInitScript(([key, v]) => localStorage.setItem(key, v), [STORAGE_ADMIN, superSession.profile] as const);
    return s;
  }

  const getJson = async <T>(path: string): Promise<T> => {
    const res = await fetch(env.server.url + path);
    expect(res.status, path).toBe(200);
    return (await res.json()) as T;
  };

  async function openSection(s: Session, section: string, heading: string) {
    await s.page.goto(`/admin/settings/${section}`);
    await s.page.getByRole('heading', { level: 2, name: heading, exact: true }).waitFor();
    await s.page.getByRole('button', { name: `Save ${heading}` }).waitFor();
  }

  it('a plain admin sees no Settings and is refused at its address', async () => {
    const username = `plain_${Date.now().toString(36)}`;
    const password = 'plain-admin-password';
    await createAccount(env.server.database.db, { username, password, isSuperUser: false });
    const s = await openPage(env.browser, env.server.url);
    await signIn(s.page, username, password);
    await s.page.getByRole('heading', { name: `Welcome, ${username}!` }).waitFor();
    expect(await s.page.getByRole('link', { name: /Settings/ }).count()).toBe(0);
    await s.page.goto('/admin/settings/community');
    await s.page.getByRole('heading', { name: 'Access Denied' }).waitFor();
    expect(await s.page.getByRole('navigation', { name: 'Settings sections' }).count()).toBe(0);
    s.expectNoConsoleErrors();
    await s.close();

    // The super admin finds it on the dashboard.
    const sup = await openAsSuper();
    await sup.page.goto('/admin/dashboard');
    await sup.page.getByRole('link', { name: /Settings/ }).click();
    await sup.page.waitForURL('**/admin/settings/site');
    await sup.page.getByRole('navigation', { name: 'Settings sections' }).waitFor();
    sup.expectNoConsoleErrors();
    await sup.close();
  });

  it('edits a community card (name, link, colour, icon) and visitors see it on /community', { timeout: SLOW }, async () => {
    const s = await openAsSuper();
    const { page } = s;
    await openSection(s, 'community', 'Community');
    await page.getByRole('button', { name: 'Edit Discord' }).click();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Editors Lounge');
    // A bad link is refused under its field and nothing is saved.
    await page.getByRole('textbox', { name: 'Link', exact: true }).fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Save Community' }).click();
    await page.getByText(/Link must be an http\(s\) or mailto: link/).waitFor();
    expect((await getJson<SiteSettings>(API.site)).community.some((c) => c.name === 'Editors Lounge')).toBe(false);

    await page.getByRole('textbox', { name: 'Link', exact: true }).fill('https://discord.gg/editors');
    await page.getByRole('textbox', { name: 'Colour', exact: true }).fill('#112233');
    await page.getByRole('radio', { name: 'YouTube' }).check();
    await page.getByRole('button', { name: 'Save Community' }).click();
    await toast(page, 'Settings saved').waitFor();
    await screenshot(page, 'settings-community-saved');

    await page.goto('/community');
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Editors Lounge' }) });
    await card.waitFor();
    expect(await card.getByRole('link', { name: 'Join Now →' }).getAttribute('href')).toBe('https://discord.gg/editors');
    expect(await card.evaluate((el) => getComputedStyle(el).getPropertyValue('--brand').trim())).toBe('#112233');
    s.expectNoConsoleErrors([/status of 400/]);
    await s.close();
  });

  it('reorders cards with the keyboard, announcing each move, and the order reaches /community', { timeout: SLOW }, async () => {
    const s = await openAsSuper();
    const { page } = s;
    await openSection(s, 'community', 'Community');
    const before = (await getJson<SiteSettings>(API.site)).community.map((c) => c.name);
    const last = before.at(-1)!;
    const handle = page.getByRole('button', { name: new RegExp(`^Reorder ${last}, position ${before.length} of`) });
    await handle.focus();
    await page.keyboard.press('ArrowUp');
    await page.getByText(`${last} moved to position ${before.length - 1} of ${before.length}`).waitFor({ state: 'attached' });
    // The handle keeps the focus, so the moves go on.
    await page.keyboard.press('Home');
    await page.getByText(`${last} moved to position 1 of ${before.length}`).waitFor({ state: 'attached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toMatch(new RegExp(`^Reorder ${last}, position 1 of`));
    // Move down with its button too.
    await page.getByRole('button', { name: `Move ${before[0]} down` }).click();
    await page.getByRole('button', { name: 'Save Community' }).click();
    await toast(page, 'Settings saved').waitFor();

    const expected = [last, before[1], before[0], ...before.slice(2, -1)];
    expect((await getJson<SiteSettings>(API.site)).community.map((c) => c.name)).toEqual(expected);
    await page.goto('/community');
    await page.getByRole('link', { name: 'Join Now →' }).first().waitFor();
    expect(await page.getByRole('main').getByRole('heading', { level: 2 }).allTextContents()).toEqual(expected);
    s.expectNoConsoleErrors();
    await s.close();
  });

  it('asks before leaving a section with unsaved changes', async () => {
    const s = await openAsSuper();
    const { page } = s;
    await openSection(s, 'site', 'Site');
    await page.getByLabel('Site name').fill('Unsaved name');
    await sectionLink(page, 'Footer').click();
    const dialog = page.getByRole('alertdialog', { name: 'Leave without saving?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.getByLabel('Site name').inputValue()).toBe('Unsaved name');
    await sectionLink(page, 'Footer').click();
    await page.getByRole('alertdialog', { name: 'Leave without saving?' }).getByRole('button', { name: 'Leave without saving' }).click();
    await page.waitForURL('**/admin/settings/footer');
    s.expectNoConsoleErrors();
    await s.close();
  });

  it('renders a Markdown privacy page with <script> and a javascript: link inert', { timeout: SLOW }, async () => {
    const s = await openAsSuper();
    const { page } = s;
    await openSection(s, 'legal', 'Legal pages');
    const markdown = [
      '# Our privacy',
      '',
      'We keep [almost nothing](https://example.com/policy).',
      '',
      '<script>window.__pwned = true</script>',
      '',
      '[Click me](javascript:window.__pwned=true)',
      '',
      '<img src=x onerror="window.__pwned=true">',
    ].join('\n');
    await page.getByLabel('Privacy Policy (Markdown)').fill(markdown);
    const preview = page.getByRole('region', { name: 'Privacy Policy preview' });
    await preview.getByRole('heading', { name: 'Our privacy' }).waitFor();
    await page.getByRole('button', { name: 'Save Legal pages' }).click();
    await toast(page, 'Settings saved').waitFor();

    await page.goto('/privacy');
    const article = page.getByRole('article');
    await article.getByRole('heading', { name: 'Our privacy' }).waitFor();
    await page.getByText(/^Last updated: /).waitFor();
    const external = article.getByRole('link', { name: 'almost nothing' });
    expect(await external.getAttribute('rel')).toMatch(/noopener/);
    expect(await article.locator('script').count()).toBe(0);
    expect(await article.locator('img[onerror]').count()).toBe(0);
    expect(await article.locator('a[href^="javascript:"]').count()).toBe(0);
    const clickable = article.getByText('Click me');
    if (await clickable.count()) await clickable.click();
    expect(await page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned)).toBeUndefined();
    // The server-rendered page carries the same sanitised markup.
    const html = await (await fetch(`${env.server.url}/privacy`)).text();
    expect(html).toContain('Our privacy');
    expect(html).not.toContain('window.__pwned = true</script>');
    s.expectNoConsoleErrors();
    await s.close();
  });

  it('a live figure rises after a counted download', { timeout: SLOW }, async () => {
    const s = await openAsSuper();
    const { page } = s;
    await openSection(s, 'figures', 'Figures');
    const downloads = page.getByRole('group', { name: 'Total Downloads' });
    await downloads.getByRole('radio', { name: 'Live' }).check();
    expect(await page.getByRole('group', { name: 'Community Members' }).getByText(/Fixed only/).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Save Figures' }).click();
    await toast(page, /Settings saved|Everything is saved/).first().waitFor({ state: 'attached' });
    await s.close();

    const figure = async () => (await getJson<SiteSettings>(API.site)).stats.find((x) => x.key === 'downloads')!.value;
    const before = await figure();
    const { items } = await getJson<{ items: { id: number }[] }>(`${API.resources}?category=video_editing&limit=1`);
    const res = await fetch(env.server.url + API.download(items[0]!.id), { method: 'POST', headers: { 'user-agent': BROWSER_UA, 'x-forwarded-for': '203.0.113.77' } });
    expect(res.status).toBe(200);
    // Live figures are cached for at most a minute.
    await expect.poll(figure, { timeout: 75_000, interval: 1000 }).toBe(before + 1);

    const v = await openPage(env.browser, env.server.url, { reducedMotion: 'reduce' });
    await v.page.goto('/');
    const card = v.page.getByRole('button', { name: /Total Downloads/ });
    await card.scrollIntoViewIfNeeded();
    await expect.poll(() => card.locator('[data-counter]').textContent()).toBe((before + 1).toLocaleString('en-US'));
    v.expectNoConsoleErrors();
    await v.close();
  });

  it('restores a version from the history, after confirming', { timeout: SLOW }, async () => {
    const s = await openAsSuper();
    const { page } = s;
    const stamp = Date.now().toString(36);
    const [first, second] = [`Vault ${stamp} A`, `Vault ${stamp} B`];
    await openSection(s, 'site', 'Site');
    for (const name of [first, second]) {
      await page.getByLabel('Site name').fill(name);
      await page.getByRole('button', { name: 'Save Site' }).click();
      await expect.poll(async () => (await getJson<SiteSettings>(API.site)).name).toBe(name);
      // The form has taken the saved version in ('Saving…' is over): a name filled before then was
      // replaced by the saved one (the second save then saved the first name again).
      await page.getByRole('button', { name: 'Save Site' }).waitFor();
    }

    await sectionLink(page, 'History').click();
    await page.getByRole('heading', { level: 2, name: 'History' }).waitFor();
    const rows = page.getByRole('listitem').filter({ has: page.getByRole('button', { name: /^Restore the version of/ }) });
    await rows.first().getByText('Current').waitFor();
    expect(await rows.first().getByText('Site', { exact: true }).count()).toBe(1);
    expect(await rows.first().getByRole('button', { name: /^Restore/ }).isDisabled()).toBe(true);
    // The first rename: view it (what it changed is open), then restore it.
    await rows.nth(1).getByRole('button', { name: /^View/ }).click();
    const dialog = page.getByRole('dialog', { name: /^Version of/ });
    await dialog.getByText(first, { exact: true }).waitFor();
    await screenshot(page, 'settings-history-version');
    await dialog.getByRole('button', { name: 'Restore this version' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Restore this version?' });
    await confirm.getByRole('button', { name: 'Restore' }).click();
    await toast(page, 'Version restored').waitFor();
    await expect.poll(async () => (await getJson<SiteSettings>(API.site)).name).toBe(first);
    // The restore is the newest version, and the Site form shows the restored name.
    await rows.first().getByText('Restored an earlier version').waitFor();
    await sectionLink(page, 'Site').click();
    await expect.poll(() => page.getByLabel('Site name').inputValue()).toBe(first);
    s.expectNoConsoleErrors();
    await s.close();
  });

  // Every screen in both themes and both sizes is screenshotted; axe runs on two of the four (each
  // screen's markup is the same in all four, contrast differs by theme).
  for (const [viewport, colorScheme, axe] of [
    ['desktop', 'light', true],
    ['mobile', 'dark', true],
    ['desktop', 'dark', false],
    ['mobile', 'light', false],
  ] as const) {
    it(`every section is screenshotted${axe ? ' and passes axe' : ''} (${viewport}, ${colorScheme})`, { timeout: axe ? 2 * SLOW : SLOW }, async () => {
      const s = await openAsSuper({ viewport, colorScheme, reducedMotion: 'reduce' });
      for (const [section, heading] of [
        ['site', 'Site'],
        ['home', 'Home'],
        ['community', 'Community'],
        ['footer', 'Footer'],
        ['figures', 'Figures'],
        ['legal', 'Legal pages'],
      ] as const) {
        await openSection(s, section, heading);
        if (section === 'legal') await s.page.getByRole('region', { name: 'Privacy Policy preview' }).getByRole('heading').first().waitFor();
        if (axe) await expectAccessible(s.page);
        await screenshot(s.page, `settings-${section}-${viewport}-${colorScheme}`, { fullPage: true });
      }
      await s.page.goto('/admin/settings/history');
      await s.page.getByRole('heading', { level: 2, name: 'History' }).waitFor();
      if (axe) await expectAccessible(s.page);
      await screenshot(s.page, `settings-history-${viewport}-${colorScheme}`, { fullPage: true });
      s.expectNoConsoleErrors();
      await s.close();
    });
  }
});
