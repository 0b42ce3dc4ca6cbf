import { LICENCE_KINDS, LICENCE_LABELS, type LicenceKind } from '@contract/resource-page';
import type { Licence } from '@contract/resource-page';
import * as React from 'react';
import { Label, Textarea } from '@/components/ui/primitives';

/** What each kind's text is called; kinds without one have no text box. */
const TEXT_LABELS: Partial<Record<LicenceKind, { label: string; placeholder: string }>> = {
  attribution: { label: 'Credit line', placeholder: 'e.g. "Light leaks by Jane Doe (janedoe.example)"' },
  custom: { label: 'Licence text', placeholder: 'The terms visitors must follow' },
};

function withKind(kind: LicenceKind, text: string): Licence {
  if (kind === 'attribution') return { kind, credit: text };
  if (kind === 'custom') return { kind, text };
  return { kind };
}

const textOf = (l: Licence) => (l.kind === 'attribution' ? l.credit : l.kind === 'custom' ? l.text : '');

/** The licence picker of the resource form: a kind, and the credit line or custom text it needs. */
export function LicenceField({
  value,
  onChange,
  error,
  selectRef,
}: {
  value: Licence;
  onChange(licence: Licence): void;
  error?: string;
  selectRef?: React.Ref<HTMLSelectElement>;
}) {
  // Kept while switching kinds, so a credit line typed is not lost by a mis-click.
  const [text, setText] = React.useState(textOf(value));
  const needs = TEXT_LABELS[value.kind];
  return (
    <div className="grid gap-3">
      <div className="grid gap-2">
        <Label htmlFor="resource-licence">Licence</Label>
        <select
          id="resource-licence"
          ref={selectRef}
          value={value.kind}
          onChange={(e) => onChange(withKind(e.target.value as LicenceKind, text))}
          aria-invalid={error && !needs ? true : undefined}
          className="h-10 rounded-md border border-input bg-background px-3 text-sm shadow-xs focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
        >
          {LICENCE_KINDS.map((k) => (
            <option key={k} value={k}>
              {LICENCE_LABELS[k]}
            </option>
          ))}
        </select>
      </div>
      {needs && (
        <div className="grid gap-2">
          <Label htmlFor="resource-licence-text">{needs.label}</Label>
          <Textarea
            id="resource-licence-text"
            rows={3}
            value={text}
            placeholder={needs.placeholder}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'resource-licence-error' : undefined}
            onChange={(e) => {
              setText(e.target.value);
              onChange(withKind(value.kind, e.target.value));
            }}
          />
        </div>
      )}
      {error && (
        <p id="resource-licence-error" className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
