import type { BulkRequest } from '@contract/bulk';
import type { CategoryValue } from '@contract/categories';
import { EyeOff, FolderInput, type LucideIcon, Send, Star, StarOff, Tag, Tags, Trash2, X } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/primitives';
import { toast } from '@/components/ui/use-toast';
import { useBulkResources } from '../api/bulk-resources';
import { ConfirmDialog } from '../components/confirm-dialog';
import { errorMessage, isSessionError } from '../lib/errors';
import { formatNumber } from '../lib/format';
import { MoveDialog, TagsDialog } from './bulk-dialogs';
import { bulkSummary } from './bulk-summary';
import { PAGE_BOX_ID } from './select-box';

type Asking = 'move' | 'add_tags' | 'remove_tags' | 'trash' | null;

interface BarButton {
  label: string;
  icon: LucideIcon;
  variant?: 'gradient' | 'destructive' | 'ghost' | 'outline';
  className?: string;
  onClick(): void;
}

/**
 * The bar under the admin list while resources are selected: how many, the bulk actions and
 * Clear. Move and the tag actions ask first, trash confirms as a delete does; each action ends
 * with a toast saying what was done and what failed, and the ids done leave the selection.
 * The count is announced (a polite live region that stays mounted, so every change is read).
 */
export function BulkActionBar({
  category,
  ids,
  titles,
  onDone,
  onClear,
}: {
  category: CategoryValue;
  /** The selected ids, in the order to send them. */
  ids: readonly number[];
  /** Titles of the resources known on screen, to name failures. */
  titles: ReadonlyMap<number, string>;
  /** The ids the action was done to. */
  onDone(ids: number[]): void;
  onClear(): void;
}) {
  const bulk = useBulkResources(category);
  const [asking, setAsking] = React.useState<Asking>(null);
  // The tag dialog keeps its wording while it closes.
  const [tagMode, setTagMode] = React.useState<'add' | 'remove'>('add');
  const askTags = (mode: 'add' | 'remove') => {
    setTagMode(mode);
    setAsking(mode === 'add' ? 'add_tags' : 'remove_tags');
  };
  const count = ids.length;
  const pending = bulk.isPending;

  // An action that empties the selection takes the bar, and the focused button, away: focus goes to
  // the list's page box, after a closing dialog has tried to give it back to its (gone) opener.
  const acted = React.useRef(false);
  React.useEffect(() => {
    if (count > 0 || !acted.current) return;
    acted.current = false;
    const timer = window.setTimeout(() => document.getElementById(PAGE_BOX_ID)?.focus());
    return () => window.clearTimeout(timer);
  }, [count]);

  const run = (action: Omit<BulkRequest, 'ids'>) => {
    const body = { ...action, ids: [...ids] } as BulkRequest;
    bulk.mutate(body, {
      onSuccess: (response) => {
        const summary = bulkSummary(body, response, titles);
        toast({
          title: summary.title,
          description: summary.failures.length > 0 ? (
            <ul className="grid gap-0.5">
              {summary.failures.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          ) : undefined,
          variant: summary.variant,
        });
        acted.current = true;
        onDone(response.results.flatMap((r) => (r.ok ? [r.id] : [])));
      },
      onError: (err) => {
        if (!isSessionError(err)) toast({ title: 'Failed to update resources', description: errorMessage(err), variant: 'destructive' });
      },
      onSettled: () => setAsking(null),
    });
  };

  const buttons: BarButton[] = [
    { label: 'Publish', icon: Send, variant: 'gradient', onClick: () => run({ action: 'publish' }) },
    { label: 'Unpublish', icon: EyeOff, onClick: () => run({ action: 'unpublish' }) },
    { label: 'Move…', icon: FolderInput, onClick: () => setAsking('move') },
    { label: 'Add tags…', icon: Tags, onClick: () => askTags('add') },
    { label: 'Remove tags…', icon: Tag, onClick: () => askTags('remove') },
    { label: 'Premium', icon: Star, onClick: () => run({ action: 'premium' }) },
    { label: 'Not premium', icon: StarOff, onClick: () => run({ action: 'not_premium' }) },
    { label: 'Delete', icon: Trash2, variant: 'destructive', onClick: () => setAsking('trash') },
    { label: 'Clear', icon: X, variant: 'ghost', className: 'ml-auto', onClick: onClear },
  ];
  const few = count === 1;
  return (
    <>
      <p className="sr-only" aria-live="polite">
        {count > 0 ? `${formatNumber(count)} selected` : ''}
      </p>
      {count > 0 && (
        <div
          role="region"
          aria-label="Bulk actions"
          className="sticky bottom-4 z-30 mt-4 flex flex-wrap items-center gap-2 rounded-xl border bg-background/95 p-3 shadow-lg backdrop-blur supports-[backdrop-filter]:bg-background/80"
        >
          <p className="mr-2 flex items-center gap-2 text-sm font-semibold tabular-nums">
            {pending && <Spinner />}
            {formatNumber(count)} selected
          </p>
          {buttons.map(({ label, icon: Icon, variant = 'outline', className, onClick }) => (
            // On a phone the icons alone (the label stays the button's name, and its tooltip).
            <Button key={label} size="sm" variant={variant} className={className} disabled={pending} title={label} onClick={onClick}>
              <Icon aria-hidden="true" /> <span className="max-sm:sr-only">{label}</span>
            </Button>
          ))}
        </div>
      )}

      <MoveDialog open={asking === 'move'} onOpenChange={(open) => !open && setAsking(null)} from={category} count={count} pending={pending} onMove={(to) => run({ action: 'move', category: to })} />
      <TagsDialog
        open={asking === 'add_tags' || asking === 'remove_tags'}
        onOpenChange={(open) => !open && setAsking(null)}
        mode={tagMode}
        category={category}
        count={count}
        pending={pending}
        onApply={(tags) => run({ action: tagMode === 'remove' ? 'remove_tags' : 'add_tags', tags })}
      />
      <ConfirmDialog
        open={asking === 'trash'}
        onOpenChange={(open) => !open && setAsking(null)}
        title={few ? 'Are you sure you want to delete this resource?' : `Are you sure you want to delete these ${formatNumber(count)} resources?`}
        description={few ? 'It leaves the site at once.' : 'They leave the site at once.'}
        pending={pending}
        onConfirm={() => run({ action: 'trash' })}
      />
    </>
  );
}
