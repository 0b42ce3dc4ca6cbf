import { formatCount } from '@/lib/format';

/** Spec: short US date, e.g. 11/21/2026. */
export function formatShortDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '—' : d.toLocaleDateString('en-US');
}

export function formatNumber(n: number): string {
  return n.toLocaleString('en-US');
}

export type DownloadDay = { day: string; count: number };

/** A downloads chart in one sentence (its name for screen readers): total, range, busiest day. */
export function downloadsSummary(days: DownloadDay[]): string {
  if (days.length === 0) return 'No download data yet.';
  const total = days.reduce((s, d) => s + d.count, 0);
  const busiest = days.reduce((b, d) => (d.count > b.count ? d : b));
  // A day of the range, with its year when the range spans two.
  const twoYears = days[0]!.day.slice(0, 4) !== days[days.length - 1]!.day.slice(0, 4);
  const spanDay = (day: string) => (twoYears ? `${formatDay(day)}, ${day.slice(0, 4)}` : formatDay(day));
  return (
    `${formatCount(total, 'download')} in the last ${formatCount(days.length, 'day')}, ` +
    `from ${spanDay(days[0]!.day)} to ${spanDay(days[days.length - 1]!.day)}.` +
    (busiest.count > 0 ? ` Busiest day: ${formatDay(busiest.day)} with ${formatCount(busiest.count, 'download')}.` : '')
  );
}

/** 'YYYY-MM-DD' (a UTC day) → 'Nov 21'. */
export function formatDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? day : d.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** 'in 2 minutes', 'in 45 seconds'. */
export function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

/** Time left of an upload: 75 → '1 min 15 s left'. */
export function formatTimeLeft(seconds: number): string {
  if (seconds < 60) return `${seconds} s left`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s left`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min left`;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whole days until a trashed resource's purge, as the Trash page says them ('Purged today' within the last day's end). */
export function formatDaysLeft(purgeAt: string, now = Date.now()): string {
  const days = Math.ceil((Date.parse(purgeAt) - now) / DAY_MS);
  if (!(days > 0)) return 'Purged today';
  return days === 1 ? '1 day left' : `${days} days left`;
}
