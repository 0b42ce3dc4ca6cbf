import * as React from 'react';
import { cn } from '@/lib/utils';

/**
 * A row's (or the header's) selection box: a native checkbox, so Space and the screen reader's
 * "checkbox, checked" come for free; `mixed` shows the header's "some of the page". The click
 * says whether Shift was held (a range: use-selection.ts).
 */
/** The header's box (select the page): where focus goes when an action empties the selection and its bar goes. */
export const PAGE_BOX_ID = 'bulk-select-page';

export function SelectBox({
  id,
  checked,
  mixed = false,
  label,
  onSelect,
  className,
}: {
  id?: string;
  checked: boolean;
  mixed?: boolean;
  label: string;
  onSelect(shift: boolean): void;
  className?: string;
}) {
  const ref = React.useRef<HTMLInputElement>(null);
  React.useEffect(() => {
    if (ref.current) ref.current.indeterminate = mixed;
  }, [mixed]);
  return (
    <input
      ref={ref}
      id={id}
      type="checkbox"
      aria-label={label}
      checked={checked}
      // The state is the selection's: the click decides it (with its Shift), not the box.
      onChange={() => {}}
      onClick={(e) => onSelect(e.shiftKey)}
      className={cn('size-4 cursor-pointer rounded border-input accent-primary align-middle focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50', className)}
    />
  );
}
