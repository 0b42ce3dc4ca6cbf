import { type CategoryValue, getCategory } from '@contract/categories';
import { DEFAULT_LICENCE_KIND } from '@contract/resource-page';
import { Controller } from 'react-hook-form';
import { Card, Label } from '@/components/ui/primitives';
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
