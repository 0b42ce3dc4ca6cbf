/**
 * Dates and times an admin picks (a publish time, an announcement's window) are typed in the
 * admin's own time zone, in an `<input type="datetime-local">` (`YYYY-MM-DDTHH:mm`, no zone), and
 * stored as UTC instants. Every function takes the zone, so tests can name one; the app passes
 * the browser's (docs/decisions/395-times-in-the-admins-zone.md).
 */

/** The browser's IANA zone, e.g. `Europe/Paris` (`UTC` if the browser cannot tell). */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** A datetime-local value: minutes, or seconds too (what the input gives with a `step` under a minute, or typed). */
const WALL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** `YYYY-MM-DDTHH:mm` of the instant `ms` on a clock in `timeZone`. */
function wallOf(ms: number, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** Minutes `timeZone` is ahead of UTC at the instant `ms` (Paris in winter: 60). */
export function zoneOffsetMinutes(ms: number, timeZone: string): number {
  const wall = WALL.exec(wallOf(ms, timeZone))!;
  const asUtc = Date.UTC(+wall[1]!, +wall[2]! - 1, +wall[3]!, +wall[4]!, +wall[5]!);
  return Math.round((asUtc - Math.floor(ms / 60_000) * 60_000) / 60_000);
}

/** An instant (ISO, any zone) as the value of a datetime-local input in `timeZone`; '' for none. */
export function toZonedInput(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '';
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? '' : wallOf(ms, timeZone);
}

/**
 * A datetime-local value (minutes, or seconds) read on a clock in `timeZone` → the UTC instant (`…Z`), or null when it
 * is not a date and time. A time the clocks skip (spring forward) is read with the offset before
 * the change, so it lands as far past the gap as it was into it (02:30 → 03:30); a time they pass
 * twice (fall back) is the first of the two.
 */
export function fromZonedInput(value: string, timeZone: string): string | null {
  const m = WALL.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = [+m[1]!, +m[2]!, +m[3]!, +m[4]!, +m[5]!, +(m[6] ?? 0)];
  const wallMs = Date.UTC(year, month - 1, day, hour, minute, second);
  // Date.UTC rolls 2026-02-31 over to March: such a value names no day.
  if (new Date(wallMs).toISOString().slice(0, value.length) !== value) return null;
  // The zone's offsets a day either side of this wall time: around a change they differ.
  const before = zoneOffsetMinutes(wallMs - 86_400_000, timeZone);
  const after = zoneOffsetMinutes(wallMs + 86_400_000, timeZone);
  const candidates = [...new Set([before, after])].map((offset) => wallMs - offset * 60_000);
  // Those that really show this wall time in the zone, earliest first (fall back: two of them).
  const exact = candidates.filter((ms) => wallOf(ms, timeZone) === value.slice(0, 16)).sort((a, b) => a - b);
  const ms = exact[0] ?? wallMs - before * 60_000;
  return new Date(ms).toISOString();
}

/** `GMT+1`, `GMT-5`, `GMT+5:30`, `GMT` for the zone at that instant. */
export function zoneOffsetName(ms: number, timeZone: string): string {
  const offset = zoneOffsetMinutes(ms, timeZone);
  if (offset === 0) return 'GMT';
  const abs = Math.abs(offset);
  const minutes = abs % 60;
  return `GMT${offset < 0 ? '-' : '+'}${Math.floor(abs / 60)}${minutes ? `:${String(minutes).padStart(2, '0')}` : ''}`;
}

/** What the zone is called beside a picker: `Europe/Paris (GMT+1)`. */
export function zoneLabel(timeZone: string, ms = Date.now()): string {
  return `${timeZone.replaceAll('_', ' ')} (${zoneOffsetName(ms, timeZone)})`;
}

/** An instant as the admin reads it: `Tue, Dec 1, 2026, 9:30 AM`, on a clock in `timeZone`. */
export function formatZoned(iso: string, timeZone: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return '—';
  return new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }).format(new Date(ms));
}

/** A shorter form for lists: `Dec 1, 9:30 AM` in the current year (of `now`, in the zone), `Jan 4, 2027, 9:30 AM` in another. */
export function formatZonedShort(iso: string, timeZone: string, now = Date.now()): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return '—';
  const sameYear = wallOf(ms, timeZone).slice(0, 4) === wallOf(now, timeZone).slice(0, 4);
  return new Intl.DateTimeFormat('en-US', {
    timeZone,
    month: 'short',
    day: 'numeric',
    ...(sameYear ? {} : { year: 'numeric' as const }),
    hour: 'numeric',
    minute: '2-digit',
  }).format(new Date(ms));
}

/** Why a picked time cannot be a publish time (empty, not a time, or not after `now`); undefined when it can. */
export function futureTimeError(value: string, timeZone: string, now: number, label = 'publish time'): string | undefined {
  if (!value) return `Choose a ${label}`;
  const iso = fromZonedInput(value, timeZone);
  if (!iso) return `The ${label} is not a valid date and time`;
  if (Date.parse(iso) <= now) return `The ${label} must be in the future`;
  return undefined;
}
