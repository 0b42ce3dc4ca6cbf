import { ACCESS_DENIED_THROTTLE_MS, LOGIN_SHAKE_MS } from '@contract/constants';
import { ArrowLeft, KeyRound, Lock, User } from 'lucide-react';
import * as React from 'react';
import { Navigate, useNavigate } from 'react-router';
import { Link } from '@/lib/link';
import { Button } from '@/components/ui/button';
import { Card, Input, Label, Spinner } from '@/components/ui/primitives';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api';
import { paths } from '@/lib/paths';
import { useSiteName } from '@/lib/site-api';
import { cn } from '@/lib/utils';
import type { AdminProfile } from '@contract/auth';
import { useLogin } from '../api/login';
import { isCeremonyCancelled, usePasskeySignIn } from '../api/passkeys';
import { ThemeToggle } from '../components/theme-toggle';
import { useAdminTitle } from '../components/use-admin-title';
import { WatchingEyes } from '../components/watching-eyes';
import { pickJoke } from '../lib/jokes';
import { formatWait } from '../lib/format';
import { useSession } from '../session/session';
import { EnrolAtSignIn, SecondStepForm } from './login-two-step';

/** After a right password: the password form, a code to give, or (policy `required`) a factor to set up. */
type Step = { kind: 'password' } | { kind: 'code'; challenge: string } | { kind: 'enrol'; challenge: string };

