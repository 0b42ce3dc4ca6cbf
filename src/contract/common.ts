import { z } from 'zod';

/** Control characters other than tab, newline and carriage return. */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** A trimmed single- or multi-line text with no control characters. */
export function text(max: number, opts: { min?: number; label?: string } = {}) {
  const label = opts.label ?? 'This field';
  const min = opts.min ?? 1;
  return z
    .string({ error: `${label} must be text` })
    .trim()
    .min(min, { error: min === 1 ? `${label} is required` : `${label} must be at least ${min} characters` })
    .max(max, { error: `${label} must be at most ${max} characters` })
    .refine((s) => !CONTROL_CHARS.test(s), { error: `${label} contains control characters` });
}

/** http(s) URL only; `allowRelative` also accepts a site-relative path such as `/thumbnails/1.svg`. */
export function httpUrl(max: number, opts: { allowRelative?: boolean; label?: string } = {}) {
  const label = opts.label ?? 'URL';
  return text(max, { label }).refine(
    (s) => {
      if (opts.allowRelative && /^\/(?![/\\])/.test(s)) return !s.includes('..');
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
        ? `${label} must be an http(s) URL or a site path starting with /`
        : `${label} must be an http(s) URL`,
    },
  );
}

/** Positive integer id in a path parameter. */
export const idParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'id must be a number' })
    .int({ error: 'id must be a whole number' })
    .min(1, { error: 'id must be positive' })
    .max(2_147_483_647, { error: 'id is too large' }),
});
export type IdParams = z.infer<typeof idParamsSchema>;

export const okSchema = z.object({ ok: z.literal(true) });

/** ISO-8601 timestamp string. */
export const timestamp = z.string();
