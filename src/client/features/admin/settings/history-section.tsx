import { type AdminSettings, SETTINGS_LIMITS, SETTINGS_SECTIONS, type SettingsSections, type SettingsVersion } from '@contract/settings';
import { format } from 'date-fns';
import { ChevronRight, Eye, History, RotateCcw } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Badge, Card, Skeleton, Spinner } from '@/components/ui/primitives';
import { toast } from '@/components/ui/use-toast';
import { useSettingsVersion, useSettingsVersions } from '../api/get-settings-versions';
import { useRestoreSettingsVersion } from '../api/restore-settings-version';
import { ConfirmDialog } from '../components/confirm-dialog';
import { QueryError } from '../components/query-error';
import { errorMessage, isSessionError } from '../lib/errors';
import { changeLabel } from './section-values';

const when = (iso: string) => format(new Date(iso), "MMM d, yyyy 'at' HH:mm");

/** History: the last saved versions (who, when, what changed); look at one, restore it. */
export function HistorySection({ settings }: { settings: AdminSettings }) {
  const versions = useSettingsVersions();
  const restore = useRestoreSettingsVersion();
  const [viewing, setViewing] = React.useState<SettingsVersion | null>(null);
  const [restoring, setRestoring] = React.useState<SettingsVersion | null>(null);

  const onRestore = () => {
    if (!restoring) return;
    restore.mutate(restoring.id, {
      onSuccess: () => {
        toast({ title: 'Version restored', description: `The settings are as they were on ${when(restoring.saved_at)}.`, variant: 'success' });
        setRestoring(null);
        setViewing(null);
      },
      onError: (err) => {
        if (!isSessionError(err)) toast({ title: 'Failed to restore the version', description: errorMessage(err), variant: 'destructive' });
        setRestoring(null);
      },
    });
  };

  if (versions.isError) return <QueryError title="Failed to load the history" error={versions.error} onRetry={() => void versions.refetch()} />;

  return (
    <Card className="p-0">
      <p className="border-b px-5 py-4 text-sm text-muted-foreground">
        Every save keeps the settings as they were, so nothing is lost to a slip. The last {SETTINGS_LIMITS.versions} versions are kept; restoring one saves it again as the newest.
      </p>
      {versions.isPending ? (
        <ul aria-busy="true" aria-label="Loading the history" className="grid divide-y">
          {Array.from({ length: 4 }, (_, i) => (
            <li key={i} className="flex items-center gap-4 px-5 py-4">
              <Skeleton className="h-10 flex-1" />
              <Skeleton className="h-8 w-40" />
            </li>
          ))}
        </ul>
      ) : versions.data.items.length === 0 ? (
        <div className="flex flex-col items-center gap-2 px-5 py-12 text-center text-muted-foreground">
          <History aria-hidden="true" className="size-8" />
          <p>No saved versions yet. Each save from now on is listed here.</p>
        </div>
      ) : (
        <ol className="grid divide-y">
          {versions.data.items.map((v) => {
            const current = v.id === settings.version;
            return (
              <li key={v.id} className="flex flex-col gap-3 px-5 py-4 sm:flex-row sm:items-center">
                <div className="grid min-w-0 flex-1 gap-1">
                  <p className="flex flex-wrap items-center gap-2 text-sm">
                    <span className="font-medium">{when(v.saved_at)}</span>
                    <span className="text-muted-foreground">by {v.admin?.username ?? 'a deleted admin'}</span>
                    {current && <Badge>Current</Badge>}
                  </p>
                  <p className="flex flex-wrap items-center gap-1.5 text-xs text-muted-foreground">
                    {v.restored_from !== null ? (
                      <span>Restored an earlier version</span>
                    ) : v.changed.length > 0 ? (
                      <>
                        <span>Changed:</span>
                        {v.changed.map((c) => (
                          <Badge key={c} variant="outline">
                            {changeLabel(c)}
                          </Badge>
                        ))}
                      </>
                    ) : (
                      <span>The defaults</span>
                    )}
                  </p>
                </div>
                <div className="flex shrink-0 gap-2">
                  <Button type="button" size="sm" variant="outline" onClick={() => setViewing(v)} aria-label={`View the version of ${when(v.saved_at)}`}>
                    <Eye aria-hidden="true" /> View
                  </Button>
                  <Button
                    type="button"
                    size="sm"
                    variant="outline"
                    disabled={current}
                    onClick={() => setRestoring(v)}
                    aria-label={`Restore the version of ${when(v.saved_at)}`}
                  >
                    <RotateCcw aria-hidden="true" /> Restore
                  </Button>
                </div>
              </li>
            );
          })}
        </ol>
      )}
      <VersionDialog version={viewing} current={viewing?.id === settings.version} onClose={() => setViewing(null)} onRestore={(v) => setRestoring(v)} />
      <ConfirmDialog
        open={restoring !== null}
        onOpenChange={(open) => !open && setRestoring(null)}
        title="Restore this version?"
        description={
          restoring && (
            <>
              The site goes back to the settings saved on {when(restoring.saved_at)}. What is saved now stays in the history, so you can restore it again.
            </>
          )
        }
        confirmLabel="Restore"
        pending={restore.isPending}
        onConfirm={onRestore}
      />
    </Card>
  );
}

