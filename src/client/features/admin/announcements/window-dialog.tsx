import type { Announcement } from '@contract/announcements';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/primitives';
import { toast } from '@/components/ui/use-toast';
import { useUpdateAnnouncement } from '../api/update-announcement';
import { errorMessage, isSessionError } from '../lib/errors';
import { browserTimeZone } from '../lib/zoned-time';
import { useWindowFields } from './window-fields';

/**
 * "Edit when it shows" for an announcement already written: its From / Until in the admin's zone,
 * saved with one PATCH (an emptied side is cleared). The bell follows within seconds.
 */
export function WindowDialog({ announcement, onOpenChange }: { announcement: Announcement | null; onOpenChange(open: boolean): void }) {
  const timeZone = React.useMemo(browserTimeZone, []);
  const when = useWindowFields('announcement-edit', timeZone);
  const update = useUpdateAnnouncement();
  const open = announcement !== null;

  // Each opening starts from the announcement's own window.
  const openedFor = React.useRef<number | null>(null);
  React.useEffect(() => {
    if (announcement && openedFor.current !== announcement.id) when.reset(announcement);
    openedFor.current = announcement?.id ?? null;
  }, [announcement, when]);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!announcement) return;
    const body = when.read(null);
    if (!body) return;
    update.mutate(
      { id: announcement.id, patch: body },
      {
        onSuccess: () => {
          toast({ title: 'Announcement updated', variant: 'success' });
          onOpenChange(false);
        },
        onError: (err) => {
          when.showServerError(err);
          if (!isSessionError(err)) toast({ title: 'Failed to update announcement', description: errorMessage(err), variant: 'destructive' });
        },
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent aria-describedby="announcement-edit-description">
        <form onSubmit={submit} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>When it shows</DialogTitle>
            <DialogDescription id="announcement-edit-description" className="line-clamp-2 break-words">
              “{announcement?.message}”
            </DialogDescription>
          </DialogHeader>
          {when.fields}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={update.isPending}>
              {update.isPending && <Spinner />}
              Save
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
