import type { Announcement } from '@contract/announcements';
import { ANNOUNCEMENT_MAX } from '@contract/constants';
import { CalendarClock, LogIn, Megaphone, Plus, Trash2 } from 'lucide-react';
import * as React from 'react';
import { Link } from '@/lib/link';
import { Button } from '@/components/ui/button';
import { Badge, Card, Label, Skeleton, Spinner, Textarea } from '@/components/ui/primitives';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/use-toast';
import { paths } from '@/lib/paths';
import { cn } from '@/lib/utils';
import { useCreateAnnouncement } from '../api/create-announcement';
import { useDeleteAnnouncement } from '../api/delete-announcement';
import { useAnnouncements } from '../api/get-announcements';
import { useUpdateAnnouncement } from '../api/update-announcement';
import { BackToDashboard } from '../components/back-to-dashboard';
import { ConfirmDialog } from '../components/confirm-dialog';
import { PageHeader } from '../components/page-header';
import { QueryError } from '../components/query-error';
import { useAdminTitle } from '../components/use-admin-title';
import { useErrorToast } from '../components/use-error-toast';
import { errorMessage, isSessionError } from '../lib/errors';
import { formatShortDate } from '../lib/format';
import { browserTimeZone, formatZonedShort } from '../lib/zoned-time';
import { useSession } from '../session/session';
import { WindowDialog } from '../announcements/window-dialog';
import { useWindowFields } from '../announcements/window-fields';

export function AnnouncementsPage() {
  useAdminTitle('Announcements');
  const { admin } = useSession();
  // The guard normally redirects first; this shows if the session ends while the page is open.
  if (!admin) {
    return (
      <Card className="mx-auto flex max-w-md flex-col items-center gap-4 p-10 text-center">
        <p className="text-lg font-semibold">Please log in to manage announcements</p>
        <Button asChild>
          <Link to={paths.admin.login}>
            <LogIn aria-hidden="true" /> Go to login
          </Link>
        </Button>
      </Card>
    );
  }
  return <Announcements />;
}

function Announcements() {
  const list = useAnnouncements();
  useErrorToast(list.error, 'Failed to fetch announcements');
  const remove = useDeleteAnnouncement();
  const [pendingDelete, setPendingDelete] = React.useState<Announcement | null>(null);
  const [editing, setEditing] = React.useState<Announcement | null>(null);
  const items = list.data?.items;
  const active = items?.filter((a) => a.is_active).length ?? 0;

  const confirmDelete = () => {
    if (!pendingDelete) return;
    remove.mutate(pendingDelete.id, {
      onSuccess: () => toast({ title: 'Announcement deleted successfully', variant: 'success' }),
      onError: (err) => {
        if (!isSessionError(err)) toast({ title: 'Failed to delete announcement', description: errorMessage(err), variant: 'destructive' });
      },
      onSettled: () => setPendingDelete(null),
    });
  };

  return (
    <>
      <PageHeader
        title="Announcements"
        description="Active announcements appear in the bell on every public page, newest first."
        actions={<BackToDashboard />}
      />
      <div className="grid gap-6 lg:grid-cols-5">
        <div className="lg:col-span-2">
          <AddAnnouncement />
        </div>
        <section aria-labelledby="announcement-list-heading" className="lg:col-span-3">
          <div className="mb-3 flex items-baseline justify-between gap-2">
            <h2 id="announcement-list-heading" className="text-xl font-semibold tracking-tight">
              All announcements
            </h2>
            {items && (
              <p className="text-sm text-muted-foreground">
                {active} active of {items.length}
              </p>
            )}
          </div>
          {list.isError ? (
            <QueryError title="Failed to fetch announcements" error={list.error} onRetry={() => list.refetch()} />
          ) : !items ? (
            <div className="grid gap-3">
              {Array.from({ length: 3 }, (_, i) => (
                <Skeleton key={i} className="h-24" />
              ))}
            </div>
          ) : items.length === 0 ? (
            <Card className="flex flex-col items-center gap-2 p-10 text-center">
              <Megaphone className="size-8 text-muted-foreground" aria-hidden="true" />
              <p className="font-semibold">No announcements yet</p>
              <p className="text-sm text-muted-foreground">Write the first one on the left.</p>
            </Card>
          ) : (
            <ul className="grid gap-3">
              {items.map((a) => (
                <AnnouncementItem key={a.id} announcement={a} onDelete={() => setPendingDelete(a)} onEditWindow={() => setEditing(a)} />
              ))}
            </ul>
          )}
        </section>
      </div>
      <WindowDialog announcement={editing} onOpenChange={(open) => !open && setEditing(null)} />
      <ConfirmDialog
        open={pendingDelete !== null}
        onOpenChange={(open) => !open && setPendingDelete(null)}
        title="Are you sure you want to delete this announcement?"
        description={<>“{pendingDelete?.message}” will disappear from the bell and this list for good.</>}
        pending={remove.isPending}
        onConfirm={confirmDelete}
      />
    </>
  );
}

