import { describe, expect, it } from 'vitest';
import { expectAccessible, openPage, screenshot, signIn, toast, useBrowserServer } from './harness';

/**
 * Passkeys (issue 31) in a real browser, with Chromium's virtual authenticator (DevTools protocol
 * WebAuthn domain): a real ceremony through @simplewebauthn/browser and /server, nothing mocked.
 * WebAuthn needs a domain as relying party id, so the server is reached as http://localhost:PORT
 * with PUBLIC_URL set to it.
 */
const SLOW = 120_000;

describe('passkeys in a real browser', () => {
  const env = useBrowserServer({}, { localhost: true });

  it(
    'registers a passkey on the Security page, then signs in with it alone after signing out',
    async () => {
      const s = await openPage(env.browser, env.server.url);
      const { page } = s;
      const cdp = await s.context.newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
      });

      await signIn(page);
      await page.goto('/admin/security');
      const section = page.getByRole('region', { name: 'Passkeys' });
      await section.getByText('No passkeys yet').waitFor();

      await section.getByRole('button', { name: 'Add a passkey' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add a passkey' });
      const name = dialog.getByLabel('Name');
      // The default name comes from the browser.
      await expect.poll(() => name.inputValue()).toMatch(/Chrom/);
      await name.fill('Virtual key');
      await dialog.getByRole('button', { name: 'Continue' }).click();
      await toast(page, 'Passkey added').waitFor();
      await dialog.waitFor({ state: 'hidden' });
      const item = section.getByRole('listitem').filter({ hasText: 'Virtual key' });
      await item.waitFor();
      await expect.poll(() => item.textContent()).toContain('Never used');
      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      expect(credentials).toHaveLength(1);
      expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });
      await expectAccessible(page);
      await screenshot(page, 'passkeys-security');

      // Sign out, then in with the passkey: no username, no password.
      await page.getByRole('button', { name: 'Logout' }).click();
      await page.waitForURL('**/admin/login');
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await page.waitForURL('**/admin/dashboard');
      await toast(page, 'Login successful').waitFor();

      await page.goto('/admin/security');
      await expect.poll(() => section.getByRole('listitem').filter({ hasText: 'Virtual key' }).textContent()).toMatch(/Last used/);
      const after = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      expect(after.credentials[0].signCount).toBeGreaterThan(0);

      // Renamed from the keyboard: the dialog's field, Enter.
      await section.getByRole('button', { name: 'Rename passkey Virtual key' }).click();
      const rename = page.getByRole('dialog', { name: 'Rename passkey' });
      await rename.getByLabel('Name').fill('Work key');
      await page.keyboard.press('Enter');
      await toast(page, 'Passkey renamed').waitFor();
      await section.getByRole('listitem').filter({ hasText: 'Work key' }).waitFor();

      // Removing it (after confirming) leaves the empty state.
      await section.getByRole('button', { name: 'Remove passkey Work key' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Remove this passkey?' });
      await confirm.getByRole('button', { name: 'Remove' }).click();
      await toast(page, 'Passkey removed').waitFor();
      await section.getByText('No passkeys yet').waitFor();
      s.expectNoConsoleErrors();
      await s.close();
    },
    SLOW,
  );

  it(
    'says so when the browser cancels the ceremony, and the login card does not shake for it',
    async () => {
      const s = await openPage(env.browser, env.server.url);
      const { page } = s;
      const cdp = await s.context.newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      // An authenticator whose user declines verification: the browser ends the ceremony with NotAllowedError.
      await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: false },
      });
      await page.goto('/admin/login');
      const button = page.getByRole('button', { name: 'Sign in with a passkey' });
      await button.waitFor();
      await expectAccessible(page);
      // From the keyboard: the button is in the tab order after the password form.
      await button.focus();
      await page.keyboard.press('Enter');
      await toast(page, 'Passkey sign-in cancelled').waitFor();
      expect(await toast(page, 'Access Denied!').count()).toBe(0);
      // A refusal would shake the card in the same render that shows its toast.
      expect(await page.getByTestId('login-card').getAttribute('class')).not.toContain('animate-shake');
      expect(page.url()).toContain('/admin/login');
      await screenshot(page, 'passkeys-login');
      await s.close();
    },
    SLOW,
  );
});
