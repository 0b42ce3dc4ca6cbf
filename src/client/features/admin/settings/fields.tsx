import { AlertTriangle, RotateCcw, Save } from 'lucide-react';
import * as React from 'react';
import { type FieldValues, get, type Path, type UseFormReturn } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card, Input, Spinner, Textarea } from '@/components/ui/primitives';
import { cn } from '@/lib/utils';
import { LeaveGuard } from '../components/leave-guard';
import { describedBy, FormField } from '../components/form-field';

/** The message react-hook-form holds for `name` (nested paths too). */
export function fieldError<V extends FieldValues>(form: UseFormReturn<V>, name: string): string | undefined {
  const error = get(form.formState.errors, name) as { message?: string; root?: { message?: string } } | undefined;
  return error?.message ?? error?.root?.message;
}

/** An id safe in selectors for a form path (`items.2.name` → `prefix-items-2-name`). */
export const fieldId = (prefix: string, name: string) => `${prefix}-${name.replace(/\./g, '-')}`;

/** A labelled text (or number) field of a settings form, with its hint, its error and a character count. */
export function TextField<V extends FieldValues>({
  form,
  name,
  prefix,
  label,
  hint,
  required,
  maxLength,
  multiline,
  rows = 4,
  number,
  inputMode,
  placeholder,
  className,
}: {
  form: UseFormReturn<V>;
  name: Path<V>;
  /** The section's id prefix. */
  prefix: string;
  label: string;
  hint?: string;
  required?: boolean;
  maxLength?: number;
  multiline?: boolean;
  rows?: number;
  number?: boolean;
  inputMode?: React.HTMLAttributes<HTMLInputElement>['inputMode'];
  placeholder?: string;
  className?: string;
}) {
  const id = fieldId(prefix, name);
  const error = fieldError(form, name);
  const value = multiline && maxLength ? String(form.watch(name) ?? '') : '';
  const counted = multiline && maxLength ? `${value.length.toLocaleString('en-US')}/${maxLength.toLocaleString('en-US')} characters` : undefined;
  const shownHint = [hint, counted].filter(Boolean).join(' · ') || undefined;
  const props = {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy(id, error, Boolean(shownHint)),
    'aria-required': required || undefined,
    maxLength,
    placeholder,
    ...form.register(name, number ? { valueAsNumber: true } : undefined),
  };
  return (
    <div className={className}>
      <FormField id={id} label={label} required={required} hint={shownHint} error={error}>
        {multiline ? (
          <Textarea {...props} rows={rows} />
        ) : (
          <Input {...props} type={number ? 'number' : 'text'} inputMode={number ? 'decimal' : inputMode} step={number ? 'any' : undefined} />
        )}
      </FormField>
    </div>
  );
}

/** A section's card with its heading. */
export function SectionCard({ title, description, children, className }: { title: string; description?: React.ReactNode; children: React.ReactNode; className?: string }) {
  const id = React.useId();
  return (
    <Card role="group" aria-labelledby={id} className={cn('grid gap-5 p-5 sm:p-6', className)}>
      <div>
        <h2 id={id} className="text-lg font-semibold tracking-tight">
          {title}
        </h2>
        {description && <p className="mt-1 text-sm text-muted-foreground">{description}</p>}
      </div>
      {children}
    </Card>
  );
}

/**
 * The save bar under a section: Discard and Save, what a conflict means, and the guard that asks
 * before unsaved changes are left behind (a link in the app, or closing and reloading the tab).
 */
export function SectionActions({
  label,
  dirty,
  saving,
  conflict,
  onDiscard,
  onLoadLatest,
  waiting,
}: {
  /** The section's name, in the guard's question. */
  label: string;
  dirty: boolean;
  saving: boolean;
  conflict: boolean;
  onDiscard(): void;
  onLoadLatest(): Promise<void>;
  /** Why Save waits (an upload in progress). */
  waiting?: string;
}) {
  const [loading, setLoading] = React.useState(false);
  return (
    // Kept in view while there is something to save; in its place at the end otherwise.
    <div
      className={cn(
        'z-10 grid gap-3 rounded-xl border bg-background/90 p-3 backdrop-blur supports-[backdrop-filter]:bg-background/75',
        (dirty || conflict) && 'sticky bottom-3 shadow-lg',
      )}
    >
      {conflict && (
        <div role="alert" className="flex flex-wrap items-center gap-3 rounded-lg bg-amber-500/10 px-3 py-2 text-sm text-amber-950 dark:text-amber-100">
          <AlertTriangle aria-hidden="true" className="size-4 shrink-0" />
          <p className="min-w-0 flex-1">Someone else saved {label} after you opened it. Saving now would overwrite their changes.</p>
          <Button
            type="button"
            size="sm"
            variant="outline"
            disabled={loading}
            onClick={() => {
              setLoading(true);
              void onLoadLatest().finally(() => setLoading(false));
            }}
          >
            {loading ? <Spinner /> : <RotateCcw aria-hidden="true" />} Load the saved version
          </Button>
        </div>
      )}
      <div className="flex flex-wrap items-center justify-end gap-2">
        {/* On a phone the bar itself says there are changes; only a wait is spelled out there. */}
        <p className={cn('w-full text-sm text-muted-foreground sm:mr-auto sm:w-auto', !waiting && 'max-sm:sr-only', !dirty && !waiting && 'sr-only')} aria-live="polite">
          {waiting ?? (dirty ? 'You have unsaved changes.' : 'Everything is saved.')}
        </p>
        <Button type="button" variant="outline" className="flex-1 sm:flex-none" onClick={onDiscard} disabled={!dirty || saving}>
          <span className="sm:hidden">Discard</span>
          <span className="max-sm:hidden">Discard changes</span>
        </Button>
        <Button type="submit" variant="gradient" className="flex-1 sm:flex-none" disabled={saving || Boolean(waiting)}>
          {saving ? <Spinner /> : <Save aria-hidden="true" />}
          {saving ? 'Saving…' : `Save ${label}`}
        </Button>
      </div>
      <UnsavedGuard when={dirty && !saving} label={label} />
    </div>
  );
}

/** Asks before leaving a section with unsaved changes (components/leave-guard.tsx). */
export function UnsavedGuard({ when, label }: { when: boolean; label: string }) {
  return (
    <LeaveGuard
      when={when}
      title="Leave without saving?"
      description={`Your changes to ${label} are not saved. If you leave now, they are lost.`}
      confirmLabel="Leave without saving"
    />
  );
}
