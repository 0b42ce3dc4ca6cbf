import { CalendarClock } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/primitives';
import { FormField, describedBy } from '../components/form-field';
import { browserTimeZone, formatZoned, fromZonedInput, futureTimeError, toZonedInput, zoneLabel } from '../lib/zoned-time';

const FIELD_ID = 'resource-publish-at';
/** A new schedule starts this far ahead (then rounded up to the quarter hour): a time the admin edits, rarely keeps. */
const DEFAULT_LEAD_MS = 60 * 60 * 1000;
const QUARTER_HOUR_MS = 15 * 60 * 1000;

/** The picker's first value: the resource's own time, or an hour from now on the quarter hour. */
function startValue(current: string | null | undefined, timeZone: string, now: number): string {
  if (current && Date.parse(current) > now) return toZonedInput(current, timeZone);
  return toZonedInput(new Date(Math.ceil((now + DEFAULT_LEAD_MS) / QUARTER_HOUR_MS) * QUARTER_HOUR_MS).toISOString(), timeZone);
}

/**
 * "Schedule…": when the resource goes public, picked in the admin's zone (named beside the field),
 * sent as UTC. A past time is refused here; the server's refusal comes back as `serverError`.
 */
export function ScheduleDialog({
  open,
  onOpenChange,
  title,
  current,
  serverError,
  onSchedule,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** The resource's title, or '' for a new one not yet named. */
  title: string;
  /** The scheduled resource's publish_at, if it has one. */
  current: string | null | undefined;
  serverError: string | undefined;
  onSchedule(publishAt: string): void;
}) {
  const timeZone = React.useMemo(browserTimeZone, []);
  const [value, setValue] = React.useState('');
  const [error, setError] = React.useState<string | undefined>();
  const input = React.useRef<HTMLInputElement>(null);

  // Each opening starts from the resource's time (or a default); a refusal from the server keeps the admin's pick.
  const wasOpen = React.useRef(false);
  React.useEffect(() => {
    if (open && !wasOpen.current && !serverError) {
      setValue(startValue(current, timeZone, Date.now()));
      setError(undefined);
    }
    wasOpen.current = open;
  }, [open, current, timeZone, serverError]);

  const shown = error ?? serverError;
  const picked = value ? fromZonedInput(value, timeZone) : null;

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const refusal = futureTimeError(value, timeZone, Date.now());
    if (refusal || !picked) {
      setError(refusal ?? 'Choose a publish time');
      input.current?.focus();
      return;
    }
    onSchedule(picked);
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        aria-describedby="schedule-description"
        onOpenAutoFocus={(e) => {
          e.preventDefault();
          input.current?.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>Schedule publishing</DialogTitle>
          <DialogDescription id="schedule-description">
            {title ? <>“{title}” stays hidden until then, and goes public by itself at that time.</> : 'The resource stays hidden until then, and goes public by itself at that time.'}
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={submit} className="grid gap-4">
          <FormField id={FIELD_ID} label="Publish on" required error={shown} hint={`Time zone: ${zoneLabel(timeZone)}`}>
            <Input
              ref={input}
              id={FIELD_ID}
              type="datetime-local"
              required
              aria-required
              aria-invalid={shown ? true : undefined}
              aria-describedby={[describedBy(FIELD_ID, shown, true), shown ? `${FIELD_ID}-zone` : undefined].filter(Boolean).join(' ')}
              min={toZonedInput(new Date().toISOString(), timeZone)}
              value={value}
              onChange={(e) => {
                setValue(e.target.value);
                setError(undefined);
              }}
            />
          </FormField>
          {/* With an error showing the hint is hidden: the zone stays said. */}
          {shown && (
            <p id={`${FIELD_ID}-zone`} className="-mt-2 text-xs text-muted-foreground">
              Time zone: {zoneLabel(timeZone)}
            </p>
          )}
          {picked && !shown && (
            <p className="flex items-center gap-2 rounded-md bg-muted px-3 py-2 text-sm">
              <CalendarClock aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
              Goes public {formatZoned(picked, timeZone)}
            </p>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" variant="gradient">
              <CalendarClock aria-hidden="true" />
              Schedule
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
