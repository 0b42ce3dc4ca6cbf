import type { BrowserContext, Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { API } from '../src/contract/api-paths';
import type { AdminProfile } from '../src/contract/auth';
import { ACCESS_DENIED_THROTTLE_MS, ANNOUNCEMENT_MAX, DASHBOARD_DAYS, STORAGE_ADMIN } from '../src/contract/constants';
import type { AdminResourceList, DownloadResponse, PublicResource, Resource } from '../src/contract/resources';
import { ACCESS_DENIED_JOKES } from '../src/client/features/admin/lib/jokes';
import {
  ADMIN,
  expectAccessible,
  installClock,
  openPage,
  screenshot,
  type Session,
  skipWait,
  typeKeysApart,
  useBrowserServer,
  signIn,
} from './harness';

const SITE = 'Resource Vault';
/** Chromium reports every non-2xx response on the console; allowed only where a test causes one on purpose. */
const FAILED_RESOURCE = /Failed to load resource/;

/**
 * A toast by its title. Found by CSS, not role: while a modal dialog is open everything outside
 * it (the toast viewport included) is aria-hidden, yet the toast is on screen.
 */
const toast = (page: Page, title: string) => page.locator('li[data-swipe-direction]').filter({ hasText: title });
/** The machine is shared: long flows and axe runs get room beyond the default minute. */
const SLOW = 150_000;
const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

type StoredSession = { cookies: Awaited<ReturnType<BrowserContext['cookies']>>; profile: string };

describe('admin area in a real browser', () => {
  const env = useBrowserServer();
  /** The super admin's session, signed in once through the real login page (sign-ins are rate limited per IP). */
  let superSession: StoredSession;

  beforeAll(async () => {
    const s = await openPage(env.browser, env.server.url);
    await signIn(s.page);
    superSession = await saveSession(s);
    await s.close();
  });

  async function saveSession(s: Session): Promise<StoredSession> {
    const profile = await s.page.evaluate((k) => localStorage.getItem(k), STORAGE_ADMIN);
    expect(profile).toBeTruthy();
    return { cookies: await s.context.cookies(), profile: profile! };
  }

  /** A fresh context carrying an existing session (cookie + stored profile), as after a sign-in. */
  async function openAs(session: StoredSession, opts: Parameters<typeof openPage>[2] = {}): Promise<Session> {
    const s = await openPage(env.browser, env.server.url, opts);
    await s.context.addCookies(session.cookies);
    await seedStorage(s, session.profile);
    return s;
  }

  /** Puts a value under the `admin` key before the app's first load in this context (and only then). */
  async function seedStorage(s: Session, value: string) {
    await s.context.addInitScript(
      ([key, v]) => {
        if (sessionStorage.getItem('e2e-seeded')) return;
        sessionStorage.setItem('e2e-seeded', '1');
        localStorage.setItem(key, v);
      },
      [STORAGE_ADMIN, value] as const,
    );
  }

  const cookieHeader = (session: StoredSession) => session.cookies.map((c) => `${c.name}=${c.value}`).join('; ');

  async function adminApi<T>(path: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
    const res = await fetch(env.server.url + path, {
      ...init,
      headers: { cookie: cookieHeader(superSession), ...(init.body ? { 'content-type': 'application/json' } : {}) },
    });
    return { status: res.status, body: (await res.json()) as T };
  }

  const publicResource = async (id: number) => {
    const res = await fetch(`${env.server.url}${API.resource(id)}`);
    return { status: res.status, body: (await res.json()) as PublicResource };
  };

  describe('login', () => {
    it('a failed sign-in shakes the card and shows one joking Access Denied! toast per throttle window', async () => {
      const s = await openPage(env.browser, env.server.url);
      const { page } = s;
      await page.goto('/admin/login');
      await expect.poll(() => page.title()).toBe(`Admin Login - ${SITE}`);
      await expect(page.getByRole('heading', { level: 1, name: 'Admin Access' }).isVisible()).resolves.toBe(true);
      // The decorative eyes are hidden from assistive technology, and their pupils follow the pointer.
      const eyes = page.getByTestId('watching-eyes');
      expect(await eyes.getAttribute('aria-hidden')).toBe('true');
      const pupil = eyes.locator('[data-pupil]').first();
      await page.mouse.move(5, 5);
      await expect.poll(() => pupil.evaluate((el) => el.style.transform)).toMatch(/translate\(-\d/);
      await page.mouse.move(1300, 880);
      await expect.poll(() => pupil.evaluate((el) => el.style.transform)).toMatch(/translate\(\d/);

      const card = page.getByTestId('login-card');
      const submit = page.getByRole('button', { name: /Enter the Matrix/ });
      const fail = async () => {
        const response = page.waitForResponse((r) => r.url().endsWith(API.login));
        await submit.click();
        expect((await response).status()).toBe(401);
      };
      const denied = toast(page, 'Access Denied!');
      const jokeOf = async (t: typeof denied) => (await t.textContent())!.replace('Access Denied!', '');
      // The page's clock stands still (timers still run), so "within 2 s" does not depend on how busy the machine is.
      const start = Date.parse('2026-06-01T12:00:00Z');
      await page.clock.setFixedTime(start);

      await page.getByLabel('Username').fill(ADMIN.username);
      await page.getByLabel('Password').fill('not-the-password');
      await fail();
      await expect.poll(() => card.getAttribute('class')).toContain('animate-shake');
      await denied.waitFor();
      const firstJoke = await jokeOf(denied);
      expect(ACCESS_DENIED_JOKES.some((j) => firstJoke.includes(j))).toBe(true);
      await expect.poll(() => card.getAttribute('class')).not.toContain('animate-shake');

      // A second failure inside the window: the card shakes again, but no new toast appears.
      const first = await denied.elementHandle();
      await page.clock.setFixedTime(start + ACCESS_DENIED_THROTTLE_MS - 1);
      await fail();
      await expect.poll(() => card.getAttribute('class')).toContain('animate-shake');
      expect(await first!.evaluate((el) => el.isConnected)).toBe(true);
      expect(await denied.count()).toBe(1);
      expect(await jokeOf(denied)).toBe(firstJoke);

      // Once the window has passed a new toast replaces it, with another joke.
      await page.clock.setFixedTime(start + ACCESS_DENIED_THROTTLE_MS);
      await fail();
      await expect.poll(() => first!.evaluate((el) => el.isConnected)).toBe(false);
      const secondJoke = await jokeOf(denied);
      expect(secondJoke).not.toBe(firstJoke);
      expect(ACCESS_DENIED_JOKES.some((j) => secondJoke.includes(j))).toBe(true);
      expect(page.url()).toMatch(/\/admin\/login$/);
      s.expectNoConsoleErrors([FAILED_RESOURCE]);
      await s.close();
    });

    it('when sign-ins are rate limited, the Access Denied! toast also says when to try again', async () => {
      const s = await openPage(env.browser, env.server.url);
      const { page } = s;
      // Network fault injection: the server's own 429 would lock this IP out for the rest of the file.
      await page.route(`**${API.login}`, (route) =>
        route.fulfill({
          status: 429,
          headers: { 'retry-after': '120', 'content-type': 'application/json' },
          body: JSON.stringify({ error: { code: 'RATE_LIMITED', message: 'Too many sign-in attempts. Try again in 2 minutes.' } }),
        }),
      );
      await page.goto('/admin/login');
      await page.getByLabel('Username').fill(ADMIN.username);
      await page.getByLabel('Password').fill(ADMIN.password);
      await page.getByRole('button', { name: /Enter the Matrix/ }).click();
      const denied = toast(page, 'Access Denied!');
      await denied.waitFor();
      expect(await denied.textContent()).toContain('try again in 2 minutes');
      expect(page.url()).toMatch(/\/admin\/login$/);
      s.expectNoConsoleErrors([FAILED_RESOURCE]);
      await s.close();
    });

    it('signs in through the login page and lands on the dashboard; signed in, /admin and the login page lead there', async () => {
      const s = await openPage(env.browser, env.server.url);
      const { page } = s;
      await page.goto('/admin/login');
      await page.getByLabel('Username').fill(ADMIN.username);
      await page.getByLabel('Password').fill(ADMIN.password);
      const submit = page.getByRole('button', { name: /Enter the Matrix/ });
      await submit.click();
      await page.waitForURL('**/admin/dashboard');
      await page.getByRole('heading', { level: 1, name: `Welcome, ${ADMIN.username}!` }).waitFor();
      expect(await toast(page, 'Login successful').textContent()).toContain(`Welcome back, ${ADMIN.username}!`);
      await expect.poll(() => page.title()).toBe(`Dashboard - ${SITE}`);
      // Only the public profile is kept in the env.browser.
      const stored = JSON.parse((await page.evaluate((k) => localStorage.getItem(k), STORAGE_ADMIN))!) as AdminProfile;
      expect(Object.keys(stored).sort()).toEqual(['created_at', 'id', 'is_super_user', 'username']);
      expect(stored).toMatchObject({ username: ADMIN.username, is_super_user: true });

      await page.goto('/admin/login');
      await page.waitForURL('**/admin/dashboard');
      await page.goto('/admin');
      await page.waitForURL('**/admin/dashboard');
      s.expectNoConsoleErrors();
      await s.close();
    });
  });

  describe('guard and session', () => {
    const ADMIN_URLS = [
      '/admin',
      '/admin/dashboard',
      '/admin/resources/video_editing',
      '/admin/resources/video_editing/new',
      '/admin/resources/video_editing/1/edit',
      '/admin/announcements',
      '/admin/manage-admins',
    ];

    it('a direct visit to any admin URL while signed out lands on the login page, replacing history', async () => {
      const s = await openPage(env.browser, env.server.url);
      const { page } = s;
      for (const url of ADMIN_URLS) {
        await page.goto(url);
        await page.waitForURL('**/admin/login');
        await page.getByRole('heading', { name: 'Admin Access' }).waitFor();
      }
      // Replaced, not pushed: Back does not return to the guarded page.
      const before = await page.evaluate(() => history.length);
      await page.goto('/admin/announcements');
      await page.waitForURL('**/admin/login');
      expect(await page.evaluate(() => history.length)).toBe(before + 1);
      s.expectNoConsoleErrors();
      await s.close();
    });

    it('a stored profile whose session is gone is confirmed with the server, cleared, and sent to login', async () => {
      const s = await openPage(env.browser, env.server.url);
      const { page } = s;
      await seedStorage(s, superSession.profile);
      // The page's own data loads while /me confirms the profile (instant UI); whichever 401 comes
      // first signs out and may abort the other, so the test waits for the /me request, not its answer.
      const me = page.waitForRequest((r) => r.url().endsWith(API.me));
      await page.goto('/admin/dashboard');
      await me;
      await page.waitForURL('**/admin/login');
      await expect.poll(() => page.evaluate((k) => localStorage.getItem(k), STORAGE_ADMIN)).toBeNull();
      s.expectNoConsoleErrors([FAILED_RESOURCE]);
      await s.close();
    });

    it('a corrupt stored profile is removed with a console error', async () => {
      const s = await openPage(env.browser, env.server.url);
      const { page } = s;
      await seedStorage(s, '{"id":1,"username":');
      await page.goto('/admin/dashboard');
      await page.waitForURL('**/admin/login');
      expect(await page.evaluate((k) => localStorage.getItem(k), STORAGE_ADMIN)).toBeNull();
      expect(s.errors.some((e) => /corrupt/i.test(e))).toBe(true);
      s.expectNoConsoleErrors([/corrupt/i]);
      await s.close();
    });

    it('a session that expires while working sends the admin to login', async () => {
      const s = await openAs(superSession);
      const { page } = s;
      await page.goto('/admin/dashboard');
      await page.getByRole('heading', { name: `Welcome, ${ADMIN.username}!` }).waitFor();
      await s.context.clearCookies();
      await page.getByRole('link', { name: /Manage Announcements/ }).click();
      await page.waitForURL('**/admin/login');
      await page.getByRole('heading', { name: 'Admin Access' }).waitFor();
      expect(await page.evaluate((k) => localStorage.getItem(k), STORAGE_ADMIN)).toBeNull();
      s.expectNoConsoleErrors([FAILED_RESOURCE]);
      await s.close();
    });

    it('logout ends the session and returns to the login page', async () => {
      const s = await openPage(env.browser, env.server.url);
      const { page } = s;
      await signIn(page);
      await page.getByRole('button', { name: 'Logout' }).click();
      await page.waitForURL('**/admin/login');
      expect(await toast(page, 'Logged out').textContent()).toContain('You have been successfully logged out');
      expect(await page.evaluate((k) => localStorage.getItem(k), STORAGE_ADMIN)).toBeNull();
      const me = await page.evaluate(async (p) => (await fetch(p)).status, API.me);
      expect(me).toBe(401);
      await page.goto('/admin/dashboard');
      await page.waitForURL('**/admin/login');
      s.expectNoConsoleErrors([FAILED_RESOURCE]);
      await s.close();
    });
  });

  describe('dashboard', () => {
    it('shows the figures, the links, every category with its count, the top 5 and the downloads chart', async () => {
      const { body: stats } = await adminApi<{
        total_resources: number;
        categories: { category: string; count: number }[];
        top_resources: { id: number; title: string; download_count: number }[];
      }>(API.dashboard);
      const s = await openAs(superSession);
      const { page } = s;
      await page.goto('/admin/dashboard');
      await page.getByRole('heading', { name: `Welcome, ${ADMIN.username}!` }).waitFor();
      await page.getByText('Manage your resources and announcements').waitFor();
      const statistics = page.getByRole('region', { name: 'Statistics' });
      for (const label of ['Total Resources', 'Active Announcements', 'Total Downloads', 'Total Admins']) {
        await statistics.getByText(label, { exact: true }).waitFor();
      }
      await statistics.getByText(stats.total_resources.toLocaleString('en-US'), { exact: true }).waitFor();
      expect(await page.getByRole('link', { name: /Manage Announcements/ }).getAttribute('href')).toBe('/admin/announcements');
      expect(await page.getByRole('link', { name: /Manage Admins/ }).getAttribute('href')).toBe('/admin/manage-admins');
      const video = page.locator('a[href="/admin/resources/video_editing"]');
      expect(await video.textContent()).toContain('Professional video editing assets');
      const count = stats.categories.find((c) => c.category === 'video_editing')!.count;
      expect(await video.textContent()).toContain(`${count}`);
      expect(await page.locator('a[href^="/admin/resources/"]:not([href$="/edit"])').count()).toBe(8);
      const top = page.getByRole('region', { name: /Top Resources/ }).getByRole('listitem');
      expect(await top.count()).toBe(5);
      const best = stats.top_resources[0];
      expect(await top.first().textContent()).toContain(`Downloads: ${best.download_count.toLocaleString('en-US')}`);
      expect(await top.first().textContent()).toContain(`ID: ${best.id}`);
      const chart = page.getByRole('img', { name: /downloads? in the last 30 days/ });
      await chart.waitFor();
      // One row per day in the chart's data table.
      expect(await page.locator('figure[data-chart="downloads-per-day"] tbody tr').count()).toBe(DASHBOARD_DAYS);
      s.expectNoConsoleErrors();
      await s.close();
    });
  });

  describe('resources', () => {
    it('creates a resource that appears on its public page, edits it without touching its downloads, and deletes it', async () => {
      const s = await openAs(superSession);
      const { page } = s;
      const posts: Request[] = [];
      page.on('request', (r) => {
        if (r.method() !== 'GET' && r.url().includes(API.adminResources)) posts.push(r);
      });

      await page.goto('/admin/resources/video_editing');
      await page.getByRole('heading', { level: 1, name: 'Video Editing' }).waitFor();
      await expect.poll(() => page.title()).toBe(`Video Editing Resources - ${SITE}`);
      await page.getByRole('link', { name: 'Add New Resource' }).click();
      await page.waitForURL('**/admin/resources/video_editing/new');

      // Nothing is sent while a required field is empty.
      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      await toast(page, 'Please fill in all required fields').waitFor();
      await page.getByText('Title is required').waitFor();
      expect(posts).toHaveLength(0);

      const title = unique('E2E Glitch Pack');
      await page.getByLabel('Title').fill(title);
      await page.getByLabel('Description').fill('Twelve crunchy glitch transitions, made by the browser test.');
      // Uploads are the default; this resource links to files elsewhere (e2e/uploads.test.ts uploads).
      await page.getByRole('group', { name: 'Thumbnail' }).getByRole('radio', { name: 'Link' }).check();
      await page.getByLabel('Thumbnail URL').fill('/thumbnails/1.svg');
      await page.getByRole('group', { name: 'Download' }).getByRole('radio', { name: 'Link' }).check();
      await page.getByLabel('Download URL').fill('https://downloads.example.com/e2e-glitch.zip');
      await page.getByRole('group', { name: 'Suggested tags' }).getByRole('button', { name: 'Transitions' }).click();
      await page.locator('#resource-tags').fill('Glitchcore');
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Remove tag Glitchcore' }).waitFor();
      expect(await page.getByRole('switch', { name: 'Premium resource' }).getAttribute('aria-checked')).toBe('false');

      // The server's own field message lands under its field: the request is altered on the wire.
      const isCreate = (url: URL) => url.pathname === API.adminResources;
      await page.route(isCreate, async (route) => {
        const body = route.request().postDataJSON() as Record<string, unknown>;
        await route.continue({ postData: JSON.stringify({ ...body, download_url: 'javascript:alert(1)' }) });
      });
      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      const failed = toast(page, 'Failed to save resource');
      await failed.waitFor();
      expect(await failed.textContent()).toContain('Download URL must be an http(s) URL');
      await page.locator('#resource-download_url-error').getByText('Download URL must be an http(s) URL').waitFor();
      expect(await page.getByLabel('Download URL').getAttribute('aria-invalid')).toBe('true');
      await page.unroute(isCreate);

      const created = page.waitForResponse((r) => r.url().endsWith(API.adminResources) && r.request().method() === 'POST');
      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      const resource = (await (await created).json()) as Resource;
      expect(resource).toMatchObject({ title, category: 'video_editing', tags: ['Transitions', 'Glitchcore'], is_premium: false });
      await toast(page, 'Resource created successfully').waitFor();
      await page.waitForURL('**/admin/resources/video_editing');
      const row = page.getByRole('row').filter({ hasText: title });
      await row.waitFor();
      expect(await row.getByRole('link', { name: /downloads\.example\.com/ }).getAttribute('href')).toBe(
        'https://downloads.example.com/e2e-glitch.zip',
      );
      expect(await row.textContent()).toContain(new Date(resource.created_at).toLocaleDateString('en-US'));

      // Visible on the public category page.
      const visitor = await openPage(env.browser, env.server.url);
      await visitor.page.goto(`/categories/video-editing?q=${encodeURIComponent(title)}`);
      await visitor.page.getByRole('heading', { name: title, exact: true }).waitFor();

      // A visitor downloads it once; editing must keep that count.
      // With a browser's User-Agent: Node's fetch says "node", which counts as a bot.
      const dl = await fetch(`${env.server.url}${API.download(resource.id)}`, {
        method: 'POST',
        headers: { 'user-agent': await visitor.page.evaluate(() => navigator.userAgent) },
      });
      expect(((await dl.json()) as DownloadResponse).download_count).toBe(1);

      await row.getByRole('link', { name: `Edit ${title}` }).click();
      await page.waitForURL(`**/admin/resources/video_editing/${resource.id}/edit`);
      await expect.poll(() => page.title()).toBe(`Edit Resource - ${SITE}`);
      const titleField = page.getByLabel('Title');
      await expect.poll(() => titleField.inputValue()).toBe(title);
      const edited = `${title} v2`;
      await titleField.fill(edited);
      const patch = page.waitForRequest((r) => r.method() === 'PATCH' && r.url().endsWith(API.adminResource(resource.id)));
      await page.getByRole('button', { name: 'Save Changes' }).click();
      expect(Object.keys((await patch).postDataJSON() as object)).not.toContain('download_count');
      await toast(page, 'Resource updated successfully').waitFor();
      await page.waitForURL('**/admin/resources/video_editing');
      await page.getByRole('row').filter({ hasText: edited }).waitFor();
      const after = await publicResource(resource.id);
      expect(after.body).toMatchObject({ title: edited, download_count: 1, tags: ['Transitions', 'Glitchcore'] });
      await visitor.page.goto(`/categories/video-editing?q=${encodeURIComponent(edited)}`);
      await visitor.page.getByRole('heading', { name: edited, exact: true }).waitFor();

      // Delete, through a real confirmation dialog.
      await page.getByRole('button', { name: `Delete ${edited}` }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Are you sure you want to delete this resource?' });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect((await publicResource(resource.id)).status).toBe(200);
      await page.getByRole('button', { name: `Delete ${edited}` }).click();
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await toast(page, 'Resource deleted successfully').waitFor();
      await page.getByRole('row').filter({ hasText: edited }).waitFor({ state: 'detached' });
      expect((await publicResource(resource.id)).status).toBe(404);
      await visitor.page.goto(`/categories/video-editing?q=${encodeURIComponent(edited)}`);
      await visitor.page.getByRole('heading', { name: 'No resources found' }).waitFor();

      s.expectNoConsoleErrors([FAILED_RESOURCE]);
      visitor.expectNoConsoleErrors();
      await visitor.close();
      await s.close();
    }, SLOW);

    it('premium is on by default in Premium Resources; an unknown category or id says so', async () => {
      const s = await openAs(superSession);
      const { page } = s;
      await page.goto('/admin/resources/premium_resources/new');
      await page.getByRole('heading', { name: 'Add New Resource' }).waitFor();
      expect(await page.getByRole('switch', { name: 'Premium resource' }).getAttribute('aria-checked')).toBe('true');

      await page.goto('/admin/resources/not_a_category');
      await page.getByRole('heading', { name: 'Unknown category' }).waitFor();
      await page.goto('/admin/resources/typography/999999/edit');
      await page.getByRole('heading', { name: 'Failed to load resource' }).waitFor();
      await toast(page, 'Failed to load resource').waitFor();
      s.expectNoConsoleErrors();
      await s.close();
    });

    it('pages through the server: 25 rows a page, Next/Previous and Back; the cursor is in the URL', async () => {
      const s = await openAs(superSession);
      const { page } = s;
      const lists: URL[] = [];
      page.on('request', (r) => {
        const url = new URL(r.url());
        if (r.method() === 'GET' && url.pathname === API.adminResources) lists.push(url);
      });
      const { body: first } = await adminApi<AdminResourceList>(`${API.adminResources}?category=video_editing&limit=25`);
      const { body: second } = await adminApi<AdminResourceList>(`${API.adminResources}?category=video_editing&limit=25&cursor=${first.nextCursor}`);
      expect(first.total).toBeGreaterThan(50);
      const pages = Math.ceil(first.total / 25);
      const bodyRows = page.locator('tbody tr');
      // The title cell comes after the row's selection box.
      const titles = () => bodyRows.locator('td:nth-child(2) .font-medium').allTextContents();

      await page.goto('/admin/resources/video_editing');
      await page.getByText(`Showing 1–25 of ${first.total}`).waitFor();
      await page.getByText(`Page 1 of ${pages}`).waitFor();
      await page.getByText(`${first.total} resources`).waitFor();
      expect(await titles()).toEqual(first.items.map((r) => r.title));
      expect(await page.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);
      // One page per request, never the whole category.
      expect(lists.every((u) => u.searchParams.get('limit') === '25')).toBe(true);

      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByText(`Page 2 of ${pages}`).waitFor();
      await page.getByText(`Showing 26–50 of ${first.total}`).waitFor();
      expect(await titles()).toEqual(second.items.map((r) => r.title));
      expect(new URL(page.url()).searchParams.get('cursor')).toBe(first.nextCursor);
      expect(lists.at(-1)!.searchParams.get('cursor')).toBe(first.nextCursor);

      await page.getByRole('button', { name: 'Previous' }).click();
      await page.getByText(`Page 1 of ${pages}`).waitFor();
      expect(await titles()).toEqual(first.items.map((r) => r.title));
      await page.goBack();
      await page.getByText(`Page 2 of ${pages}`).waitFor();
      await page.goBack();
      await page.getByText(`Page 1 of ${pages}`).waitFor();

      // A link with a cursor the server refuses starts again from the first page, without an error.
      await page.goto('/admin/resources/video_editing?cursor=not-a-cursor');
      await page.getByText(`Page 1 of ${pages}`).waitFor();
      await expect.poll(() => new URL(page.url()).searchParams.get('cursor')).toBeNull();
      expect(await toast(page, 'Failed to fetch resources').count()).toBe(0);
      s.expectNoConsoleErrors([FAILED_RESOURCE]);
      await s.close();
    }, SLOW);

    it('searches through the server, debounced: one request after typing stops, q in the URL, totals and empty state', async () => {
      const s = await openAs(superSession);
      await installClock(s);
      const { page } = s;
      const searches: string[] = [];
      page.on('request', (r) => {
        const url = new URL(r.url());
        if (url.pathname === API.adminResources && url.searchParams.has('q')) searches.push(url.searchParams.get('q')!);
      });
      const word = 'cinematic';
      const { body: want } = await adminApi<AdminResourceList>(`${API.adminResources}?category=video_editing&q=${word}`);
      expect(want.total).toBeGreaterThan(0);

      await page.goto('/admin/resources/video_editing');
      const box = page.getByRole('searchbox', { name: 'Search Video Editing' });
      await page.getByText(/^Showing 1–25 of/).waitFor();
      // Typed key by key, 200 ms apart on the page's clock (under the 300 ms debounce), then the clock runs on.
      await typeKeysApart(page, box, word.toUpperCase(), 200);
      expect(searches).toEqual([]);
      await page.clock.runFor(200);
      await page.clock.resume();
      const shown = Math.min(25, want.total);
      await page.getByText(`Showing 1–${shown} of ${want.total}`).waitFor();
      expect(searches).toEqual([word.toUpperCase()]);
      expect(new URL(page.url()).searchParams.get('q')).toBe(word.toUpperCase());
      const titles = await page.locator('tbody tr td:nth-child(2) .font-medium').allTextContents();
      expect(titles).toEqual(want.items.map((r) => r.title));
      // The header still counts the whole category.
      const { body: all } = await adminApi<AdminResourceList>(`${API.adminResources}?category=video_editing`);
      await page.getByText(`${all.total} resources`).waitFor();

      await box.fill('zzzz-no-such-resource');
      await page.getByText('No resources match “zzzz-no-such-resource”.').waitFor();
      await page.getByText('No match', { exact: true }).waitFor();
      // A reload keeps the search, box included.
      await page.reload();
      await page.getByText('No match', { exact: true }).waitFor();
      expect(await box.inputValue()).toBe('zzzz-no-such-resource');
      await box.fill('');
      await page.getByText(/^Showing 1–25 of/).waitFor();
      await expect.poll(() => new URL(page.url()).searchParams.has('q')).toBe(false);
      s.expectNoConsoleErrors();
      await s.close();
    }, SLOW);

    it('a failed load shows Failed to fetch resources, and Try Again recovers', async () => {
      const s = await openAs(superSession);
      await installClock(s);
      const { page } = s;
      const isList = (url: URL) => url.pathname === API.adminResources;
      let calls = 0;
      await page.route(isList, (route) => {
        calls++;
        return route.fulfill({ status: 500, body: '' });
      });
      await page.goto('/admin/resources/sound_effects');
      // Reads retry (1 s, 2 s, 4 s) before giving up: each wait skipped on the page's clock.
      await expect.poll(() => calls).toBeGreaterThan(0);
      for (const [i, wait] of [1000, 2000, 4000].entries()) await skipWait(page, wait, () => calls > i + 1);
      await toast(page, 'Failed to fetch resources').waitFor();
      expect(calls).toBe(4);
      const alert = page.getByRole('alert').filter({ hasText: 'Failed to fetch resources' });
      await alert.waitFor();
      await page.unroute(isList);
      await alert.getByRole('button', { name: 'Try Again' }).click();
      await page.getByRole('row').nth(1).getByRole('button', { name: /^Delete / }).waitFor();
      s.expectNoConsoleErrors([FAILED_RESOURCE]);
      await s.close();
    }, SLOW);
  });

  describe('announcements', () => {
    it('an announcement added here shows in the public bell, leaves it when switched off, and can be deleted', async () => {
      const s = await openAs(superSession);
      const { page } = s;
      await page.goto('/admin/announcements');
      await page.getByRole('heading', { level: 1, name: 'Announcements' }).waitFor();
      await expect.poll(() => page.title()).toBe(`Announcements - ${SITE}`);
      const box = page.getByLabel('New announcement');
      const add = page.getByRole('button', { name: 'Add Announcement' });
      await box.fill('   ');
      expect(await add.isDisabled()).toBe(true);
      await box.fill('x'.repeat(ANNOUNCEMENT_MAX + 1));
      expect(await add.isDisabled()).toBe(true);
      await page.getByText(`${ANNOUNCEMENT_MAX + 1}/${ANNOUNCEMENT_MAX}`).waitFor();

      const message = unique('Fresh LUT drop from the e2e test');
      await box.fill(`  ${message}  `);
      await page.getByText(`${message.length + 4}/${ANNOUNCEMENT_MAX}`).waitFor();
      await add.click();
      await toast(page, 'Announcement added successfully').waitFor();
      expect(await box.inputValue()).toBe('');
      const item = page.getByRole('listitem').filter({ hasText: message });
      await item.waitFor();
      const active = item.getByRole('switch');
      expect(await active.getAttribute('aria-checked')).toBe('true');

      const bellShows = async (visible: boolean) => {
        const v = await openPage(env.browser, env.server.url);
        // The page arrives with the active announcements in its data (server-rendered); wait for the live app.
        await v.page.goto('/');
        await v.page.locator('#root[data-live]').waitFor({ state: 'attached' });
        await v.page.getByRole('button', { name: /^Notifications/ }).click();
        const panel = v.page.getByRole('dialog', { name: 'Notifications' });
        // The demo data keeps other announcements active, so the list is never empty here.
        await panel.getByRole('listitem').first().waitFor();
        expect(await panel.getByText(message).count()).toBe(visible ? 1 : 0);
        v.expectNoConsoleErrors();
        await v.close();
      };
      await bellShows(true);

      const toggled = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().includes(API.adminAnnouncements));
      await active.click();
      expect((await toggled).status()).toBe(200);
      await expect.poll(() => active.getAttribute('aria-checked')).toBe('false');
      await item.getByText('Inactive').waitFor();
      await bellShows(false);

      await item.getByRole('button', { name: /^Delete announcement/ }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Are you sure you want to delete this announcement?' });
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await toast(page, 'Announcement deleted successfully').waitFor();
      await item.waitFor({ state: 'detached' });
      s.expectNoConsoleErrors();
      await s.close();
    }, SLOW);
  });

  describe('manage admins', () => {
    it('a super user creates a plain admin, who signs in and is refused Manage Admins; then deletes them', async () => {
      const s = await openAs(superSession);
      const { page } = s;
      await page.goto('/admin/manage-admins');
      await page.getByRole('heading', { level: 1, name: 'Manage Admins' }).waitFor();
      await expect.poll(() => page.title()).toBe(`Manage Admins - ${SITE}`);
      const selfRow = page.getByRole('row').filter({ hasText: ADMIN.username });
      await selfRow.getByText('Super Admin').waitFor();
      expect(await page.getByRole('button', { name: `Delete admin ${ADMIN.username}` }).count()).toBe(0);

      const username = `editor_${Date.now().toString(36)}`;
      const password = 'plain-admin-password';
      await page.getByRole('button', { name: 'Add Admin' }).click();
      let dialog = page.getByRole('dialog', { name: 'Add New Admin' });
      await dialog.getByLabel('Username').fill(username);
      await dialog.getByLabel(/^Password/).fill(password);
      expect(await dialog.getByRole('switch', { name: 'Super admin' }).getAttribute('aria-checked')).toBe('false');
      // Off by default, so the spec's flow is unchanged (decision 417).
      expect(await dialog.getByRole('checkbox', { name: 'Must change the password at the next sign-in' }).isChecked()).toBe(false);
      await dialog.getByRole('button', { name: 'Create Admin' }).click();
      await toast(page, 'Admin created successfully').waitFor();
      await dialog.waitFor({ state: 'hidden' });
      const row = page.getByRole('row').filter({ hasText: username });
      await row.getByText('Admin', { exact: true }).waitFor();

      // The fields were reset; a duplicate username is refused with the server's message.
      await page.getByRole('button', { name: 'Add Admin' }).click();
      dialog = page.getByRole('dialog', { name: 'Add New Admin' });
      expect(await dialog.getByLabel('Username').inputValue()).toBe('');
      expect(await dialog.getByLabel(/^Password/).inputValue()).toBe('');
      await dialog.getByLabel('Username').fill(username);
      await dialog.getByLabel(/^Password/).fill('another-password');
      await dialog.getByRole('button', { name: 'Create Admin' }).click();
      const failed = toast(page, 'Failed to create admin');
      await failed.waitFor();
      expect(await failed.textContent()).toContain('An admin with this username already exists');
      await dialog.getByText('An admin with this username already exists').waitFor();
      // (Escape would close the toast first: it is the newest layer.)
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'hidden' });

      // The new admin signs in elsewhere: no admin figures, no Manage Admins.
      const plain = await openPage(env.browser, env.server.url);
      await signIn(plain.page, username, password);
      await plain.page.getByRole('heading', { name: `Welcome, ${username}!` }).waitFor();
      await plain.page.getByText('Total Resources', { exact: true }).waitFor();
      expect(await plain.page.getByText('Total Admins').count()).toBe(0);
      expect(await plain.page.getByRole('link', { name: /Manage Admins/ }).count()).toBe(0);
      await plain.page.goto('/admin/manage-admins');
      await plain.page.getByRole('heading', { name: 'Access Denied' }).waitFor();
      await plain.page.getByText("You don't have permission to access this page.").waitFor();
      await screenshot(plain.page, 'admin-access-denied-light');
      await expectAccessible(plain.page);
      await plain.page.getByRole('link', { name: 'Back to Dashboard' }).click();
      await plain.page.waitForURL('**/admin/dashboard');
      plain.expectNoConsoleErrors();
      await plain.close();

      await row.getByRole('button', { name: `Delete admin ${username}` }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Are you sure you want to delete this admin?' });
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await toast(page, 'Admin deleted successfully').waitFor();
      await row.waitFor({ state: 'detached' });
      s.expectNoConsoleErrors([FAILED_RESOURCE]);
      await s.close();
    }, SLOW);
  });

  describe('every admin page: accessible and on camera, light and dark', () => {
    /** Fade-ins finished: axe would otherwise measure half-transparent colours. */
    async function animationsDone(page: Page) {
      await page.evaluate(() =>
        Promise.allSettled(
          document
            .getAnimations()
            .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
            .map((a) => a.finished),
        ),
      );
    }

    /** Waits for the page's h1 and for its data (no skeleton left). */
    async function ready(page: Page, heading: string | RegExp) {
      await page.getByRole('heading', { level: 1, name: heading }).first().waitFor();
      await page.locator('[data-slot="skeleton"]').first().waitFor({ state: 'detached' });
    }

    async function firstColorGradingResource(): Promise<Resource> {
      const { body } = await adminApi<{ items: Resource[] }>(`${API.adminResources}?category=color_grading`);
      return body.items[0];
    }

    const PAGES: { name: string; open(page: Page): Promise<void> }[] = [
      {
        name: 'dashboard',
        open: async (page) => {
          await page.goto('/admin/dashboard');
          await ready(page, `Welcome, ${ADMIN.username}!`);
        },
      },
      {
        name: 'resource-list',
        open: async (page) => {
          await page.goto('/admin/resources/color_grading');
          await ready(page, 'Color Grading');
        },
      },
      {
        name: 'resource-delete-dialog',
        open: async (page) => {
          const first = await firstColorGradingResource();
          await page.goto('/admin/resources/color_grading');
          await ready(page, 'Color Grading');
          await page.getByRole('button', { name: `Delete ${first.title}` }).first().click();
          await page.getByRole('alertdialog').waitFor();
        },
      },
      {
        name: 'resource-new-errors',
        open: async (page) => {
          await page.goto('/admin/resources/color_grading/new');
          await ready(page, 'Add New Resource');
          await page.getByRole('button', { name: 'Publish', exact: true }).click();
          await page.getByText('Title is required').waitFor();
        },
      },
      {
        name: 'resource-edit',
        open: async (page) => {
          const first = await firstColorGradingResource();
          await page.goto(`/admin/resources/color_grading/${first.id}/edit`);
          await ready(page, 'Edit Resource');
        },
      },
      {
        name: 'announcements',
        open: async (page) => {
          await page.goto('/admin/announcements');
          await ready(page, 'Announcements');
        },
      },
      {
        name: 'manage-admins',
        open: async (page) => {
          await page.goto('/admin/manage-admins');
          await ready(page, 'Manage Admins');
        },
      },
      {
        name: 'add-admin-dialog',
        open: async (page) => {
          await page.goto('/admin/manage-admins');
          await ready(page, 'Manage Admins');
          await page.getByRole('button', { name: 'Add Admin' }).click();
          await page.getByRole('dialog', { name: 'Add New Admin' }).waitFor();
        },
      },
    ];

    for (const scheme of ['light', 'dark'] as const) {
      it(`${scheme}: login`, async () => {
        const s = await openPage(env.browser, env.server.url, { colorScheme: scheme });
        await s.page.goto('/admin/login');
        await s.page.getByRole('heading', { name: 'Admin Access' }).waitFor();
        await expectAccessible(s.page);
        await screenshot(s.page, `admin-login-${scheme}`);
        s.expectNoConsoleErrors();
        await s.close();
      }, SLOW);

      for (const { name, open } of PAGES) {
        it(`${scheme}: ${name}`, async () => {
          const s = await openAs(superSession, { colorScheme: scheme });
          await open(s.page);
          await animationsDone(s.page);
          expect(await s.page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(scheme === 'dark');
          await expectAccessible(s.page);
          await screenshot(s.page, `admin-${name}-${scheme}`);
          s.expectNoConsoleErrors();
          await s.close();
        }, SLOW);
      }
    }

    it('mobile: dashboard, list and form fit a phone', async () => {
      const s = await openAs(superSession, { viewport: 'mobile', colorScheme: 'dark' });
      const { page } = s;
      for (const [url, name] of [
        ['/admin/dashboard', 'dashboard'],
        ['/admin/resources/typography', 'resource-list'],
        ['/admin/resources/typography/new', 'resource-new'],
      ] as const) {
        await page.goto(url);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.locator('[data-slot="skeleton"]').first().waitFor({ state: 'detached' });
        // Nothing pushes the page sideways (wide tables scroll inside their card).
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        await expectAccessible(page);
        await screenshot(page, `admin-${name}-mobile-dark`);
      }
      s.expectNoConsoleErrors();
      await s.close();
    }, SLOW);
  });
});
