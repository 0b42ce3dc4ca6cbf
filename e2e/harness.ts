import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { API } from '../src/contract/api-paths';
import type { AdminSettings } from '../src/contract/settings';
import { buildApp } from '../src/server/app';
import { type Config } from '../src/server/config';
import { testConfig } from '../src/server/testing/test-config';
import type { App } from '../src/server/context';
import type { Database } from '../src/server/db/connection';
import { prepareDatabase } from '../src/server/setup';
import { HEADLESS_SHELL_PATH, launchChromium } from './chromium';

export const ADMIN = { username: 'superadmin', password: 'correct-horse-battery' } as const;

export interface TestServer {
  url: string;
  app: App;
  database: Database;
  config: Config;
  close(): Promise<void>;
}

export interface ServerOptions {
  /**
   * Reached as http://localhost:PORT, with PUBLIC_URL set to it: for WebAuthn, whose relying party
   * id must be a domain (127.0.0.1 is not one) and comes from PUBLIC_URL.
   */
  localhost?: boolean;
}

/** A port free on both loopback addresses at the moment of asking. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => probe.once('error', reject).listen(0, 'localhost', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * The real server (same buildApp + prepareDatabase as `npm start`) on a temporary SQLite
 * database with the demo content and a known super admin, listening on a free port.
 * The database file starts as a copy of the run's seeded template (src/server/testing/test-templates.ts): the
 * demo rows, without what only a first start makes (the demo's hosted files, the demo-previews job).
 * The client must be built (npm test builds it first).
 */
