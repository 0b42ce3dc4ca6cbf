import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import type { AdminSettings, SettingsPatch, SettingsSection } from '@contract/settings';
import * as React from 'react';
import { type FieldValues, type Path, type Resolver, useForm, type UseFormReturn } from 'react-hook-form';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api';
import { settingsQueryOptions } from '../api/get-settings';
import { useUpdateSettings } from '../api/update-settings';
import { errorMessage, isSessionError } from '../lib/errors';
import { changeLabel, followSavedVersion, sectionFieldErrors, sectionFormSchemas, type SectionFormValues, sectionFormValues, sectionPatch } from './section-values';

/** What a section adds to its save beside its values: media slots, or why it cannot be saved yet. */
export type SaveExtra = { patch: Partial<SettingsPatch> } | { blocked: string };

/**
 * One Settings section's form: its values (checked by the contract's rules), one PATCH of the
 * section on save with the version it started from, the server's field errors under the fields,
 * a conflict when someone else saved this section meanwhile, and the saved values once saved.
 */
export function useSectionForm<S extends SettingsSection>(
  section: S,
  settings: AdminSettings,
  options: {
    /** Called at save time; its patch joins the section's (uploads), or it blocks the save. */
    extra?(): SaveExtra;
    /** Unsaved changes outside the form (a chosen file, a removed image). */
    extraDirty?: boolean;
    /** After a successful save (the caller forgets its pending media). */
    onSaved?(saved: AdminSettings): void;
    /** A refusal's field the form does not hold (an upload id): the caller shows it. */
    onOtherError?(key: string, message: string): void;
  } = {},
) {
  type Values = SectionFormValues[S] & FieldValues;
  const client = useQueryClient();
  const update = useUpdateSettings();
  const [loaded, setLoaded] = React.useState(() => sectionFormValues(section, settings));
  const [base, setBase] = React.useState(settings.version);
  const [conflict, setConflict] = React.useState(false);
  const form = useForm<Values>({
    resolver: zodResolver(sectionFormSchemas[section] as never) as unknown as Resolver<Values>,
    defaultValues: loaded as never,
    shouldFocusError: true,
    mode: 'onTouched',
  });
  const dirty = form.formState.isDirty || options.extraDirty === true;

  // A newer version (this admin's save of another section, a refetch) reaches the form without losing edits.
  React.useEffect(() => {
    const next = followSavedVersion({ section, dirty, loaded, base, latest: settings });
    if (next.base !== base) setBase(next.base);
    if (next.reset) {
      setLoaded(next.reset);
      form.reset(next.reset as never);
    }
    // Only a new version is news; `dirty` and `loaded` are read as they are then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settings.version]);

  const onValid = async (values: Values) => {
    if (update.isPending) return;
    const extra = options.extra?.() ?? { patch: {} };
    if ('blocked' in extra) {
      toast({ title: extra.blocked, variant: 'destructive' });
      return;
    }
    try {
      const saved = await update.mutateAsync(sectionPatch(section, values as SectionFormValues[S], base, extra.patch));
      const savedValues = sectionFormValues(section, saved);
      setLoaded(savedValues);
      setBase(saved.version);
      setConflict(false);
      form.reset(savedValues as never);
      options.onSaved?.(saved);
      toast({ title: 'Settings saved', description: `${changeLabel(section)} is saved. Visitors see it at once.`, variant: 'success' });
    } catch (err) {
      if (isSessionError(err)) return;
      if (err instanceof ApiError && err.status === 409) {
        setConflict(true);
        toast({
          title: 'Someone else saved these settings',
          description: `${changeLabel(section)} was changed by another save after you opened it. Load the saved version, or copy your changes first.`,
          variant: 'destructive',
        });
        return;
      }
      if (err instanceof ApiError && err.fields) {
        const refused = sectionFieldErrors(section, err.fields);
        for (const [path, message] of refused.form) form.setError(path as Path<Values>, { type: 'server', message });
        for (const [key, message] of refused.other) options.onOtherError?.(key, message);
        if (refused.form[0]) form.setFocus(refused.form[0][0] as Path<Values>);
      }
      toast({ title: 'Failed to save settings', description: errorMessage(err), variant: 'destructive' });
    }
  };

  const onInvalid = () => toast({ title: 'Please correct the highlighted fields', variant: 'destructive' });

  /** After a conflict: the form shows what is saved now (the admin's edits are dropped). */
  const loadLatest = async () => {
    const latest = await client.fetchQuery({ ...settingsQueryOptions(), staleTime: 0 });
    const values = sectionFormValues(section, latest);
    setLoaded(values);
    setBase(latest.version);
    setConflict(false);
    form.reset(values as never);
  };

  /** Back to what is saved. */
  const discard = () => form.reset(loaded as never);

  return {
    form: form as UseFormReturn<Values>,
    onSubmit: form.handleSubmit(onValid, onInvalid),
    saving: update.isPending,
    dirty,
    conflict,
    loadLatest,
    discard,
  };
}

export type SectionFormControls<S extends SettingsSection> = ReturnType<typeof useSectionForm<S>>;
