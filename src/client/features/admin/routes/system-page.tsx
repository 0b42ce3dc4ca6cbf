import type { SystemStatus } from '@contract/system';
import { Archive, Cpu, Database, Download, Film, HardDrive, Link2, ListChecks, Server } from 'lucide-react';
import type * as React from 'react';
import { Link } from '@/lib/link';
import { Button } from '@/components/ui/button';
import { Card, Skeleton, Spinner } from '@/components/ui/primitives';
import { toast } from '@/components/ui/use-toast';
import { formatBytes } from '@/lib/format';
import { paths } from '@/lib/paths';
import { useBackUpNow, useBackups } from '../api/backups';
import { useSystem } from '../api/get-system';
import { BackToDashboard } from '../components/back-to-dashboard';
import { PageHeader } from '../components/page-header';
import { QueryError } from '../components/query-error';
import { useAdminTitle } from '../components/use-admin-title';
import { useErrorToast } from '../components/use-error-toast';
import { useSession } from '../session/session';
import { AccessDenied } from './access-denied';
import { errorMessage, isSessionError } from '../lib/errors';
import { formatNumber } from '../lib/format';
import { brokenLinksText } from './link-health-page';

/** "3 d 4 h", "2 h 5 min", "40 s". */
export function formatUptime(seconds: number): string {
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3_600);
  const m = Math.floor((seconds % 3_600) / 60);
  if (d > 0) return `${d} d ${h} h`;
  if (h > 0) return `${h} h ${m} min`;
  if (m > 0) return `${m} min`;
  return `${seconds} s`;
}

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' }) : 'never');

function Part({ icon: Icon, title, children, warn }: { icon: React.ComponentType<{ className?: string }>; title: string; children: React.ReactNode; warn?: boolean }) {
  return (
    <Card className={warn ? 'border-destructive/60 p-5' : 'p-5'}>
      <h2 className="mb-3 flex items-center gap-2 text-sm font-semibold uppercase tracking-wide text-muted-foreground">
        <Icon className={warn ? 'size-4 text-destructive' : 'size-4'} aria-hidden="true" />
        {title}
      </h2>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">{children}</dl>
    </Card>
  );
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-medium tabular-nums">{children}</dd>
    </>
  );
}

