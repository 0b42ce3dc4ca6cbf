// Makes sure Debian's Chromium is there for the browser tests (the headless shell they drive, and the
// full browser the page benchmarks use): installs what is missing when we can (root + apt), otherwise
// stops with one line saying what to do.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const NEEDED = [
  { pkg: 'chromium-headless-shell', path: process.env.HEADLESS_SHELL_PATH ?? '/usr/bin/chromium-headless-shell', env: 'HEADLESS_SHELL_PATH' },
  { pkg: 'chromium', path: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', env: 'CHROMIUM_PATH' },
];
const missing = NEEDED.filter((n) => !existsSync(n.path));
if (missing.length > 0) {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = existsSync('/usr/bin/apt-get');
  const pkgs = missing.map((m) => m.pkg).join(' ');
  if (!root || !hasApt) {
    const where = missing.map((m) => `${m.path} (or set ${m.env})`).join(', ');
    console.error(`Chromium not found at ${where}: install it (Debian: sudo apt-get install -y ${pkgs}).`);
    process.exit(1);
  }
  console.log(`Installing Debian ${pkgs} for the browser tests…`);
  execSync(`apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${pkgs}`, { stdio: 'inherit' });
  const still = missing.filter((m) => !existsSync(m.path));
  if (still.length > 0) {
    console.error(`Still no Chromium at ${still.map((m) => `${m.path} (${m.env})`).join(', ')} after installing ${pkgs}.`);
    process.exit(1);
  }
}