function VersionDialog({ version, current, onClose, onRestore }: { version: SettingsVersion | null; current: boolean; onClose(): void; onRestore(v: SettingsVersion): void }) {
  const detail = useSettingsVersion(version?.id ?? null);
  return (
    <Dialog open={version !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-3xl">
        <DialogHeader>
          <DialogTitle>Version of {version ? when(version.saved_at) : ''}</DialogTitle>
          <DialogDescription>
            Saved by {version?.admin?.username ?? 'a deleted admin'}. The settings as they were after this save.
          </DialogDescription>
        </DialogHeader>
        {detail.isError ? (
          <p role="alert" className="text-sm text-destructive">
            Could not load this version: {errorMessage(detail.error)}
          </p>
        ) : !detail.data ? (
          <div aria-busy="true" aria-label="Loading the version" className="grid gap-3">
            <Skeleton className="h-24" />
            <Skeleton className="h-24" />
          </div>
        ) : (
          <div className="grid gap-4">
            {/* What this save changed first and open; the rest folded. */}
            {[...SETTINGS_SECTIONS]
              .sort((a, b) => Number(detail.data.changed.includes(b)) - Number(detail.data.changed.includes(a)))
              .map((s) => (
                <details key={s} open={detail.data.changed.includes(s)} className="group rounded-lg border p-4 [&[open]>summary]:mb-3">
                  <summary className="flex cursor-pointer list-none items-center gap-2 rounded-sm text-sm font-semibold outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 [&::-webkit-details-marker]:hidden">
                    <ChevronRight aria-hidden="true" className="size-4 shrink-0 text-muted-foreground transition-transform group-open:rotate-90" />
                    {changeLabel(s)}
                    {detail.data.changed.includes(s) && <Badge variant="secondary">Changed in this save</Badge>}
                  </summary>
                  <Value value={detail.data.sections[s]} section={s} />
                </details>
              ))}
          </div>
        )}
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onClose}>
            Close
          </Button>
          {version && !current && (
            <Button type="button" onClick={() => onRestore(version)} disabled={!detail.data}>
              {detail.isFetching ? <Spinner /> : <RotateCcw aria-hidden="true" />} Restore this version
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

const LONG_TEXT = 240;

/** A saved value, readable: objects as term–value lists, lists numbered, long texts cut. */
function Value({ value, section }: { value: unknown; section?: keyof SettingsSections }) {
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="text-muted-foreground">none</span>;
    return (
      <ol className="grid list-decimal gap-2 pl-5 text-sm">
        {value.map((item, i) => (
          <li key={i}>
            <Value value={item} />
          </li>
        ))}
      </ol>
    );
  }
  if (value && typeof value === 'object') {
    return (
      <dl className="grid grid-cols-[minmax(6rem,auto)_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
        {Object.entries(value).map(([k, v]) => (
          <React.Fragment key={k}>
            <dt className="text-muted-foreground">{k.replace(/_/g, ' ')}</dt>
            <dd className="min-w-0 break-words">
              <Value value={v} />
            </dd>
          </React.Fragment>
        ))}
      </dl>
    );
  }
  const text = String(value);
  if (section === 'legal' || text.length > LONG_TEXT) return <span className="whitespace-pre-wrap">{text.length > LONG_TEXT ? `${text.slice(0, LONG_TEXT)}…` : text}</span>;
  return <span>{text === '' ? '—' : text}</span>;
}
