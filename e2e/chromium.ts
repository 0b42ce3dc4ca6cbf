import { readdirSync, readFileSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/**
 * The system's Chromium (Debian's `chromium`), as a visitor runs it: the page benchmarks and Lighthouse.
 * Playwright's own browser downloads are not used.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Debian's `chromium-headless-shell`, the browser tests' Chromium: the same version's Blink and V8
 * without the browser's own windows and UI, as Playwright drives headless tests by default. Each test's
 * context and page cost the browser process about half as much CPU as in the full Chromium
 * (decision 301; docs/performance.md, "Test suite").
 */
export const HEADLESS_SHELL_PATH = process.env.HEADLESS_SHELL_PATH ?? '/usr/bin/chromium-headless-shell';

/**
 * Playwright 1.65's own `--disable-features` list (chromiumSwitches.ts). Chromium honours only the
 * last `--disable-features` on its command line, so ours must carry Playwright's too;
 * `launchChromium` checks the launched command line and names any that are missing after an upgrade.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Every new window (each Playwright context is one) preloads the address bar's WebUI pop-ups, two
 * pages rendered in a process of their own that a headless test never shows: about 0.8 s of CPU per
 * context, close to half of what a context and a page load of this app cost together
 * (docs/performance.md, "Test suite").
 */
const DISABLED_FEATURES = [...PLAYWRIGHT_DISABLED_FEATURES, 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
  `--disable-features=${DISABLED_FEATURES.join(',')}`,
];

/** Headless Chromium (by default the full one) as the browser tests and the page benchmarks drive it. */
export async function launchChromium(executablePath: string = CHROMIUM_PATH): Promise<Browser> {
  const browser = await chromium.launch({ executablePath, args: ARGS });
  const missing = playwrightFeaturesLost();
  if (missing.length > 0) {
    await browser.close();
    throw new Error(`e2e/chromium.ts: Playwright now disables ${missing.join(', ')} too; add them to PLAYWRIGHT_DISABLED_FEATURES`);
  }
  return browser;
}

/**
 * The features Playwright's `--disable-features` names that ours (the last one, which wins) does
 * not, read off the command line of the Chromium this process launched (Linux; elsewhere none).
 */
function playwrightFeaturesLost(): string[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const pid of entries) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== process.pid) continue;
      const lists = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
        .split('\0')
        .filter((a) => a.startsWith('--disable-features='))
        .map((a) => a.slice('--disable-features='.length).split(','));
      if (lists.length < 2) continue;
      const effective = new Set(lists.at(-1));
      return lists.slice(0, -1).flat().filter((f) => f && !effective.has(f));
    } catch {
      // A process that ended while being read.
    }
  }
  return [];
}