export function LoginPage() {
  useAdminTitle('Admin Login');
  const siteName = useSiteName();
  const session = useSession();
  const navigate = useNavigate();
  const login = useLogin();
  const passkey = usePasskeySignIn();
  const [username, setUsername] = React.useState('');
  const [password, setPassword] = React.useState('');
  const [shaking, setShaking] = React.useState(false);
  const [step, setStep] = React.useState<Step>({ kind: 'password' });
  const lastDenied = React.useRef<{ at: number; joke?: string }>({ at: -Infinity });

  React.useEffect(() => {
    if (!shaking) return;
    const t = setTimeout(() => setShaking(false), LOGIN_SHAKE_MS);
    return () => clearTimeout(t);
  }, [shaking]);

  if (session.status === 'signed-in') return <Navigate to={paths.admin.dashboard} replace />;

  const denied = (err: unknown) => {
    setShaking(true);
    const now = Date.now();
    // Spec: at most one 'Access Denied!' toast every ACCESS_DENIED_THROTTLE_MS; the card shakes every time.
    if (now - lastDenied.current.at < ACCESS_DENIED_THROTTLE_MS) return;
    const joke = pickJoke(lastDenied.current.joke);
    lastDenied.current = { at: now, joke };
    const wait =
      err instanceof ApiError && err.status === 429
        ? ` Too many attempts: try again in ${formatWait(err.retryAfterSeconds ?? 60)}.`
        : '';
    toast({ title: 'Access Denied!', description: `${joke}${wait}`, variant: 'destructive' });
  };

  // Whichever way the admin signed in (password and perhaps a code, or a passkey), it ends here.
  const signedIn = (admin: AdminProfile) => {
    session.signIn(admin);
    toast({ title: 'Login successful', description: `Welcome back, ${admin.username}!`, variant: 'success' });
    navigate(paths.admin.dashboard, { replace: true });
  };

  const onPasskey = () => {
    if (passkey.isPending || login.isPending) return;
    passkey.mutate(undefined, {
      onSuccess: signedIn,
      onError: (err) => {
        // Closing the browser's prompt is not a failed attempt: no shake, no 'Access Denied!'.
        if (isCeremonyCancelled(err)) toast({ title: 'Passkey sign-in cancelled', description: 'The passkey prompt was closed or timed out.' });
        else denied(err);
      },
    });
  };
  const expired = (message: string) => {
    setStep({ kind: 'password' });
    setPassword('');
    toast({ title: 'Sign in again', description: message, variant: 'destructive' });
  };
  const shake = () => setShaking(true);
  const back = () => {
    setStep({ kind: 'password' });
    setPassword('');
  };

  const onSubmit = (e: React.FormEvent) => {
    e.preventDefault();
    if (login.isPending) return;
    // Any failure counts as access denied on this screen (spec), empty fields included.
    if (!username.trim() || !password) {
      denied(undefined);
      return;
    }
    login.mutate(
      { username: username.trim(), password },
      {
        onSuccess: (result) => {
          if ('two_factor_required' in result) return setStep({ kind: 'code', challenge: result.challenge });
          if ('two_factor_setup_required' in result) return setStep({ kind: 'enrol', challenge: result.challenge });
          signedIn(result);
        },
        onError: denied,
      },
    );
  };

  return (
    <div className="relative grid min-h-dvh place-items-center overflow-hidden bg-gradient-to-br from-violet-100 via-background to-fuchsia-100 px-4 py-12 dark:from-violet-950/60 dark:via-background dark:to-fuchsia-950/40">
      <div aria-hidden="true" className="pointer-events-none absolute -left-24 -top-24 size-96 rounded-full bg-violet-400/25 blur-3xl dark:bg-violet-600/20" />
      <div aria-hidden="true" className="pointer-events-none absolute -bottom-32 -right-24 size-[28rem] rounded-full bg-fuchsia-400/25 blur-3xl dark:bg-fuchsia-600/20" />
      <Button asChild variant="ghost" size="sm" className="absolute left-4 top-4">
        <Link to={paths.home}>
          <ArrowLeft aria-hidden="true" />
          Back to {siteName}
        </Link>
      </Button>
      <div className="absolute right-4 top-4">
        <ThemeToggle />
      </div>
      <main className="relative w-full max-w-md">
        <Card
          data-testid="login-card"
          className={cn('border-violet-200/60 bg-card/90 p-8 shadow-2xl backdrop-blur dark:border-violet-500/20', shaking && 'animate-shake')}
        >
          <WatchingEyes />
          <h1 className="mt-6 text-center text-3xl font-bold tracking-tight">Admin Access</h1>
          <p className="mt-2 text-center text-sm text-muted-foreground">Sign in to manage resources and announcements</p>
          {step.kind === 'code' && <SecondStepForm challenge={step.challenge} onExpired={expired} onWrong={shake} onSignedIn={signedIn} onBack={back} />}
          {step.kind === 'enrol' && (
            <EnrolAtSignIn challenge={step.challenge} username={username.trim()} onExpired={expired} onWrong={shake} onSignedIn={signedIn} onBack={back} />
          )}
          {step.kind === 'password' && (
            <form className="mt-8 grid gap-5" onSubmit={onSubmit} noValidate>
              <div className="grid gap-2">
                <Label htmlFor="login-username">Username</Label>
                <div className="relative">
                  <User aria-hidden="true" className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
                  <Input
                    id="login-username"
                    name="username"
                    autoComplete="username"
                    autoCapitalize="none"
                    spellCheck={false}
                    className="pl-9"
                    value={username}
                    onChange={(e) => setUsername(e.target.value)}
                  />
                </div>
              </div>
              <div className="grid gap-2">
                <Label htmlFor="login-password">Password</Label>
                <div className="relative">
                  <Lock aria-hidden="true" className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
                  <Input
                    id="login-password"
                    name="password"
                    type="password"
                    autoComplete="current-password"
                    className="pl-9"
                    value={password}
                    onChange={(e) => setPassword(e.target.value)}
                  />
                </div>
              </div>
              <Button type="submit" variant="gradient" size="lg" className="mt-2 w-full" disabled={login.isPending || session.status === 'loading'}>
                {login.isPending && <Spinner />}
                Enter the Matrix 🚀
              </Button>
            </form>
          )}
          {step.kind === 'password' && (
            <>
              <div className="mt-5 flex items-center gap-3 text-xs uppercase tracking-wide text-muted-foreground">
                <span aria-hidden="true" className="h-px flex-1 bg-border" />
                or
                <span aria-hidden="true" className="h-px flex-1 bg-border" />
              </div>
              <Button
                type="button"
                variant="outline"
                size="lg"
                className="mt-5 w-full"
                onClick={onPasskey}
                disabled={passkey.isPending || login.isPending || session.status === 'loading'}
              >
                {passkey.isPending ? <Spinner /> : <KeyRound aria-hidden="true" />}
                Sign in with a passkey
              </Button>
            </>
          )}
        </Card>
      </main>
    </div>
  );
}
