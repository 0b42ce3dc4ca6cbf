import type { LucideIcon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { cn } from '@/lib/utils';

export interface StatDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** The card's button: focus goes back to it when the dialog closes. */
  trigger: React.RefObject<HTMLButtonElement | null>;
  label: string;
  icon: LucideIcon;
  gradient: string;
  /** Formatted figure with its suffix. */
  total: string;
  /** The figure is a rate (a percentage), not a count. */
  rate: boolean;
  figures: { period: string; value: string }[];
}

/** A stat card's details (its own chunk: the dialog code loads on the first open, not with the page). */
export default function StatDialog({ open, onOpenChange, trigger, label, icon: Icon, gradient, total, rate, figures }: StatDialogProps) {
  // A count has a total; a rate (Monthly Growth: its figure is this month's) has none.
  const summary = rate ? `Up ${total} this month. Growth by period:` : `${total} in total. Recent growth:`;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        hideClose
        className="max-w-md"
        onCloseAutoFocus={(e) => {
          e.preventDefault();
          trigger.current?.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle className="flex items-center gap-3">
            <span className={cn('grid size-9 place-items-center rounded-lg bg-gradient-to-br text-white', gradient)}>
              <Icon className="size-5" aria-hidden="true" />
            </span>
            {label}
          </DialogTitle>
          <DialogDescription>{summary}</DialogDescription>
        </DialogHeader>
        <dl className="grid grid-cols-3 gap-3">
          {figures.map(({ period, value }) => (
            <div key={period} className="rounded-xl border bg-muted/50 p-3 text-center">
              <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{period}</dt>
              <dd className="mt-1 text-xl font-bold tabular-nums">{value}</dd>
            </div>
          ))}
        </dl>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Close</Button>
          </DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
