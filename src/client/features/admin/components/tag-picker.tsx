import { TAG_MAX, TAGS_MAX } from '@contract/constants';
import { Check, Plus, X } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/primitives';
import { cn } from '@/lib/utils';

const same = (a: string, b: string) => a.toLocaleLowerCase() === b.toLocaleLowerCase();

/** Tags as chips: the category's suggestions toggle on and off, free text adds more. */
export function TagPicker({
  id,
  value,
  onChange,
  suggestions,
  invalid,
  describedBy,
}: {
  id: string;
  value: string[];
  onChange(tags: string[]): void;
  suggestions: readonly string[];
  invalid?: boolean;
  describedBy?: string;
}) {
  const [draft, setDraft] = React.useState('');
  const has = (tag: string) => value.some((t) => same(t, tag));
  const full = value.length >= TAGS_MAX;
  const custom = value.filter((t) => !suggestions.some((s) => same(s, t)));

  const toggle = (tag: string) => onChange(has(tag) ? value.filter((t) => !same(t, tag)) : [...value, tag]);
  const add = () => {
    const tag = draft.trim().replace(/\s+/g, ' ');
    if (!tag || full) return;
    if (!has(tag)) onChange([...value, tag]);
    setDraft('');
  };

  return (
    <div className="grid gap-3">
      <div role="group" aria-label="Suggested tags" className="flex flex-wrap gap-2">
        {suggestions.map((tag) => {
          const on = has(tag);
          return (
            <button
              key={tag}
              type="button"
              aria-pressed={on}
              disabled={!on && full}
              onClick={() => toggle(tag)}
              className={cn(
                'inline-flex items-center gap-1 rounded-full border px-3 py-1 text-xs font-medium transition-colors outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:opacity-50',
                on
                  ? 'border-transparent bg-primary text-primary-foreground hover:bg-primary/90'
                  : 'bg-background text-foreground hover:bg-accent hover:text-accent-foreground',
              )}
            >
              {on && <Check className="size-3" aria-hidden="true" />}
              {tag}
            </button>
          );
        })}
      </div>
      {custom.length > 0 && (
        <ul aria-label="Custom tags" className="flex flex-wrap gap-2">
          {custom.map((tag) => (
            <li
              key={tag}
              className="inline-flex items-center gap-1 rounded-full bg-secondary py-1 pl-3 pr-1 text-xs font-medium text-secondary-foreground"
            >
              {tag}
              <button
                type="button"
                aria-label={`Remove tag ${tag}`}
                onClick={() => toggle(tag)}
                className="grid size-5 place-items-center rounded-full hover:bg-background/60 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              >
                <X className="size-3" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="flex gap-2">
        <Input
          id={id}
          value={draft}
          maxLength={TAG_MAX}
          placeholder="Add a tag, press Enter"
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          disabled={full}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' || e.key === ',') {
              e.preventDefault();
              add();
            }
          }}
        />
        <Button type="button" variant="secondary" onClick={add} disabled={!draft.trim() || full}>
          <Plus aria-hidden="true" /> Add
        </Button>
      </div>
      <p className="text-xs text-muted-foreground">
        {value.length}/{TAGS_MAX} tags selected
      </p>
    </div>
  );
}
