import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, openPage, type Session, startServer, type TestServer, VIEWPORTS } from './harness';

describe('home page', () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const open = (opts: Parameters<typeof openPage>[2] = {}) => openPage(browser, server.url, opts);

  /** Waits until the data-driven parts are on screen, so screenshots and axe see the real page. */
  async function loadHome(s: Session) {
    await s.page.goto('/');
    await s.page.getByText(/Discover 7 unique categories with [\d,]+\+ resources/).waitFor();
    await s.page.getByRole('region', { name: 'Premium picks' }).waitFor();
    await s.page.getByRole('button', { name: /Total Resources/ }).waitFor();
  }

  async function fullShot(page: Page, name: string) {
    await page.screenshot({ path: `screenshots/${name}.png`, fullPage: true });
  }

  for (const viewport of Object.keys(VIEWPORTS) as (keyof typeof VIEWPORTS)[]) {
    for (const colorScheme of ['light', 'dark'] as const) {
      it(`looks finished and has no serious accessibility issue (${viewport}, ${colorScheme})`, async () => {
        const s = await open({ viewport, colorScheme });
        await loadHome(s);
        await expect.poll(() => s.page.title()).toBe('Premium Resources for Creators - Resource Vault');
        await expectAccessible(s.page);
        await fullShot(s.page, `home-${viewport}-${colorScheme}`);
        s.expectNoConsoleErrors();
        await s.close();
      });
    }
  }
});
