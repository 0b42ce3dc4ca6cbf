import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { API } from '../src/contract/api-paths';
import { PUBLIC_CATEGORIES } from '../src/contract/categories';
import type { PublicResource, ResourceList } from '../src/contract/resources';
import { ADMIN, expectAccessible, nextFrame, openPage, type Session, signIn, useBrowserServer, waitLive } from './harness';

/** Several page loads on a shared 2-core machine. */
const SLOW_TEST_MS = 120_000;
const VIDEO = PUBLIC_CATEGORIES.find((c) => c.value === 'video_editing')!;

describe('resource pages', () => {
  const env = useBrowserServer();
  let adminCookie: string;

  beforeAll(async () => {
    const login = await env.server.app.inject({ method: 'POST', url: API.login, payload: ADMIN });
    expect(login.statusCode, login.body).toBe(200);
    const c = login.cookies.find((x) => x.name === 'rv_session')!;
    adminCookie = `${c.name}=${c.value}`;
  });

  const downloadCount = async (id: number) =>
    Number((await env.server.database.db.selectFrom('resources').select('download_count').where('id', '=', id).executeTakeFirstOrThrow()).download_count);
  const patch = async (id: number, body: object) => {
    const res = await env.server.app.inject({ method: 'PATCH', url: API.adminResource(id), payload: body, headers: { cookie: adminCookie } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<PublicResource>();
  };
  async function firstPage(): Promise<PublicResource[]> {
    const res = await fetch(`${env.server.url}${API.resources}?category=${VIDEO.value}&limit=24`);
    return ((await res.json()) as ResourceList).items;
  }
  const grid = (page: Page) => page.getByRole('list', { name: 'Resources', exact: true });
  async function openResource(s: Session, r: Pick<PublicResource, 'url' | 'title'>) {
    await s.page.goto(r.url);
    await s.page.getByRole('heading', { level: 1, name: r.title }).waitFor();
    await waitLive(s.page);
  }
  /** Answers every request to another host (download sites) here: no network in tests. */
  async function answerOtherHosts(s: Session) {
    const seen: string[] = [];
    await s.context.route(
      (url) => url.origin !== new URL(env.server.url).origin,
      async (route) => {
        seen.push(route.request().url());
        await route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Your download</title>' });
      },
    );
    return seen;
  }

  it('from a card to its page and Back: the grid is where it was left', { timeout: SLOW_TEST_MS }, async () => {
    const s = await openPage(env.browser, env.server.url);
    await s.page.goto(`/categories/${VIDEO.slug}`);
    await grid(s.page).locator(':scope > li').first().waitFor();
    await waitLive(s.page);
    const items = await firstPage();
    const target = items[10];
    const card = grid(s.page).locator(':scope > li').nth(10);
    await card.scrollIntoViewIfNeeded();
    const beforeWheel = await s.page.evaluate(() => window.scrollY);
    await s.page.mouse.wheel(0, 120);
    // The wheel scrolls smoothly, over several frames: read the position once it has moved and then
    // held still for two frames (read mid-scroll, it was 120 px short of where Back brought the page).
    const scrollY = () => s.page.evaluate(() => window.scrollY);
    const settled = async () => {
      const at = await scrollY();
      await nextFrame(s.page);
      return (await scrollY()) === at ? at : -1;
    };
    await expect.poll(settled).toBeGreaterThan(Math.max(beforeWheel, 500));
    const scrolled = await scrollY();

    await card.getByRole('heading', { name: target.title }).getByRole('link').click();
    await s.page.waitForURL(`**${target.url}`);
    await s.page.getByRole('heading', { level: 1, name: target.title }).waitFor();
    expect(await s.page.evaluate(() => window.scrollY)).toBe(0);
    expect(await s.page.title()).toBe(`${target.title} - Resource Vault`);

    await s.page.goBack();
    await s.page.waitForURL(`**/categories/${VIDEO.slug}`);
    await grid(s.page).locator(':scope > li').nth(10).waitFor();
    await expect.poll(scrollY).toBe(scrolled);
    s.expectNoConsoleErrors();
    await s.close();
  });

  it('the page shows the resource; Download from it counts once and shows the new count', { timeout: SLOW_TEST_MS }, async () => {
    const [r] = await firstPage();
    const s = await openPage(env.browser, env.server.url);
    const external = await answerOtherHosts(s);
    await openResource(s, r);
    const main = s.page.getByRole('main');
    await main.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: VIDEO.title }).waitFor();
    await main.getByRole('heading', { name: 'Licence' }).waitFor();
    await main.getByText('Free for personal and commercial use').waitFor();
    await main.getByRole('heading', { name: 'Related resources' }).waitFor();
    await expectAccessible(s.page);

    const before = await downloadCount(r.id);
    const popupOpened = s.context.waitForEvent('page');
    const responded = s.page.waitForResponse((res) => new URL(res.url()).pathname === API.download(r.id));
    await main.getByRole('button', { name: /^Download/ }).click();
    const popup = await popupOpened;
    const body = (await (await responded).json()) as { download_url: string; download_count: number };
    await popup.waitForURL(body.download_url);
    expect(body.download_count).toBe(before + 1);
    await expect.poll(() => main.getByTestId('download-count').innerText()).toBe(`${new Intl.NumberFormat('en-US').format(before + 1)} downloads`);
    expect(await downloadCount(r.id)).toBe(before + 1);
    expect(external).toEqual([body.download_url]);
    await popup.close();
    s.expectNoConsoleErrors();
    await s.close();
  });

  it('an attribution licence shows the credit line before the download, and the download counts once', { timeout: SLOW_TEST_MS }, async () => {
    const [, r] = await firstPage();
    const updated = await patch(r.id, { licence: { kind: 'attribution', credit: 'Film burns by Jane Doe (jane.example)' } });
    const s = await openPage(env.browser, env.server.url);
    await answerOtherHosts(s);
    await openResource(s, updated);
    await s.page.getByRole('main').getByText('Film burns by Jane Doe (jane.example)').waitFor();
    const before = await downloadCount(r.id);
    await s.page.getByRole('main').getByRole('button', { name: /^Download/ }).click();
    const dialog = s.page.getByRole('alertdialog', { name: 'Attribution required' });
    await dialog.getByTestId('credit-line').getByText('Film burns by Jane Doe (jane.example)').waitFor();
    expect(await downloadCount(r.id)).toBe(before);
    const popupOpened = s.context.waitForEvent('page');
    await dialog.getByRole('button', { name: 'Download' }).click();
    const popup = await popupOpened;
    await expect.poll(() => downloadCount(r.id)).toBe(before + 1);
    await popup.close();
    s.expectNoConsoleErrors();
    await s.close();
  });

  it('Share copies the canonical link', { timeout: SLOW_TEST_MS }, async () => {
    const r = (await firstPage())[7];
    const s = await openPage(env.browser, env.server.url);
    await s.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.url });
    await openResource(s, r);
    const canonical = await s.page.locator('link[rel="canonical"]').getAttribute('href');
    expect(canonical).toBe(`${env.server.url}${r.url}`);
    // The clipboard takes text only from a focused page (another test's tab may have had the focus).
    await s.page.bringToFront();
    await s.page.getByRole('main').getByRole('button', { name: 'Share' }).click();
    await s.page.getByText('Link copied').first().waitFor();
    expect(await s.page.evaluate(() => navigator.clipboard.readText())).toBe(canonical);
    s.expectNoConsoleErrors();
    await s.close();
  });

  it('Share on a phone opens the system share sheet with the canonical link; closing it copies nothing', { timeout: SLOW_TEST_MS }, async () => {
    const r = (await firstPage())[8];
    const s = await openPage(env.browser, env.server.url, { viewport: 'mobile' });
    // The system share sheet, stood in for: it records what it was given; the second time the visitor closes it.
    await s.context.addInitScript(() => {
      const shared: ShareData[] = [];
      Object.assign(window, { shared });
      Object.defineProperty(navigator, 'share', {
        configurable: true,
        value: async (data: ShareData) => {
          shared.push(data);
          if (shared.length > 1) throw new DOMException('Share canceled', 'AbortError');
        },
      });
    });
    await openResource(s, r);
    expect(await s.page.evaluate(() => matchMedia('(pointer: coarse)').matches)).toBe(true);
    const canonical = await s.page.locator('link[rel="canonical"]').getAttribute('href');
    const share = s.page.getByRole('main').getByRole('button', { name: 'Share' });
    const shared = () => s.page.evaluate(() => (window as unknown as { shared: ShareData[] }).shared);
    await share.click();
    await expect.poll(shared).toEqual([{ title: r.title, url: canonical }]);
    await share.click();
    await expect.poll(async () => (await shared()).length).toBe(2);
    // The sheet did the sharing (or was closed): no "Link copied" toast, no error.
    await s.page.evaluate(() => new Promise(requestAnimationFrame));
    expect(await s.page.getByText('Link copied').count()).toBe(0);
    expect(await s.page.getByText('Copy failed').count()).toBe(0);
    s.expectNoConsoleErrors();
    await s.close();
  });

  it('a tag leads to the category filtered by it', { timeout: SLOW_TEST_MS }, async () => {
    const r = (await firstPage()).find((x) => x.tags.some((t) => VIDEO.tags.includes(t)))!;
    const tag = r.tags.find((t) => VIDEO.tags.includes(t))!;
    const s = await openPage(env.browser, env.server.url);
    await openResource(s, r);
    await s.page.getByRole('main').getByRole('list', { name: 'Tags' }).getByRole('link', { name: tag, exact: true }).click();
    await s.page.waitForURL((u) => u.pathname === `/categories/${VIDEO.slug}` && u.searchParams.get('tags') === tag);
    const chip = s.page.getByRole('group', { name: 'Filter by tag' }).getByRole('button', { name: tag, exact: true });
    await expect.poll(() => chip.getAttribute('aria-pressed')).toBe('true');
    await grid(s.page).locator(':scope > li').first().waitFor();
    s.expectNoConsoleErrors();
    await s.close();
  });

  it('after a rename the old address answers 301 and the page opens at the new one', { timeout: SLOW_TEST_MS }, async () => {
    const r = (await firstPage())[3];
    const renamed = await patch(r.id, { title: `${r.title} Renamed` });
    expect(renamed.url).not.toBe(r.url);
    const s = await openPage(env.browser, env.server.url);
    const response = await s.page.goto(r.url);
    expect(response!.status()).toBe(200);
    expect((await response!.request().redirectedFrom()!.response())!.status()).toBe(301);
    expect(new URL(s.page.url()).pathname).toBe(renamed.url);
    await s.page.getByRole('heading', { level: 1, name: renamed.title }).waitFor();
    s.expectNoConsoleErrors();
    await s.close();
  });

  it('an unknown resource: the not-found page with status 404', { timeout: SLOW_TEST_MS }, async () => {
    const s = await openPage(env.browser, env.server.url);
    const response = await s.page.goto('/resources/987654-nothing-here');
    expect(response!.status()).toBe(404);
    await s.page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    expect(await s.page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
    s.expectNoConsoleErrors([/Failed to load resource/]);
    await s.close();
  });

  it('the admin chooses a licence in the resource form; the page shows it', { timeout: SLOW_TEST_MS }, async () => {
    const r = (await firstPage())[5];
    const s = await openPage(env.browser, env.server.url);
    await signIn(s.page);
    await s.page.goto(`/admin/resources/${r.category}/${r.id}/edit`);
    await s.page.getByLabel('Licence', { exact: true }).selectOption('custom');
    await s.page.getByLabel('Licence text').fill('Use in videos only; no resale.');
    await s.page.getByRole('button', { name: 'Save Changes' }).click();
    await s.page.getByText('Resource updated successfully').first().waitFor();
    const res = await fetch(`${env.server.url}${API.resource(r.id)}`);
    expect(((await res.json()) as PublicResource).licence).toEqual({ kind: 'custom', text: 'Use in videos only; no resale.' });
    await openResource(s, r);
    await s.page.getByRole('main').getByText('Custom licence').waitFor();
    await s.page.getByRole('main').getByText('Use in videos only; no resale.').waitFor();
    s.expectNoConsoleErrors();
    await s.close();
  });
});
