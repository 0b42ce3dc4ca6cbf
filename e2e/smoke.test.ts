import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, startServer, type TestServer } from './harness';

describe('the built site in a real browser', () => {
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

  it('loads the home page with the server-rendered title, applies the theme before paint, without console errors', async () => {
    const s = await openPage(browser, server.url, { colorScheme: 'dark' });
    const res = await s.page.goto('/');
    expect(res?.status()).toBe(200);
    await expect.poll(() => s.page.title()).toBe('Premium Resources for Creators - Resource Vault');
    expect(await s.page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    s.expectNoConsoleErrors();
    await s.close();
  });
});
