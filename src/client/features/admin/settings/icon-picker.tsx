import { COMMUNITY_ICONS } from '@contract/settings';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { SOCIAL_ICONS } from '@/lib/social-icon';
import { fieldError } from './fields';

/** One of the nine icons, as a row of radios (Tab reaches the group, arrow keys move within it). */
export function IconPicker<V extends FieldValues>({ form, name, id, label = 'Icon' }: { form: UseFormReturn<V>; name: Path<V>; id: string; label?: string }) {
  const error = fieldError(form, name);
  return (
    <fieldset className="grid gap-2" aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="mb-2 text-sm font-medium leading-none">{label}</legend>
      <div className="flex flex-wrap gap-1.5">
        {COMMUNITY_ICONS.map((icon) => {
          const { icon: Icon, label: iconLabel } = SOCIAL_ICONS[icon];
          return (
            <label key={icon} className="relative" title={iconLabel}>
              <input type="radio" value={icon} {...form.register(name)} className="peer absolute inset-0 size-full cursor-pointer appearance-none rounded-lg opacity-0" />
              <span className="grid size-10 place-items-center rounded-lg border bg-background text-muted-foreground transition-colors peer-checked:border-primary peer-checked:bg-primary/10 peer-checked:text-primary peer-focus-visible:ring-[3px] peer-focus-visible:ring-ring/50 peer-hover:bg-muted">
                <Icon aria-hidden="true" className="size-5" />
                <span className="sr-only">{iconLabel}</span>
              </span>
            </label>
          );
        })}
      </div>
      {error && (
        <p id={`${id}-error`} className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
    </fieldset>
  );
}
