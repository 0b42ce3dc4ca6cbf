import { ChevronDown, SlidersHorizontal, X } from 'lucide-react';
import type { ResourceFacets } from '@contract/resources';
import * as React from 'react';
import { cn } from '@/lib/utils';
import { countLabel, FACET_CHIP_LABELS, type FactFilters, facetControls, factChips } from './fact-filters';

/**
 * The fact filters (app, format, duration, orientation, minimum resolution) as labelled native
 * selects: keyboard- and screen-reader-usable as they are, a phone's own picker on a phone. Each
 * value says how many resources choosing it gives. On a phone they fold behind a "Filters" button.
 */
export function FacetFilters({
  facts,
  facets,
  onChange,
  buttonClassName,
  panelClassName,
}: {
  facts: FactFilters;
  facets: ResourceFacets | undefined;
  onChange(facts: FactFilters): void;
  /** The phone's "Filters" button and the selects are two boxes of the parent's layout (a grid's cells). */
  buttonClassName?: string;
  panelClassName?: string;
}) {
  const [open, setOpen] = React.useState(false);
  const panelId = React.useId();
  const controls = facetControls(facts, facets);
  const chosen = controls.filter((c) => c.value !== '').length;
  return (
    <>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
        className={cn(
          'inline-flex h-8 cursor-pointer items-center gap-1.5 justify-self-start rounded-full border bg-card px-3.5 text-sm font-medium shadow-sm hover:bg-accent focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 sm:hidden',
          buttonClassName,
        )}
      >
        <SlidersHorizontal aria-hidden="true" className="size-4" />
        Filters
        {chosen > 0 && (
          <span className="rounded-full bg-primary px-1.5 text-xs text-primary-foreground">
            {chosen}
            <span className="sr-only"> chosen</span>
          </span>
        )}
        <ChevronDown aria-hidden="true" className={cn('size-4 transition-transform', open && 'rotate-180')} />
      </button>
      <div
        id={panelId}
        role="group"
        aria-label="Filter by what the files are"
        className={cn('min-w-0 grid-cols-2 gap-2 sm:flex sm:flex-wrap', open ? 'grid' : 'hidden', panelClassName)}
      >
        {controls.map((c) => {
          const id = `facet-${c.key}`;
          return (
            <div key={c.key} className="relative min-w-0">
              <label htmlFor={id} className="sr-only">
                {c.label}
              </label>
              <select
                id={id}
                value={c.value}
                disabled={c.options.length === 0}
                onChange={(e) => onChange(c.choose(e.target.value))}
                className={cn(
                  // A fixed width: the counts arriving must not reflow the bar (and move the cards below).
                  'h-9 w-full cursor-pointer appearance-none truncate rounded-full border pl-3.5 pr-8 text-sm font-medium shadow-sm transition-colors focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:cursor-default disabled:opacity-50 sm:w-44',
                  c.value ? 'border-primary/50 bg-primary/10 text-foreground' : 'border-input bg-card hover:bg-accent',
                )}
              >
                <option value="">{c.anyLabel}</option>
                {c.options.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                    {o.count !== undefined && ` (${countLabel(o.count, facets?.exact)})`}
                  </option>
                ))}
              </select>
              <ChevronDown aria-hidden="true" className="pointer-events-none absolute right-2.5 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
            </div>
          );
        })}
      </div>
    </>
  );
}

/** The chosen fact filters, each removable on its own. */
export function FactChips({ facts, onChange }: { facts: FactFilters; onChange(facts: FactFilters): void }) {
  const chips = factChips(facts);
  if (chips.length === 0) return null;
  return (
    <ul aria-label="Chosen filters" className="flex flex-wrap gap-2">
      {chips.map((chip) => (
        <li key={chip.key}>
          <button
            type="button"
            onClick={() => onChange(chip.remove)}
            aria-label={`Remove filter ${FACET_CHIP_LABELS[chip.key]}: ${chip.label}`}
            className="inline-flex h-8 cursor-pointer items-center gap-1.5 rounded-full border border-primary/40 bg-primary/10 pl-3 pr-2 text-sm font-medium text-foreground transition-colors hover:bg-primary/20 focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
          >
            <span className="text-muted-foreground">{FACET_CHIP_LABELS[chip.key]}:</span> {chip.label}
            <X aria-hidden="true" className="size-3.5" />
          </button>
        </li>
      ))}
    </ul>
  );
}
