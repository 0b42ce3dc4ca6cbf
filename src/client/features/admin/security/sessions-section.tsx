import type { AdminSession } from '@contract/auth';
import { format, formatDistanceToNow } from 'date-fns';
import { LogOut, Monitor } from 'lucide-react';
import * as React from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Badge, Card, Skeleton, Spinner } from '@/components/ui/primitives';
import { toast } from '@/components/ui/use-toast';
import { paths } from '@/lib/paths';
import { useEndSession } from '../api/end-session';
import { useSessions } from '../api/get-sessions';
import { useRevokeOtherSessions } from '../api/revoke-other-sessions';
import { QueryError } from '../components/query-error';
import { useErrorToast } from '../components/use-error-toast';
import { errorMessage, isSessionError } from '../lib/errors';
import { useSession } from '../session/session';

const deviceName = (s: AdminSession) =>
  s.browser && s.system ? `${s.browser} on ${s.system}` : (s.browser ?? s.system ?? 'Unknown browser');
const started = (iso: string) => format(new Date(iso), "MMM d, yyyy 'at' HH:mm");

/** Sessions: where this admin is signed in, this device first; sign any of them out, or all the others. */
export function SessionsSection() {
  const sessions = useSessions();
  useErrorToast(sessions.error, 'Failed to load your sessions');
  const end = useEndSession();
  const revokeOthers = useRevokeOtherSessions();
  const session = useSession();
  const navigate = useNavigate();
  const [ending, setEnding] = React.useState<string | null>(null);
  const items = sessions.data?.items;
  const others = items?.filter((s) => !s.current).length ?? 0;

  const failed = (title: string) => (err: unknown) => {
    if (!isSessionError(err)) toast({ title, description: errorMessage(err), variant: 'destructive' });
  };

  const signOut = (s: AdminSession) => {
    setEnding(s.id);
    end.mutate(s.id, {
      onSuccess: () => {
        if (s.current) {
          session.signOut();
          toast({ title: 'Signed out', description: 'You ended this session.', variant: 'success' });
          navigate(paths.admin.login, { replace: true });
          return;
        }
        toast({ title: 'Session signed out', description: `${deviceName(s)} is signed out.`, variant: 'success' });
      },
      onError: failed('Failed to sign out the session'),
      onSettled: () => setEnding(null),
    });
  };

  const signOutOthers = () =>
    revokeOthers.mutate(undefined, {
      onSuccess: ({ ended }) =>
        toast({
          title: 'Signed out everywhere else',
          description: `${ended} ${ended === 1 ? 'session' : 'sessions'} ended.`,
          variant: 'success',
        }),
      onError: failed('Failed to sign out the other sessions'),
    });

  return (
    <Card className="p-6" aria-labelledby="sessions-heading" role="region">
      <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <div className="flex items-start gap-3">
          <span className="grid size-10 shrink-0 place-items-center rounded-full bg-violet-500/10 text-violet-600 dark:text-violet-400">
            <Monitor aria-hidden="true" className="size-5" />
          </span>
          <div>
            <h2 id="sessions-heading" className="text-lg font-semibold">
              Sessions
            </h2>
            <p className="text-sm text-muted-foreground">Where you are signed in. Sign out any you do not recognise.</p>
          </div>
        </div>
        <Button variant="outline" onClick={signOutOthers} disabled={!items || others === 0 || revokeOthers.isPending}>
          {revokeOthers.isPending ? <Spinner /> : <LogOut aria-hidden="true" />}
          Sign out everywhere else
        </Button>
      </div>
      {sessions.isError ? (
        <QueryError title="Failed to load your sessions" error={sessions.error} onRetry={() => void sessions.refetch()} />
      ) : !items ? (
        <div role="status" aria-label="Loading sessions" className="grid gap-3">
          {Array.from({ length: 2 }, (_, i) => (
            <Skeleton key={i} className="h-16 w-full" />
          ))}
        </div>
      ) : items.length === 0 ? (
        <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">No active sessions.</p>
      ) : (
        <ul aria-label="Your sessions" className="divide-y rounded-lg border">
          {items.map((s) => (
            <li key={s.id} aria-label={deviceName(s)} className="flex flex-wrap items-center justify-between gap-3 p-4">
              <div className="grid gap-1">
                <span className="flex flex-wrap items-center gap-2 font-medium" title={s.user_agent ?? undefined}>
                  {deviceName(s)}
                  {s.current && <Badge>This device</Badge>}
                </span>
                <span className="text-xs text-muted-foreground">
                  {s.ip ?? 'Unknown address'} · Started {started(s.created_at)} · Last seen{' '}
                  {s.current ? 'now' : `${formatDistanceToNow(new Date(s.last_seen_at))} ago`}
                </span>
              </div>
              <Button
                variant="ghost"
                size="sm"
                aria-label={s.current ? 'Sign out this device' : `Sign out ${deviceName(s)}`}
                disabled={ending === s.id}
                onClick={() => signOut(s)}
              >
                {ending === s.id ? <Spinner /> : <LogOut aria-hidden="true" />}
                Sign out
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
