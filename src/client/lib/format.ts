/**
 * en-US number and date texts without `Intl`: a page's first `Intl` formatter costs the browser
 * its locale data on the main thread, in the task that evaluates the app or hydrates it
 * (docs/performance.md, "Pages: budgets and Lighthouse"). These give the same text as
 * `Intl.NumberFormat('en-US')` and `Intl.DateTimeFormat('en-US', { dateStyle: 'long' })` for the
 * values the pages show (checked against Intl in format.test.ts).
 */

const GROUPS = /\B(?=(\d{3})+(?!\d))/g;

/**
 * Rounds half up on the number's shortest decimal form, as Intl does (0.15 → 0.2), where toFixed
 * alone rounds the binary value (0.15 → 0.1).
 */
function roundHalfUp(abs: number, decimals: number): number {
  const text = String(abs);
  if (text.includes('e')) return abs;
  return Number(`${Math.round(Number(`${text}e${decimals}`))}e-${decimals}`);
}

/**
 * `n` with exactly `decimals` fraction digits (rounded like Intl), thousands separated by commas:
 * 12,345.6. Same as Intl with minimum = maximum fraction digits (for a whole number, the default).
 */
export function formatNumber(n: number, decimals = 0): string {
  if (!Number.isFinite(n)) return String(n);
  const fixed = roundHalfUp(Math.abs(n), decimals).toFixed(decimals);
  const dot = fixed.indexOf('.');
  const whole = dot === -1 ? fixed : fixed.slice(0, dot);
  const grouped = whole.replace(GROUPS, ',') + (dot === -1 ? '' : fixed.slice(dot));
  return n < 0 && Number(fixed) !== 0 ? `-${grouped}` : grouped;
}

/**
 * A count and its noun, agreeing in number: "1 download", "2 downloads", "1,134 resources". Every
 * count the site shows in words goes through here (issue #28: "1 downloads in the last 30 days").
 */
export function formatCount(n: number, one: string, many = `${one}s`): string {
  return `${formatNumber(n)} ${n === 1 ? one : many}`;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** The date in the browser's time zone, e.g. "November 21, 2026". */
export function formatLongDate(date: Date): string {
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}`;
}

/** The calendar date of an ISO timestamp in UTC: the same text on the server and in every browser. */
export function formatUtcDate(iso: string): string {
  const date = new Date(iso);
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}

const BYTE_UNITS = ['KB', 'MB', 'GB', 'TB'] as const;

/** A file size in decimal units, as file managers and download pages show it: 1536 → "1.5 KB", 7_600_000 → "7.6 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return formatCount(bytes, 'byte');
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 999.5 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${formatNumber(value, value < 9.95 ? 1 : 0).replace(/\.0$/, '')} ${BYTE_UNITS[unit]}`;
}
