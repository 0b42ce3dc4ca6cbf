import type { AuditEntry } from '@contract/audit';
import { Badge } from '@/components/ui/primitives';
import { actionLabel, actorLabel, changedRows, showValue, targetLabel } from './activity-labels';

const when = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** Audit entries, newest first: who, what, which target, when, and the changed fields on demand. */
export function AuditEntryList({ entries, showTarget = true }: { entries: AuditEntry[]; showTarget?: boolean }) {
  return (
    <ol className="divide-y" aria-label="Activity entries">
      {entries.map((e) => {
        const rows = changedRows(e.changes);
        const target = showTarget ? targetLabel(e) : null;
        return (
          <li key={e.id} className="grid gap-1 px-4 py-3 text-sm" data-action={e.action}>
            <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
              <span className="font-medium">{actorLabel(e)}</span>
              <span>{actionLabel(e.action)}</span>
              {target && <Badge variant="secondary">{target}</Badge>}
              <time dateTime={e.created_at} className="ml-auto tabular-nums text-xs text-muted-foreground">
                {when(e.created_at)}
              </time>
            </div>
            {(rows.length > 0 || e.ip) && (
              <details className="text-xs text-muted-foreground">
                <summary className="cursor-pointer select-none rounded-sm focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50">
                  {rows.length > 0 ? `Details (${rows.length} ${rows.length === 1 ? 'field' : 'fields'})` : 'Details'}
                </summary>
                {rows.length > 0 && (
                  <dl className="mt-2 grid gap-1 sm:grid-cols-[max-content_minmax(0,1fr)] sm:gap-x-4">
                    {rows.map((r) => (
                      <div key={r.field} className="contents">
                        <dt className="font-medium text-foreground">{r.field}</dt>
                        <dd className="break-words">
                          {'before' in r && <span className="line-through decoration-muted-foreground/60">{showValue(r.before)}</span>}
                          {'before' in r && 'after' in r && <span aria-hidden="true"> → </span>}
                          {'after' in r && <span className="text-foreground">{showValue(r.after)}</span>}
                        </dd>
                      </div>
                    ))}
                  </dl>
                )}
                {e.ip && (
                  <p className="mt-2">
                    From {e.ip}
                    {e.user_agent ? ` · ${e.user_agent}` : ''}
                  </p>
                )}
              </details>
            )}
          </li>
        );
      })}
    </ol>
  );
}
