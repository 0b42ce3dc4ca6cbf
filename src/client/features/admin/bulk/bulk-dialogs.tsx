import { ADMIN_CATEGORIES, type CategoryValue, getCategory } from '@contract/categories';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/primitives';
import { formatCount } from '@/lib/format';
import { FormField } from '../components/form-field';
import { TagPicker } from '../components/tag-picker';

const MOVE_FIELD = 'bulk-move-category';
const TAGS_FIELD = 'bulk-tags';

/** "Move…": the category the selected resources go to (any but the one they are listed in). */
export function MoveDialog({
  open,
  onOpenChange,
  from,
  count,
  pending,
  onMove,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  from: CategoryValue;
  count: number;
  pending: boolean;
  onMove(category: CategoryValue): void;
}) {
  const choices = ADMIN_CATEGORIES.filter((c) => c.value !== from);
  const [to, setTo] = React.useState<CategoryValue>(choices[0]!.value);
  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogContent aria-describedby="bulk-move-description">
        <DialogHeader>
          <DialogTitle>Move {formatCount(count, 'resource')}</DialogTitle>
          <DialogDescription id="bulk-move-description">They leave {getCategory(from).title} for the category you choose, with everything else kept.</DialogDescription>
        </DialogHeader>
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            onMove(to);
          }}
        >
          <FormField id={MOVE_FIELD} label="Move to" required>
            <select
              id={MOVE_FIELD}
              value={to}
              onChange={(e) => setTo(e.target.value as CategoryValue)}
              className="h-10 w-full rounded-md border border-input bg-background px-3 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50"
            >
              {choices.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.title}
                </option>
              ))}
            </select>
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" disabled={pending} onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" variant="gradient" disabled={pending}>
              {pending && <Spinner />}
              Move
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** "Add tags…" / "Remove tags…": tags chosen with the form's picker (the category's suggestions, then free text). */
export function TagsDialog({
  open,
  onOpenChange,
  mode,
  category,
  count,
  pending,
  onApply,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  mode: 'add' | 'remove';
  category: CategoryValue;
  count: number;
  pending: boolean;
  onApply(tags: string[]): void;
}) {
  const [tags, setTags] = React.useState<string[]>([]);
  const [error, setError] = React.useState<string | undefined>();
  // Each opening starts with no tag chosen.
  React.useEffect(() => {
    if (open) {
      setTags([]);
      setError(undefined);
    }
  }, [open]);
  const verb = mode === 'add' ? 'Add tags' : 'Remove tags';
  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogContent aria-describedby="bulk-tags-description">
        <DialogHeader>
          <DialogTitle>
            {verb} {mode === 'add' ? 'to' : 'from'} {formatCount(count, 'resource')}
          </DialogTitle>
          <DialogDescription id="bulk-tags-description">
            {mode === 'add' ? 'Tags a resource already has are kept once.' : 'A tag is removed whatever its capitals; resources without it stay as they are.'}
          </DialogDescription>
        </DialogHeader>
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            if (tags.length === 0) {
              setError('Choose at least one tag');
              return;
            }
            onApply(tags);
          }}
        >
          <FormField id={TAGS_FIELD} label="Tags" required error={error}>
            <TagPicker
              id={TAGS_FIELD}
              value={tags}
              onChange={(next) => {
                setTags(next);
                setError(undefined);
              }}
              suggestions={getCategory(category).tags}
              invalid={error !== undefined}
              describedBy={error ? `${TAGS_FIELD}-error` : undefined}
            />
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" disabled={pending} onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" variant={mode === 'add' ? 'gradient' : 'destructive'} disabled={pending}>
              {pending && <Spinner />}
              {verb}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
