// Makes sure the machine has the programs the tests run: Debian's Chromium (the headless shell the
// browser tests drive, and the full browser the page benchmarks use) and ffmpeg/ffprobe (media
// previews). Installs what is missing when it can (root + apt); otherwise stops at once with one line
// naming the packages. `npm test` runs it before the unit + API step, which needs ffmpeg.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const NEEDED = [
  { pkg: 'chromium-headless-shell', path: process.env.HEADLESS_SHELL_PATH ?? '/usr/bin/chromium-headless-shell', env: 'HEADLESS_SHELL_PATH' },
  { pkg: 'chromium', path: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', env: 'CHROMIUM_PATH' },
  { pkg: 'ffmpeg', path: process.env.FFMPEG_PATH ?? '/usr/bin/ffmpeg', env: 'FFMPEG_PATH' },
  { pkg: 'ffmpeg', path: process.env.FFPROBE_PATH ?? '/usr/bin/ffprobe', env: 'FFPROBE_PATH' },
];
const missing = NEEDED.filter((n) => !existsSync(n.path));
if (missing.length > 0) {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = existsSync('/usr/bin/apt-get');
  const pkgs = [...new Set(missing.map((m) => m.pkg))].join(' ');
  if (!root || !hasApt) {
    const where = missing.map((m) => `${m.path} (or set ${m.env})`).join(', ');
    console.error(`Missing ${where}: install Debian's ${pkgs} (sudo apt-get install -y ${pkgs}).`);
    process.exit(1);
  }
  console.log(`Installing Debian's ${pkgs} for the tests…`);
  execSync(`apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${pkgs} >/dev/null`, { stdio: 'inherit' });
  const still = missing.filter((m) => !existsSync(m.path));
  if (still.length > 0) {
    console.error(`Still missing ${still.map((m) => `${m.path} (${m.env})`).join(', ')} after installing ${pkgs}.`);
    process.exit(1);
  }
}
