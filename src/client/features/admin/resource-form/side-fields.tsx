import { type CategoryValue, getCategory } from '@contract/categories';
import { DEFAULT_LICENCE_KIND } from '@contract/resource-page';
import { APP_IDS, APP_LABELS, type AppId } from '@contract/apps';
import type { ResourceApp } from '@contract/contents';
import { Controller } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card, Input, Label } from '@/components/ui/primitives';
import { Switch } from '@/components/ui/switch';
import { LicenceField } from '../components/licence-field';
import { TagPicker } from '../components/tag-picker';
import type { ResourceFormControls } from './use-resource-form';

type Props = { controls: ResourceFormControls };

/** Tags, with the category's suggestions. */
export function TagsField({ controls: { form, errors }, category }: Props & { category: CategoryValue }) {
  return (
    <Card className="grid gap-3 p-6">
      <Label htmlFor="resource-tags">Tags</Label>
      <Controller
        control={form.control}
        name="tags"
        render={({ field: f }) => (
          <TagPicker
            id="resource-tags"
            value={f.value ?? []}
            onChange={f.onChange}
            suggestions={getCategory(category).tags}
            invalid={!!errors.tags}
            describedBy={errors.tags ? 'resource-tags-error' : undefined}
          />
        )}
      />
      {errors.tags && (
        <p id="resource-tags-error" className="text-sm font-medium text-destructive">
          {errors.tags.message ??
            errors.tags.root?.message ??
            // A tag of its own is wrong (e.g. holds a comma): its message, not a generic one.
            (Array.isArray(errors.tags) ? errors.tags.find((e) => e?.message)?.message : undefined) ??
            'Invalid tags'}
        </p>
      )}
    </Card>
  );
}

export function PremiumField({ controls: { form } }: Props) {
  return (
    <Card className="flex items-start justify-between gap-4 p-6">
      <div className="grid gap-1">
        <Label htmlFor="resource-premium">Premium resource</Label>
        <p id="resource-premium-hint" className="text-xs text-muted-foreground">
          Shows a Premium badge and joins the premium showcase.
        </p>
      </div>
      <Controller
        control={form.control}
        name="is_premium"
        render={({ field: f }) => (
          <Switch id="resource-premium" aria-describedby="resource-premium-hint" checked={f.value ?? false} onCheckedChange={f.onChange} />
        )}
      />
    </Card>
  );
}

export function LicenceCard({ controls: { form } }: Props) {
  return (
    <Card className="p-6">
      <Controller
        control={form.control}
        name="licence"
        render={({ field: f, fieldState }) => (
          <LicenceField
            value={f.value ?? { kind: DEFAULT_LICENCE_KIND }}
            onChange={f.onChange}
            selectRef={f.ref}
            error={fieldState.error?.message ?? licenceError(fieldState.error)}
          />
        )}
      />
    </Card>
  );
}

/** The message of an error on the licence's credit line or text (react-hook-form nests it by field). */
function licenceError(error: unknown): string | undefined {
  const nested = error as { credit?: { message?: string }; text?: { message?: string } } | undefined;
  return nested?.credit?.message ?? nested?.text?.message;
}

type AppsValue = { id: AppId; min_version: string }[] | null;

/**
 * The apps the resource works in: deduced from its download's files (shown), or the admin's own
 * list with a minimum version each (docs/decisions/438-the-admins-apps-replace-the-deduced-ones.md).
 */
export function AppsCard({ controls: { form }, deduced }: Props & { deduced: readonly ResourceApp[] }) {
  return (
    <Card className="p-6">
      <Controller
        control={form.control}
        name="apps"
        render={({ field: f, fieldState }) => {
          const value = (f.value ?? null) as AppsValue;
          if (value === null) {
            return (
              <fieldset className="grid gap-2">
                <legend className="text-sm font-medium">Works in</legend>
                <p className="text-xs text-muted-foreground">
                  {deduced.length > 0 ? `Deduced from the download’s files: ${deduced.map((a) => a.label).join(', ')}.` : 'Deduced from the download’s files once it is read; none yet.'}
                </p>
                <div>
                  <Button type="button" variant="outline" size="sm" onClick={() => f.onChange(deduced.map((a) => ({ id: a.id, min_version: a.min_version ?? '' })))}>
                    Correct the list
                  </Button>
                </div>
              </fieldset>
            );
          }
          const toggle = (id: AppId, on: boolean) =>
            f.onChange(on ? APP_IDS.filter((a) => a === id || value.some((v) => v.id === a)).map((a) => value.find((v) => v.id === a) ?? { id: a, min_version: '' }) : value.filter((v) => v.id !== id));
          return (
            <fieldset className="grid gap-3">
              <legend className="text-sm font-medium">Works in</legend>
              <ul className="grid gap-2">
                {APP_IDS.map((id) => {
                  const item = value.find((v) => v.id === id);
                  return (
                    <li key={id} className="grid gap-1.5">
                      <label className="inline-flex items-center gap-2 text-sm">
                        <input type="checkbox" className="size-4 accent-primary" checked={Boolean(item)} onChange={(e) => toggle(id, e.target.checked)} />
                        {APP_LABELS[id]}
                      </label>
                      {item && (
                        <Input
                          aria-label={`Minimum version of ${APP_LABELS[id]}`}
                          placeholder="Minimum version (optional)"
                          className="ml-6 h-8 w-auto text-sm"
                          value={item.min_version}
                          maxLength={32}
                          onChange={(e) => f.onChange(value.map((v) => (v.id === id ? { ...v, min_version: e.target.value } : v)))}
                        />
                      )}
                    </li>
                  );
                })}
              </ul>
              {fieldState.error && <p className="text-xs text-destructive">{fieldState.error.message ?? 'Check the apps'}</p>}
              <div>
                <Button type="button" variant="ghost" size="sm" onClick={() => f.onChange(null)}>
                  Use the deduced apps
                </Button>
              </div>
            </fieldset>
          );
        }}
      />
    </Card>
  );
}
