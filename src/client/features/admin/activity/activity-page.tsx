import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from '@contract/audit';
import { Download, History, X } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Card, Input, Label, Skeleton, Spinner } from '@/components/ui/primitives';
import { useAdmins } from '../api/get-admins';
import { type AuditFilters, auditCsvHref, useAudit } from '../api/get-audit';
import { BackToDashboard } from '../components/back-to-dashboard';
import { PageHeader } from '../components/page-header';
import { QueryError } from '../components/query-error';
import { useAdminTitle } from '../components/use-admin-title';
import { useErrorToast } from '../components/use-error-toast';
import { useSession } from '../session/session';
import { actionLabel } from './activity-labels';
import { AuditEntryList } from './audit-entry-list';

const SELECT =
  'h-10 w-full rounded-md border border-input bg-background px-3 text-sm shadow-xs focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50';

interface FormFilters {
  actor: string;
  action: string;
  targetType: string;
  targetId: string;
  /** Days (YYYY-MM-DD) in the admin's own time zone, both included. */
  fromDay: string;
  toDay: string;
}
const EMPTY: FormFilters = { actor: '', action: '', targetType: '', targetId: '', fromDay: '', toDay: '' };

/** A local day's start as an instant; `next`: the start of the day after (the range's end is exclusive). */
function dayStart(day: string, next = false): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const d = new Date(`${day}T00:00:00`);
  if (Number.isNaN(d.getTime())) return undefined;
  if (next) d.setDate(d.getDate() + 1);
  return d.toISOString();
}

function toApi(f: FormFilters): AuditFilters {
  const targetId = f.targetId.trim();
  return {
    actor: f.actor ? Number(f.actor) : undefined,
    action: f.action || undefined,
    target_type: f.targetType || undefined,
    target_id: f.targetType && /^[A-Za-z0-9_-]{1,64}$/.test(targetId) ? targetId : undefined,
    from: dayStart(f.fromDay),
    to: dayStart(f.toDay, true),
  };
}

/**
 * The Activity page (docs/decisions/420-the-audit-log.md): the audit log newest first, filtered by
 * action, target and dates, and by admin for super admins (an admin sees their own); more entries
 * load as the list's end comes into view; the same filters download as CSV.
 */
export function ActivityPage() {
  useAdminTitle('Activity');
  const { isSuperUser } = useSession();
  const admins = useAdmins(isSuperUser);
  const [form, setForm] = React.useState<FormFilters>(EMPTY);
  const filters = React.useMemo(() => toApi(form), [form]);
  const audit = useAudit(filters);
  useErrorToast(audit.error, 'Failed to fetch the activity');
  const entries = audit.data?.pages.flatMap((p) => p.items);
  const set = (k: keyof FormFilters) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => setForm((f) => ({ ...f, [k]: e.target.value }));
  const filtered = JSON.stringify(form) !== JSON.stringify(EMPTY);
  const badRange = form.fromDay && form.toDay && form.toDay < form.fromDay;

  // The next page loads when the end of the list comes into view.
  const end = React.useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = audit;
  React.useEffect(() => {
    const el = end.current;
    if (!el || !hasNextPage) return;
    const io = new IntersectionObserver(([entry]) => {
      if (entry?.isIntersecting && !isFetchingNextPage) void fetchNextPage();
    });
    io.observe(el);
    return () => io.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  return (
    <>
      <PageHeader
        title="Activity"
        description={isSuperUser ? 'Every change and sign-in by every admin, newest first.' : 'Your changes and sign-ins, newest first.'}
        actions={
          <>
            <Button variant="outline" asChild>
              <a href={auditCsvHref(filters)} download>
                <Download aria-hidden="true" /> Export CSV
              </a>
            </Button>
            <BackToDashboard />
          </>
        }
      />
      <Card className="mb-6 p-4">
        <form className="grid gap-4 sm:grid-cols-2 lg:grid-cols-6" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
          {isSuperUser && (
            <div className="grid gap-2">
              <Label htmlFor="activity-actor">Admin</Label>
              <select id="activity-actor" className={SELECT} value={form.actor} onChange={set('actor')}>
                <option value="">All admins</option>
                {admins.data?.items.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.username}
                  </option>
                ))}
              </select>
            </div>
          )}
          <div className="grid gap-2">
            <Label htmlFor="activity-action">Action</Label>
            <select id="activity-action" className={SELECT} value={form.action} onChange={set('action')}>
              <option value="">All actions</option>
              {AUDIT_ACTIONS.map((a) => (
                <option key={a} value={a}>
                  {actionLabel(a)}
                </option>
              ))}
            </select>
          </div>
          <div className="grid gap-2">
            <Label htmlFor="activity-target-type">Target</Label>
            <select id="activity-target-type" className={SELECT} value={form.targetType} onChange={set('targetType')}>
              <option value="">Any target</option>
              {AUDIT_TARGET_TYPES.map((t) => (
                <option key={t} value={t}>
                  {t[0]!.toUpperCase() + t.slice(1)}
                </option>
              ))}
            </select>
          </div>
          <div className="grid gap-2">
            <Label htmlFor="activity-target-id">Target id</Label>
            <Input id="activity-target-id" inputMode="numeric" placeholder="Any" disabled={!form.targetType} value={form.targetId} onChange={set('targetId')} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="activity-from">From</Label>
            <Input id="activity-from" type="date" value={form.fromDay} onChange={set('fromDay')} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="activity-to">To</Label>
            <Input id="activity-to" type="date" value={form.toDay} onChange={set('toDay')} aria-invalid={badRange ? true : undefined} aria-describedby={badRange ? 'activity-range-error' : undefined} />
          </div>
          {(filtered || badRange) && (
            <div className="flex flex-wrap items-center gap-3 sm:col-span-2 lg:col-span-6">
              {badRange && (
                <p id="activity-range-error" className="text-sm text-destructive">
                  The end date is before the start date.
                </p>
              )}
              {filtered && (
                <Button type="button" variant="ghost" size="sm" onClick={() => setForm(EMPTY)}>
                  <X aria-hidden="true" /> Clear filters
                </Button>
              )}
            </div>
          )}
        </form>
      </Card>

      {audit.isError ? (
        <QueryError title="Failed to fetch the activity" error={audit.error} onRetry={() => audit.refetch()} />
      ) : entries && entries.length === 0 ? (
        <Card className="grid place-items-center gap-2 px-6 py-16 text-center">
          <History className="size-10 text-muted-foreground" aria-hidden="true" />
          <p className="text-lg font-semibold">{filtered ? 'No activity matches these filters' : 'No activity yet'}</p>
          <p className="text-sm text-muted-foreground">Changes and sign-ins appear here as they happen.</p>
        </Card>
      ) : (
        <Card className="overflow-hidden" aria-busy={!entries || audit.isFetching ? true : undefined}>
          {!entries ? (
            <div className="grid gap-3 p-4" aria-label="Loading activity">
              {Array.from({ length: 4 }, (_, i) => (
                <Skeleton key={i} className="h-10 w-full" />
              ))}
            </div>
          ) : (
            <AuditEntryList entries={entries} />
          )}
          <div ref={end} />
          {audit.hasNextPage && (
            <div className="flex justify-center border-t p-3">
              <Button variant="outline" onClick={() => audit.fetchNextPage()} disabled={audit.isFetchingNextPage}>
                {audit.isFetchingNextPage && <Spinner />}
                Show more
              </Button>
            </div>
          )}
        </Card>
      )}
    </>
  );
}
