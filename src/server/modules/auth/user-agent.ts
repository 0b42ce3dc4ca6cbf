import Bowser from 'bowser';

/**
 * The browser and system a User-Agent names, for people to recognise a session by ("Chrome 131",
 * "Linux", "macOS Catalina"): the browser's major version only. Null for what it does not say.
 */
export function describeUserAgent(userAgent: string | null): { browser: string | null; system: string | null } {
  if (!userAgent?.trim()) return { browser: null, system: null };
  const { browser, os } = Bowser.parse(userAgent);
  const major = browser.version?.split('.')[0];
  return {
    browser: browser.name ? [browser.name, major].filter(Boolean).join(' ') : null,
    system: os.name ? [os.name, os.versionName].filter(Boolean).join(' ') : null,
  };
}