function Parts({ s }: { s: SystemStatus }) {
  const backups = useBackups();
  return (
    <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
      <Part icon={Server} title="Application">
        <Row label="Version">{s.version}</Row>
        <Row label="Node.js">{s.node}</Row>
        <Row label="Up for">{formatUptime(s.uptime_seconds)}</Row>
      </Part>
      <Part icon={Database} title="Database">
        <Row label="Kind">{s.database.kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'}</Row>
        <Row label="Size">{s.database.size_bytes === null ? '—' : formatBytes(s.database.size_bytes)}</Row>
        <Row label="Migration">{s.database.migration ?? 'none'}</Row>
      </Part>
      <Part icon={HardDrive} title="File storage">
        <Row label="Kind">{s.storage.kind === 'local' ? 'Local disk' : 'S3-compatible bucket'}</Row>
        <Row label="Free space">{s.storage.free_bytes === null ? 'no limit reported' : formatBytes(s.storage.free_bytes)}</Row>
      </Part>
      <Part icon={Film} title="ffmpeg" warn={s.ffmpeg.version === null}>
        <Row label="Version">{s.ffmpeg.version ?? 'missing: video and sound previews cannot be made'}</Row>
      </Part>
      <Part icon={ListChecks} title="Jobs" warn={s.jobs.failed > 0}>
        <Row label="Waiting">{formatNumber(s.jobs.queued)}</Row>
        <Row label="Running">{formatNumber(s.jobs.running)}</Row>
        <Row label="Failed">{formatNumber(s.jobs.failed)}</Row>
        <Row label="Oldest waiting">{when(s.jobs.oldest_waiting_at)}</Row>
      </Part>
      <Part icon={Link2} title="Link checks" warn={s.links.broken > 0}>
        <Row label="Found">
          <Link className="underline underline-offset-4" to={paths.admin.linkHealth}>
            {brokenLinksText(s.links.broken)}
          </Link>
        </Row>
        <Row label="Last scheduled run">{when(s.links.last_run_at)}</Row>
      </Part>
      <Part icon={Archive} title="Backups" warn={backups.data?.failed != null}>
        <Row label="Last backup">{when(backups.data ? (backups.data.items[0]?.created_at ?? null) : s.backups.last_at)}</Row>
        <Row label="Kept">{formatNumber(backups.data ? backups.data.items.length : s.backups.count)}</Row>
      </Part>
      <Part icon={Cpu} title={`Instances running (${s.instances.length})`}>
        {s.instances.map((i) => (
          <Row key={i.id} label={`${i.hostname} · ${i.pid}`}>
            {i.version}, up since {when(i.started_at)}
            {i.this_one && <span className="ml-2 rounded-full bg-primary/10 px-2 py-0.5 text-xs text-primary">answered this page</span>}
          </Row>
        ))}
      </Part>
    </div>
  );
}

/** The backups in the file store, newest first, each downloadable; "Back up now" queues one (decision 441). */
function BackupsList() {
  const backups = useBackups();
  const backUp = useBackUpNow();
  useErrorToast(backups.error, 'Failed to fetch the backups');
  const running = backUp.isPending || backups.data?.running === true;
  const onBackUpNow = () =>
    backUp.mutate(undefined, {
      onSuccess: () => toast({ title: 'Backup started', description: 'It is listed here once written.', variant: 'success' }),
      onError: (err) => {
        if (!isSessionError(err)) toast({ title: 'Failed to start the backup', description: errorMessage(err), variant: 'destructive' });
      },
    });
  const data = backups.data;
  return (
    <Card className="mt-4 p-5">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <h2 className="flex items-center gap-2 text-sm font-semibold uppercase tracking-wide text-muted-foreground">
          <Archive className="size-4" aria-hidden="true" />
          Backups in the file store
        </h2>
        <Button onClick={onBackUpNow} disabled={running}>
          {running ? <Spinner /> : <Archive aria-hidden="true" />}
          {data?.running ? 'Backing up…' : 'Back up now'}
        </Button>
      </div>
      {data?.failed && (
        <p className="mb-3 text-sm text-destructive" role="alert">
          The last backup failed ({when(data.failed.at)}): {data.failed.error}
        </p>
      )}
      {!data ? (
        <Skeleton className="h-16 w-full" />
      ) : data.items.length === 0 ? (
        <p className="text-sm text-muted-foreground">No backups yet. Back up now, or set BACKUP_SCHEDULE for the server to back itself up.</p>
      ) : (
        <table className="w-full text-sm">
          <thead className="text-left text-muted-foreground">
            <tr>
              <th scope="col" className="py-1.5 font-medium">
                Made
              </th>
              <th scope="col" className="py-1.5 font-medium">
                Size
              </th>
              <th scope="col" className="py-1.5 font-medium">
                <span className="sr-only">Download</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.items.map((b) => (
              <tr key={b.name} className="border-t">
                <td className="py-1.5 tabular-nums">{when(b.created_at)}</td>
                <td className="py-1.5 tabular-nums">{formatBytes(b.size)}</td>
                <td className="py-1.5 text-right">
                  <a className="inline-flex items-center gap-1 underline underline-offset-4" href={b.download_url} download={`resource-vault-${b.name}`}>
                    <Download className="size-4" aria-hidden="true" />
                    Download <span className="sr-only">the backup of {when(b.created_at)}</span>
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}

/** System (issue 32, super admins): whether every part of the site is healthy, read every 15 s. */
export function SystemPage() {
  const { isSuperUser } = useSession();
  if (!isSuperUser) return <AccessDenied />;
  return <SystemParts />;
}

function SystemParts() {
  useAdminTitle('System');
  const system = useSystem();
  useErrorToast(system.error, 'Failed to fetch the system status');
  return (
    <>
      <PageHeader title="System" description="The health of every part of the site, checked every 15 seconds while this page is open." actions={<BackToDashboard />} />
      {system.isError ? (
        <QueryError title="Failed to fetch the system status" error={system.error} onRetry={() => system.refetch()} />
      ) : system.data ? (
        <>
          <Parts s={system.data} />
          <BackupsList />
        </>
      ) : (
        <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3" aria-hidden="true">
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} className="h-36 w-full" />
          ))}
        </div>
      )}
    </>
  );
}
