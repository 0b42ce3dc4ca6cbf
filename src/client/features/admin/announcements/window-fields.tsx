import { WINDOW_ORDER_MESSAGE } from '@contract/announcements';
import * as React from 'react';
import { Input, Label } from '@/components/ui/primitives';
import { ApiError } from '@/lib/api';
import { describedBy } from '../components/form-field';
import { fromZonedInput, toZonedInput, zoneLabel } from '../lib/zoned-time';

export type WindowField = 'starts_at' | 'ends_at';
const FIELDS = ['starts_at', 'ends_at'] as const;
type Times = Record<WindowField, string>;
type Errors = Partial<Record<WindowField, string>>;
/** The window as the API takes it: each side a UTC instant, or null (cleared) on an edit. */
export type WindowBody = { starts_at?: string | null; ends_at?: string | null };

/**
 * An announcement's From / Until, picked in the admin's zone (named under the fields) and sent as
 * UTC: the add form and the edit dialog share the fields, their checks and the server's refusals.
 * `prefix` keeps the ids of two forms on one page apart.
 */
export function useWindowFields(prefix: string, timeZone: string) {
  const [times, setTimes] = React.useState<Times>({ starts_at: '', ends_at: '' });
  const [errors, setErrors] = React.useState<Errors>({});
  const idOf = (name: WindowField) => `${prefix}-${name}`;
  const focus = (name: WindowField) => document.getElementById(idOf(name))?.focus();

  return {
    /** Starts the fields from an announcement's window (or empty). */
    reset(window?: { starts_at: string | null; ends_at: string | null }) {
      setTimes({ starts_at: toZonedInput(window?.starts_at, timeZone), ends_at: toZonedInput(window?.ends_at, timeZone) });
      setErrors({});
    },
    /**
     * The window to send, or undefined after showing what is wrong under the fields (the first one
     * focused). An empty side is left out, or sent as null when `emptyAs` is null (an edit clears it).
     */
    read(emptyAs: undefined | null): WindowBody | undefined {
      const body: WindowBody = {};
      const found: Errors = {};
      for (const name of FIELDS) {
        if (!times[name]) {
          if (emptyAs === null) body[name] = null;
          continue;
        }
        const iso = fromZonedInput(times[name], timeZone);
        if (iso) body[name] = iso;
        else found[name] = `The ${name === 'starts_at' ? 'start' : 'end'} is not a valid date and time`;
      }
      if (body.starts_at && body.ends_at && body.ends_at <= body.starts_at) found.ends_at = WINDOW_ORDER_MESSAGE;
      setErrors(found);
      const first = FIELDS.find((f) => found[f]);
      if (first) {
        focus(first);
        return undefined;
      }
      return body;
    },
    /** Shows the server's refusal of a side under its field; true if it was one. */
    showServerError(err: unknown): boolean {
      if (!(err instanceof ApiError) || !(err.fields?.starts_at || err.fields?.ends_at)) return false;
      setErrors({ starts_at: err.fields.starts_at, ends_at: err.fields.ends_at });
      focus(err.fields.starts_at ? 'starts_at' : 'ends_at');
      return true;
    },
    fields: (
      <>
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-1 xl:grid-cols-2">
          {FIELDS.map((name) => {
            const id = idOf(name);
            const error = errors[name];
            return (
              <div key={name} className="grid gap-1.5">
                <Label htmlFor={id}>{name === 'starts_at' ? 'From' : 'Until'}</Label>
                <Input
                  id={id}
                  type="datetime-local"
                  value={times[name]}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={[describedBy(id, error), `${prefix}-zone`].filter(Boolean).join(' ')}
                  onChange={(e) => {
                    const value = e.target.value;
                    setTimes((t) => ({ ...t, [name]: value }));
                    setErrors((errs) => ({ ...errs, [name]: undefined }));
                  }}
                />
                {error && (
                  <p id={`${id}-error`} className="text-sm font-medium text-destructive">
                    {error}
                  </p>
                )}
              </div>
            );
          })}
        </div>
        <p id={`${prefix}-zone`} className="text-xs text-muted-foreground">
          Time zone: {zoneLabel(timeZone)}. Empty: from now, until switched off.
        </p>
      </>
    ),
  };
}
