import { KeyRound, LogOut } from 'lucide-react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, Spinner } from '@/components/ui/primitives';
import { toast } from '@/components/ui/use-toast';
import { paths } from '@/lib/paths';
import { useLogout } from '../api/logout';
import { useAdminTitle } from '../components/use-admin-title';
import { useSession } from '../session/session';
import { PasswordForm } from './password-form';
import { otherSessionsEnded } from './password-section';

/**
 * Shown instead of every admin page while the server allows this admin nothing but a new password
 * (set by the admin CLI's reset, or ticked when the account was made).
 */
export function ChangePasswordScreen() {
  useAdminTitle('Change your password');
  const session = useSession();
  const navigate = useNavigate();
  const logout = useLogout();

  const signOut = () =>
    logout.mutate(undefined, {
      onSettled: () => {
        session.signOut();
        navigate(paths.admin.login, { replace: true });
      },
    });

  return (
    <main className="grid min-h-dvh place-items-center bg-gradient-to-br from-violet-100 via-background to-fuchsia-100 px-4 py-12 dark:from-violet-950/60 dark:via-background dark:to-fuchsia-950/40">
      <Card className="w-full max-w-md p-8 shadow-2xl">
        <span className="mx-auto grid size-12 place-items-center rounded-full bg-violet-500/10 text-violet-600 dark:text-violet-400">
          <KeyRound aria-hidden="true" />
        </span>
        <h1 className="mt-4 text-center text-2xl font-bold tracking-tight">Change your password</h1>
        <p className="mb-6 mt-2 text-center text-sm text-muted-foreground">
          {session.admin ? `${session.admin.username}, your` : 'Your'} password was set for you. Choose your own to continue.
        </p>
        <PasswordForm
          idPrefix="required-password"
          submitLabel="Save and continue"
          wide
          onChanged={({ ended }) => {
            session.passwordChanged();
            toast({ title: 'Password changed', description: otherSessionsEnded(ended), variant: 'success' });
          }}
        />
        <Button variant="ghost" className="mt-4 w-full" onClick={signOut} disabled={logout.isPending}>
          {logout.isPending ? <Spinner /> : <LogOut aria-hidden="true" />}
          Sign out
        </Button>
      </Card>
    </main>
  );
}