export async function startServer(overrides: Partial<Config> = {}, opts: ServerOptions = {}): Promise<TestServer> {
  const port = opts.localhost ? await freePort() : 0;
  if (opts.localhost) overrides = { publicUrl: `http://localhost:${port}`, ...overrides };
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rv-e2e-'));
  const file = path.join(dataDir, 'e2e.db');
  if (!overrides.database && overrides.seedDemo !== false) copyFileSync(inject('testTemplates').sqliteSeeded, file);
  const config = testConfig({
    dataDir,
    database: { kind: 'sqlite', file },
    seedDemo: true,
    // Engineers working in parallel build into their own folder (CLIENT_DIR) so builds don't collide.
    ...(process.env.CLIENT_DIR ? { clientDir: path.resolve(process.env.CLIENT_DIR) } : {}),
    adminUsername: ADMIN.username,
    adminPassword: ADMIN.password,
    ...overrides,
  });
  const { database } = await prepareDatabase(config);
  const app = await buildApp(config, database);
  // 'localhost' listens on both loopback addresses, whichever the browser picks.
  await app.listen({ port, host: opts.localhost ? 'localhost' : '127.0.0.1' });
  const bound = (app.server.address() as { port: number }).port;
  return {
    url: opts.localhost ? `http://localhost:${bound}` : `http://127.0.0.1:${bound}`,
    app,
    database,
    config,
    async close() {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One server (startServer) and one Chromium for the test file or describe block it is called in:
 * started in beforeAll, closed in afterAll. Read `env.server` / `env.browser` inside tests and hooks.
 */
export function useBrowserServer(overrides: Partial<Config> = {}, opts: ServerOptions = {}): { readonly server: TestServer; readonly browser: Browser } {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startServer(overrides, opts);
    browser = await launchChromium(HEADLESS_SHELL_PATH);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  return {
    get server() {
      if (!server) throw new Error('useBrowserServer: the server starts in beforeAll');
      return server;
    },
    get browser() {
      if (!browser) throw new Error('useBrowserServer: the browser starts in beforeAll');
      return browser;
    },
  };
}

/**
 * Shows the four community figures as typed (the spec's figures, the defaults' typed values) instead of
 * live, through the settings API as a super admin: for tests of the counters and their dialogs, which
 * live figures (the demo's counts, moved by every download a test makes) would tie to the data.
 */
export async function showTypedFigures(server: TestServer) {
  const login = await fetch(`${server.url}${API.login}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
  expect(login.status).toBe(200);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const settings = (await (await fetch(`${server.url}${API.adminSettings}`, { headers: { cookie } })).json()) as AdminSettings;
  const stats = settings.stats.map((stat) => ({ ...stat, mode: 'fixed' as const }));
  const saved = await fetch(`${server.url}${API.adminSettings}`, { method: 'PATCH', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ stats }) });
  expect(saved.status, await saved.text()).toBe(200);
}

export const VIEWPORTS = {
  desktop: { width: 1366, height: 900 },
  mobile: { width: 390, height: 844 },
} as const;

export interface Session {
  context: BrowserContext;
  page: Page;
  /** console.error messages and page errors seen so far. */
  errors: string[];
  /** Fails the test if the page logged an unexpected console error (epic-stack habit). */
  expectNoConsoleErrors(allowed?: RegExp[]): void;
  close(): Promise<void>;
}

const userAgents = new WeakMap<Browser, Promise<string>>();
function browserUserAgent(browser: Browser): Promise<string> {
  let ua = userAgents.get(browser);
  if (!ua) {
    ua = browser.newPage().then(async (page) => {
      const value = await page.evaluate(() => navigator.userAgent);
      await page.close();
      return value;
    });
    userAgents.set(browser, ua);
  }
  return ua;
}

/** A fresh browser context (own storage) and page, watching for console errors. */
export async function openPage(
  browser: Browser,
  baseURL: string,
  opts: {
    viewport?: keyof typeof VIEWPORTS;
    colorScheme?: 'light' | 'dark';
    /**
     * `reduce` unless a test is about motion (count-ups, the cursor trail, autoplaying previews, the
     * Coming Soon rows), which asks for `no-preference`: entrance animations were a tenth to a fifth of
     * the browser tests' CPU (docs/decisions/459-browser-tests-reduce-motion.md).
     */
    reducedMotion?: 'reduce' | 'no-preference';
    isMobile?: boolean;
    /** The browser's time zone (IANA name); the machine's by default. */
    timezoneId?: string;
  } = {},
): Promise<Session> {
  const viewport = VIEWPORTS[opts.viewport ?? 'desktop'];
  const mobile = opts.isMobile ?? opts.viewport === 'mobile';
  const context = await browser.newContext({
    baseURL,
    // Headless Chromium says "HeadlessChrome", which isbot takes for a bot: a visitor's browser here,
    // so that its downloads count (src/server/modules/downloads).
    userAgent: (await browserUserAgent(browser)).replace('HeadlessChrome', 'Chrome'),
    viewport,
    colorScheme: opts.colorScheme ?? 'light',
    reducedMotion: opts.reducedMotion ?? 'reduce',
    isMobile: mobile,
    hasTouch: mobile,
    timezoneId: opts.timezoneId,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  return {
    context,
    page,
    errors,
    expectNoConsoleErrors(allowed = []) {
      const unexpected = errors.filter((e) => !allowed.some((re) => re.test(e)));
      expect(unexpected, 'unexpected console errors').toEqual([]);
    },
    close: () => context.close(),
  };
}

/**
 * axe-core: no serious or critical violation on the current page, once every finite animation has
 * ended (a dialog fading in measured mid-fade fails colour contrast; a busy machine stretches fades).
 *
 * Every rule runs; two things axe would do besides are left out, as they cost about two thirds of a
 * scan's CPU (docs/performance.md, "Test suite"): the details of every passing and inapplicable node
 * (`resultTypes`: violations keep all of theirs), and the blank page @axe-core/playwright opens to merge
 * the frames' partial results, which legacy mode skips by running axe.run in the page itself. That mode
 * reaches same-origin frames only, so a page with a cross-origin frame is scanned the default way.
 */
export async function expectAccessible(page: Page) {
  await expect
    .poll(() =>
      page.evaluate(
        () => document.getAnimations().filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime !== Infinity).length,
      ),
    )
    .toBe(0);
  const origin = new URL(page.url()).origin;
  const crossOrigin = page.frames().some((f) => !/^about:/.test(f.url()) && new URL(f.url()).origin !== origin);
  const results = await new AxeBuilder({ page }).setLegacyMode(!crossOrigin).options({ resultTypes: ['violations'] }).analyze();
  const bad = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
  expect(bad, 'serious/critical accessibility violations').toEqual([]);
}

/**
 * Until the app is live, a server-rendered page shows its markup but has no listeners: a test that
 * scrolls (or does anything but click, which is held and replayed) waits for this first.
 */
export async function waitLive(page: Page) {
  await page.locator('#root[data-live]').waitFor({ state: 'attached' });
}

/** After the page has painted its next frame (what a scroll or a pointer move changed is on screen). */
export async function nextFrame(page: Page) {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/**
 * After the page has had an idle moment (what it defers to one, such as lazy chunks, has started:
 * `timeoutMs` as the app's own longest wait) and its network has gone quiet.
 */
export async function pageSettled(page: Page, timeoutMs = 2000) {
  await page.evaluate((timeout) => new Promise((resolve) => requestIdleCallback(resolve, { timeout })), timeoutMs);
  await page.waitForLoadState('networkidle');
  await nextFrame(page);
}

/**
 * Playwright's fake clock for this session's pages, installed before its first navigation: time
 * runs on as it really does, but a test can jump it over a wait the app is in (skipWait) instead
 * of sitting through it. Only in the tests that skip waits: a session is its own browser context,
 * every other one keeps the real clock.
 */
export async function installClock(s: Session) {
  await s.context.clock.install();
}

/**
 * Stops the page's clock (installClock) where it stands: no timer fires until `clock.runFor` or
 * `clock.resume`. Playwright pauses only at a time to come, read from the page just before: on a
 * busy machine that time can have passed by the call, which is then made again.
 */
export async function pauseClock(page: Page) {
  for (let attempt = 1; ; attempt++) {
    const now = await page.evaluate(() => Date.now());
    try {
      await page.clock.pauseAt(now + 50);
      return;
    } catch (err) {
      if (attempt === 10 || !String(err).includes('to the past')) throw err;
    }
  }
}

/**
 * Types `text` into `field` key by key, `apartMs` apart on the page's clock (installClock), which
 * stands still but for those steps: on a busy machine two keys typed in real time can arrive as far
 * apart as a debounce. The clock is left paused; the caller runs it on (`clock.runFor`, `clock.resume`).
 */
export async function typeKeysApart(page: Page, field: Locator, text: string, apartMs: number) {
  await pauseClock(page);
  for (const key of text) {
    await field.press(key);
    await page.clock.runFor(apartMs);
  }
}

/**
 * Skips a wait the page is in, such as a retry's back-off: jumps its clock (installClock) `ms`
 * ahead, firing the timers due by then, and gives the page real time until `over()` holds (the
 * retry's request was made, say). The page gets two frames first to act on what it last received
 * (the failure that sets the timer); should it set the timer only after the jump all the same, the
 * jump is made again after `patienceMs`. Throws if the wait has not ended after three jumps.
 */
export async function skipWait(page: Page, ms: number, over: () => boolean | Promise<boolean>, patienceMs = 2000) {
  for (let jump = 0; jump < 3; jump++) {
    await nextFrame(page);
    await page.clock.fastForward(ms);
    const giveUp = Date.now() + patienceMs;
    do {
      if (await over()) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    } while (Date.now() < giveUp);
  }
  throw new Error(`skipWait: the wait had not ended after three jumps of ${ms} ms`);
}

/** Signs in through the real login page. */
export async function signIn(page: Page, username: string = ADMIN.username, password: string = ADMIN.password) {
  await page.goto('/admin/login');
  await page.getByLabel(/username/i).fill(username);
  await page.getByLabel(/password/i).fill(password);
  await page.getByRole('button', { name: /Enter the Matrix/ }).click();
  await page.waitForURL('**/admin/dashboard');
}

/**
 * Screenshots for people to look at (not compared): screenshots/<name>.png, taken when the run is asked
 * for them (`SCREENSHOTS=1 npm run test:e2e`). A run that nobody looks at skips them: 0.1–0.4 s of
 * Chromium's CPU each, 0.4–1.5 s for a whole page, about 4 % of the suite's CPU in all.
 */
export const SCREENSHOTS = process.env.SCREENSHOTS === '1';

/** Takes a screenshot (see SCREENSHOTS) of the page as it stands. */
export async function screenshot(page: Page, name: string, { fullPage = false } = {}) {
  if (!SCREENSHOTS) return;
  await page.screenshot({ path: path.join('screenshots', `${name}.png`), fullPage });
}

/** A toast on screen with this title (the toaster's list items). */
export const toast = (page: Page, title: string | RegExp) => page.locator('li[data-swipe-direction]').filter({ hasText: title });

/** A title no other test of the run uses. */
export const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/**
 * Signs the super admin in once for the test file or describe block it is called in (beforeAll),
 * then `openAsAdmin()` opens a fresh context already signed in (the session cookie and the stored
 * profile), without the sign-in page each time; `cookieHeader()` signs a request made outside the browser.
 */
export function useAdminSessions(env: { readonly server: TestServer; readonly browser: Browser }) {
  let cookies: Awaited<ReturnType<BrowserContext['cookies']>>;
  let profile: string;
  beforeAll(async () => {
    const s = await openPage(env.browser, env.server.url);
    await signIn(s.page);
    cookies = await s.context.cookies();
    profile = (await s.page.evaluate(() => localStorage.getItem('admin')))!;
    await s.close();
  });
  return {
    async openAsAdmin(opts: Parameters<typeof openPage>[2] = {}): Promise<Session> {
      const s = await openPage(env.browser, env.server.url, opts);
      await s.context.addCookies(cookies);
      await s.context.addInitScript((v) => localStorage.setItem('admin', v), profile);
      return s;
    },
    cookieHeader: () => cookies.map((c) => `${c.name}=${c.value}`).join('; '),
  };
}
