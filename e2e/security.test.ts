import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, pageSettled, useBrowserServer, openPage, type Session } from './harness';

/**
 * Stored XSS: hostile text put into every admin-editable field through the real admin API must
 * render as inert text on every page that shows it. A payload that executed would push to
 * window.__xss or open a dialog; one that was parsed as HTML would leave an element marked data-xss.
 */
const P = {
  img: `<img src=x data-xss onerror="window.__xss.push('img')">`,
  script: `<script data-xss>window.__xss.push('script')</script>`,
  svg: `"><svg data-xss onload="window.__xss.push('svg')">`,
  js: `javascript:window.__xss.push('js')//`,
  attr: `' autofocus onfocus="window.__xss.push('attr')" x='`,
};
const TITLE = `T XSSMARK ${P.img}`;
const PREMIUM_TITLE = `Premium XSSMARK ${P.svg}`;
const DESCRIPTION = `D ${P.script} ${P.svg} ${P.js}`;
const TAG = `G${P.svg}`.slice(0, 30);
const MESSAGE = `M ${P.img} ${P.script} ${P.attr}`;

const env = useBrowserServer();
let cookie = '';

async function api(method: string, path: string, payload?: unknown) {
  const res = await fetch(env.server.url + path, {
    method,
    headers: { cookie, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

beforeAll(async () => {
  const login = await fetch(`${env.server.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
  cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  expect(cookie).toMatch(/^rv_session=/);
  const created = await api('POST', '/api/admin/resources', {
    title: TITLE,
    description: DESCRIPTION,
    category: 'typography',
    thumbnail_url: '/thumbnails/1.svg',
    download_url: 'https://example.com/xss.zip',
    tags: [TAG, 'Fonts'],
    is_premium: true,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  // The home carousel shows the Premium Resources category.
  const premium = await api('POST', '/api/admin/resources', {
    title: PREMIUM_TITLE,
    description: DESCRIPTION,
    category: 'premium_resources',
    thumbnail_url: '/thumbnails/1.svg',
    download_url: 'https://example.com/xss.zip',
    tags: ['Premium'],
    is_premium: true,
  });
  expect(premium.status, JSON.stringify(premium.body)).toBe(201);
  expect((await api('POST', '/api/admin/announcements', { message: MESSAGE })).status).toBe(201);
});

async function visit(admin: boolean): Promise<{ s: Session; page: Page; dialogs: string[] }> {
  const s = await openPage(env.browser, env.server.url, { reducedMotion: 'reduce' });
  await s.context.addInitScript(() => {
    (window as unknown as { __xss: string[] }).__xss = [];
  });
  if (admin) {
    // Signed in through the real login page, as an admin would be.
    await s.page.goto('/admin/login');
    await s.page.getByLabel('Username').fill(ADMIN.username);
    await s.page.getByLabel('Password').fill(ADMIN.password);
    await s.page.getByRole('button', { name: /Enter the Matrix/ }).click();
    await s.page.waitForURL(/\/admin\/dashboard/);
  }
  const dialogs: string[] = [];
  s.page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  return { s, page: s.page, dialogs };
}

async function expectInert(page: Page, dialogs: string[], shown: string[]) {
  await pageSettled(page);
  expect(await page.evaluate(() => (window as unknown as { __xss: string[] }).__xss)).toEqual([]);
  expect(dialogs).toEqual([]);
  expect(await page.locator('[data-xss]').count()).toBe(0);
  const text = await page.locator('body').innerText();
  for (const s of shown) expect(text, `shown literally: ${s}`).toContain(s);
}

// The CSP already blocks inline handlers; these checks would still catch markup that got parsed.
describe('stored XSS payloads render inert', () => {
  it('on the home page (premium carousel)', async () => {
    const { s, page, dialogs } = await visit(false);
    await page.goto('/');
    await page.getByText(PREMIUM_TITLE).first().waitFor();
    await expectInert(page, dialogs, [PREMIUM_TITLE]);
    s.expectNoConsoleErrors([/Content Security Policy/, /Failed to load resource/]);
    await s.close();
  });

  it('on the category page, with the description and tags', async () => {
    const { s, page, dialogs } = await visit(false);
    await page.goto('/categories/typography?q=XSSMARK');
    await page.getByText(TITLE).first().waitFor();
    await expectInert(page, dialogs, [TITLE, TAG]);
    s.expectNoConsoleErrors([/Content Security Policy/, /Failed to load resource/]);
    await s.close();
  });

  it('in the notification bell', async () => {
    const { s, page, dialogs } = await visit(false);
    await page.goto('/');
    await page.getByRole('button', { name: /^Notifications/ }).first().click();
    await page.getByRole('dialog', { name: 'Notifications' }).getByText(MESSAGE).waitFor();
    await expectInert(page, dialogs, [MESSAGE]);
    s.expectNoConsoleErrors([/Content Security Policy/, /Failed to load resource/]);
    await s.close();
  });

  it('on the admin resource list, edit form, announcements and admins pages', async () => {
    const { s, page, dialogs } = await visit(true);
    await page.goto('/admin/resources/typography?q=XSSMARK');
    await page.getByText(TITLE).first().waitFor();
    await expectInert(page, dialogs, [TITLE]);
    const id = (await api('GET', '/api/admin/resources?category=typography')).body.items.find((r: { title: string }) => r.title === TITLE).id;
    await page.goto(`/admin/resources/typography/${id}/edit`);
    await expect.poll(() => page.getByRole('textbox').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).toContain(TITLE);
    await expectInert(page, dialogs, []);
    await page.goto('/admin/announcements');
    await page.getByText(MESSAGE).first().waitFor();
    await expectInert(page, dialogs, [MESSAGE]);
    await page.goto('/admin/dashboard');
    await page.waitForLoadState('networkidle');
    await expectInert(page, dialogs, []);
    await page.goto('/admin/manage-admins');
    await page.getByText(ADMIN.username).first().waitFor();
    await expectInert(page, dialogs, []);
    s.expectNoConsoleErrors([/Content Security Policy/, /Failed to load resource/]);
    await s.close();
  });

  it('cannot get into an admin username: the API refuses markup there', async () => {
    for (const username of [P.img, P.svg, 'a<b>c', 'x"onload=1']) {
      const res = await api('POST', '/api/admin/admins', { username, password: 'xss-password-123' });
      expect(res.status, username).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
  });
});

describe('Content Security Policy in the browser', () => {
  it('blocks an inline script injected into the page', async () => {
    const { s, page } = await visit(false);
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/.test(m.text())) violations.push(m.text());
    });
    await page.goto('/');
    await page.evaluate(() => {
      const el = document.createElement('script');
      el.textContent = "window.__xss.push('inline')";
      document.body.append(el);
      const img = document.createElement('img');
      img.setAttribute('onerror', "window.__xss.push('handler')");
      img.src = '/no-such-image.png';
      document.body.append(img);
    });
    await pageSettled(page);
    expect(await page.evaluate(() => (window as unknown as { __xss: string[] }).__xss)).toEqual([]);
    expect(violations.length).toBeGreaterThan(0);
    await s.close();
  });
});
