import { z } from 'zod';

// What no text the API takes may hold: C0 controls, DEL and C1 controls (PostgreSQL refuses a NUL;
// the rest are invisible or terminal escapes), and lone UTF-16 surrogates (not valid Unicode, so
// they cannot be stored as UTF-8). Multi-line text keeps tab, line feed and carriage return.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001F\u007F-\u009F]/;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS_BUT_LINES = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/** With the u flag a surrogate pair is one code point, so only a lone surrogate matches. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/**
 * Every string field of the contract starts here: the one rule for characters no field accepts.
 * Trimmed unless `trim: false` (passwords are taken as typed); `multiline` keeps tabs and line breaks.
 */
export function str(label: string, opts: { multiline?: boolean; trim?: boolean } = {}) {
  const base = z.string({ error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be text`) });
  const forbidden = opts.multiline ? CONTROL_CHARS_BUT_LINES : CONTROL_CHARS;
  return (opts.trim === false ? base : base.trim())
    .refine((s) => !forbidden.test(s), { error: `${label} contains control characters` })
    .refine((s) => !LONE_SURROGATE.test(s), { error: `${label} contains invalid Unicode` });
}

/** A trimmed text of `min`..`max` characters (one line unless `multiline`). */
export function text(max: number, opts: { min?: number; label?: string; multiline?: boolean } = {}) {
  const label = opts.label ?? 'This field';
  const min = opts.min ?? 1;
  return str(label, { multiline: opts.multiline })
    .min(min, { error: min === 1 ? `${label} is required` : `${label} must be at least ${min} characters` })
    .max(max, { error: `${label} must be at most ${max} characters` });
}

/** A path on this site, in URL characters only (no whitespace or backslash, which browsers drop or read as `/`). */
const SITE_PATH = /^\/(?![/\\])[A-Za-z0-9\-._~!$&'()*+,;=:@/%?#]*$/;
/** Encoded `/`, `\`, `.`, `%` and controls: one more decoding step could turn the path into `//host` or `..`. */
const RISKY_ESCAPES = /%(?:2f|5c|2e|25|[01][0-9a-f]|7f)/i;
const SITE_ORIGIN = 'https://site.invalid';

/**
 * Whether a browser resolves `s` on our own origin, whatever the page it appears on: one leading
 * `/` (not `//` or `/\`, which name another host), nothing a browser strips or rewrites (tab,
 * newline, backslash, spaces), no dot segments and no encoded form of any of these.
 */
export function isSitePath(s: string): boolean {
  if (!SITE_PATH.test(s) || RISKY_ESCAPES.test(s) || s.includes('..')) return false;
  return new URL(s, SITE_ORIGIN).origin === SITE_ORIGIN;
}

/** http(s) URL only; `allowRelative` also accepts a site path such as `/thumbnails/1.svg` (see isSitePath). */
export function httpUrl(max: number, opts: { allowRelative?: boolean; label?: string } = {}) {
  const label = opts.label ?? 'URL';
  return text(max, { label }).refine(
    (s) => {
      if (s.startsWith('/')) return opts.allowRelative === true && isSitePath(s);
      if (!/^https?:\/\//i.test(s)) return false;
      try {
        const u = new URL(s);
        return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.length > 0;
      } catch {
        return false;
      }
    },
    {
      error: opts.allowRelative
        ? `${label} must be an http(s) URL or a path on this site starting with /`
        : `${label} must be an http(s) URL`,
    },
  );
}

/** Ids are 32-bit integer columns: a larger number is an error on PostgreSQL, not a miss. */
export const ID_MAX = 2_147_483_647;

/**
 * An id in a path or a query string: decimal digits only, 1..ID_MAX. A number parser would also
 * take `0x10`, `1e1`, `16.0` or ` 16`, so one resource would have many URLs (each its own public
 * cache entry) and `DELETE …/0x10` would delete resource 16 (decision 340).
 */
export function idSchema(label = 'id') {
  return z
    .string({ error: `${label} must be a whole number` })
    .regex(/^\d+$/, { error: `${label} must be a whole number written in digits` })
    .transform(Number)
    .pipe(z.number().min(1, { error: `${label} must be at least 1` }).max(ID_MAX, { error: `${label} is too large` }));
}

/** The id of a path such as `/api/resources/:id`. */
export const idParamsSchema = z.object({ id: idSchema() });
export type IdParams = z.infer<typeof idParamsSchema>;

export const okSchema = z.object({ ok: z.literal(true) });

/** ISO-8601 timestamp string. */
export const timestamp = z.string();

/** An instant as ISO-8601 with its zone (`Z` or `±hh:mm`), e.g. 2026-12-01T09:30:00Z. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** `YYYY-MM-DD` names a day of the calendar (Date.parse rolls 2030-02-31 over to March). */
function isCalendarDate(day: string): boolean {
  return new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) === day;
}

/**
 * A point in time an admin sets (a publish time, an announcement's window): ISO-8601 with a zone,
 * stored as UTC (`…Z`, as every timestamp here) so text order is time order on both databases.
 */
export function instant(label: string) {
  return z
    .string({ error: `${label} must be a date and time` })
    .max(40, { error: `${label} must be a date and time` })
    .refine((v) => INSTANT.test(v) && !Number.isNaN(Date.parse(v)) && isCalendarDate(v.slice(0, 10)), { error: `${label} must be a date and time with its zone, e.g. 2026-12-01T09:30:00Z` })
    .transform((v) => new Date(v).toISOString());
}