function AnnouncementItem({ announcement: a, onDelete, onEditWindow }: { announcement: Announcement; onDelete(): void; onEditWindow(): void }) {
  const update = useUpdateAnnouncement();
  const switchId = `announcement-active-${a.id}`;
  const toggle = (is_active: boolean) =>
    update.mutate(
      { id: a.id, patch: { is_active } },
      {
        onError: (err) => {
          if (!isSessionError(err)) toast({ title: 'Failed to update announcement', description: errorMessage(err), variant: 'destructive' });
        },
      },
    );

  return (
    <li>
      <Card
        className={cn(
          'flex gap-4 border-l-4 p-4 transition-colors',
          a.is_active ? 'border-l-violet-500' : 'border-l-transparent bg-muted/40',
        )}
      >
        <div className="min-w-0 flex-1">
          <p className={cn('whitespace-pre-line break-words', !a.is_active && 'text-muted-foreground')}>{a.message}</p>
          <div className="mt-2 flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
            <Badge variant={a.is_active ? 'default' : 'outline'}>{a.is_active ? 'Active' : 'Inactive'}</Badge>
            <LiveBadge announcement={a} />
            <span>Created {formatShortDate(a.created_at)}</span>
            {(a.starts_at || a.ends_at) && <span>{windowText(a, browserTimeZone())}</span>}
          </div>
        </div>
        <div className="flex shrink-0 flex-col items-end justify-between gap-3">
          <div className="flex items-center gap-2">
            <Label htmlFor={switchId} className="text-xs text-muted-foreground">
              Active
            </Label>
            <Switch
              id={switchId}
              aria-label={`Active: ${a.message.slice(0, 60)}`}
              checked={a.is_active}
              disabled={update.isPending}
              onCheckedChange={toggle}
            />
          </div>
          <div className="flex items-center gap-1">
            <Button
              variant="ghost"
              size="icon"
              className="size-8 text-muted-foreground"
              aria-label={`When it shows: ${a.message.slice(0, 60)}`}
              title="When it shows"
              onClick={onEditWindow}
            >
              <CalendarClock aria-hidden="true" />
            </Button>
            <Button
              variant="ghost"
              size="icon"
              className="size-8 text-destructive hover:bg-destructive/10 hover:text-destructive"
              aria-label={`Delete announcement: ${a.message.slice(0, 60)}`}
              onClick={onDelete}
            >
              <Trash2 aria-hidden="true" />
            </Button>
          </div>
        </div>
      </Card>
    </li>
  );
}

/** Where an announcement stands against the clock: in the bell now, not yet, or no longer. */
function announcementPhase(a: Pick<Announcement, 'is_active' | 'starts_at' | 'ends_at'>, now: number): 'live' | 'upcoming' | 'ended' | 'off' {
  if (!a.is_active) return 'off';
  if (a.starts_at && Date.parse(a.starts_at) > now) return 'upcoming';
  if (a.ends_at && Date.parse(a.ends_at) <= now) return 'ended';
  return 'live';
}

/** `From Dec 1, 2026, 9:00 AM until Dec 8, 2026, 6:00 PM`, or one side of it. */
function windowText(a: Pick<Announcement, 'starts_at' | 'ends_at'>, timeZone: string): string {
  const from = a.starts_at ? `From ${formatZonedShort(a.starts_at, timeZone)}` : '';
  const until = a.ends_at ? `${from ? ' until' : 'Until'} ${formatZonedShort(a.ends_at, timeZone)}` : '';
  return from + until;
}

/** The bell follows the window within seconds; the list says where each one is now (read when the list renders). */
function LiveBadge({ announcement }: { announcement: Announcement }) {
  const phase = announcementPhase(announcement, Date.now());
  if (phase === 'off') return null;
  if (phase === 'live') {
    return <Badge className="border-transparent bg-emerald-700 text-white dark:bg-emerald-400 dark:text-emerald-950">Live now</Badge>;
  }
  return (
    <Badge variant="outline" className="text-muted-foreground">
      {phase === 'upcoming' ? 'Not started' : 'Ended'}
    </Badge>
  );
}

function AddAnnouncement() {
  const [message, setMessage] = React.useState('');
  const timeZone = React.useMemo(browserTimeZone, []);
  const when = useWindowFields('announcement', timeZone);
  const create = useCreateAnnouncement();
  const trimmed = message.trim();
  const tooLong = message.length > ANNOUNCEMENT_MAX;
  const canSend = trimmed.length > 0 && !tooLong && !create.isPending;

  const onSubmit = (e: React.FormEvent) => {
    e.preventDefault();
    // Spec: nothing is sent for an empty (after trimming) message.
    if (!canSend) return;
    const shown = when.read(undefined);
    if (!shown) return;
    create.mutate(
      { message: trimmed, ...shown },
      {
        onSuccess: () => {
          setMessage('');
          when.reset();
          toast({ title: 'Announcement added successfully', variant: 'success' });
        },
        onError: (err) => {
          when.showServerError(err);
          if (!isSessionError(err)) toast({ title: 'Failed to add announcement', description: errorMessage(err), variant: 'destructive' });
        },
      },
    );
  };

  return (
    <Card className="p-6">
      <form onSubmit={onSubmit} className="grid gap-3">
        <Label htmlFor="announcement-message" className="text-base font-semibold">
          New announcement
        </Label>
        <Textarea
          id="announcement-message"
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          rows={5}
          placeholder="e.g. 50 new LUTs just landed in Color Grading!"
          aria-describedby="announcement-counter"
          aria-invalid={tooLong || undefined}
        />
        <p
          id="announcement-counter"
          className={cn('-mt-1 text-right text-xs tabular-nums', tooLong ? 'font-medium text-destructive' : 'text-muted-foreground')}
        >
          {message.length}/{ANNOUNCEMENT_MAX}
          {tooLong && ' (too long)'}
        </p>
        <fieldset className="grid gap-3 rounded-lg border p-3">
          <legend className="px-1 text-sm font-medium">Show it (optional)</legend>
          {when.fields}
        </fieldset>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-xs text-muted-foreground">New announcements are active at once, in the bell from their start.</p>
          <Button type="submit" variant="gradient" disabled={!canSend}>
            {create.isPending ? <Spinner /> : <Plus aria-hidden="true" />}
            Add Announcement
          </Button>
        </div>
      </form>
    </Card>
  );
}
