import type { TotpEnrolment } from '@contract/two-factor';
import { ShieldCheck } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Badge, Card, Input, Skeleton, Spinner } from '@/components/ui/primitives';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api';
import { useConfirmTotp, useDisableTotp, useRegenerateRecoveryCodes, useStartTotp, useTwoFactorStatus } from '../api/two-factor';
import { describedBy, FormField } from '../components/form-field';
import { QueryError } from '../components/query-error';
import { errorMessage, isSessionError } from '../lib/errors';
import { useSession } from '../session/session';
import { RecoveryCodesPanel } from './recovery-codes';
import { CodeInput, TotpEnrolmentForm } from './totp-enrolment';

type Errors = Partial<Record<'code' | 'password', string>>;

/** A refusal's field errors to show by the fields; anything else is a toast. */
function fieldErrors(err: unknown, title: string): Errors {
  if (err instanceof ApiError && err.fields && (err.fields.code || err.fields.password)) return { code: err.fields.code, password: err.fields.password };
  if (!isSessionError(err)) toast({ title, description: errorMessage(err), variant: 'destructive' });
  return {};
}

/**
 * Security page: two-step sign-in with an authenticator app (TOTP). Off: set it up (QR code, key,
 * code), then the recovery codes once. On: how many recovery codes are left, new ones, turn off.
 */
export function TwoStepSection() {
  const { admin } = useSession();
  const status = useTwoFactorStatus();
  const start = useStartTotp();
  const confirm = useConfirmTotp();
  const [enrolment, setEnrolment] = React.useState<TotpEnrolment | null>(null);
  const [codes, setCodes] = React.useState<string[] | null>(null);
  const [mode, setMode] = React.useState<'idle' | 'regenerate' | 'disable'>('idle');
  const [errors, setErrors] = React.useState<Errors>({});

  const begin = () =>
    start.mutate(undefined, {
      onSuccess: (e) => {
        setErrors({});
        setEnrolment(e);
      },
      onError: (err) => fieldErrors(err, 'Could not start the setup'),
    });

  const onConfirm = (code: string) =>
    confirm.mutate(
      { code },
      {
        onSuccess: (r) => {
          setEnrolment(null);
          setCodes(r.recovery_codes);
          setErrors({});
          toast({ title: 'Two-step sign-in is on', variant: 'success' });
        },
        onError: (err) => setErrors(fieldErrors(err, 'Could not turn on two-step sign-in')),
      },
    );

  let body: React.ReactNode;
  if (status.isError) body = <QueryError title="Failed to load two-step sign-in" error={status.error} onRetry={() => void status.refetch()} />;
  else if (status.isPending) body = <Skeleton aria-label="Loading" className="h-16" />;
  else if (codes) body = <RecoveryCodesPanel codes={codes} username={admin?.username ?? ''} doneLabel="I have saved them" onDone={() => setCodes(null)} />;
  else if (enrolment)
    body = (
      <TotpEnrolmentForm
        enrolment={enrolment}
        pending={confirm.isPending}
        error={errors.code}
        submitLabel="Turn on"
        onConfirm={onConfirm}
        onCancel={() => setEnrolment(null)}
      />
    );
  else if (!status.data.totp_enabled)
    body = (
      <div className="grid gap-3">
        <p className="text-sm text-muted-foreground">
          {status.data.policy === 'required'
            ? 'This site requires two-step sign-in. Set up an authenticator app now.'
            : 'Ask for a code from an authenticator app after your password, so a leaked password alone cannot open your account.'}
        </p>
        {status.data.policy === 'off' ? (
          <p className="text-sm">Two-step sign-in is turned off on this site.</p>
        ) : (
          <div>
            <Button onClick={begin} disabled={start.isPending}>
              {start.isPending && <Spinner />}
              Set up an authenticator app
            </Button>
          </div>
        )}
      </div>
    );
  else
    body = (
      <TotpOn
        codesLeft={status.data.recovery_codes_left}
        mode={mode}
        setMode={(m) => {
          setErrors({});
          setMode(m);
        }}
        errors={errors}
        setErrors={setErrors}
        onNewCodes={setCodes}
      />
    );

  return (
    <section aria-labelledby="two-step-heading">
      <Card className="grid gap-4 p-6">
      <div className="flex items-center gap-3">
        <ShieldCheck aria-hidden="true" className="size-5 text-violet-600" />
        <h2 id="two-step-heading" className="text-lg font-semibold">
          Two-step sign-in
        </h2>
        {status.data && <Badge variant={status.data.totp_enabled ? 'default' : 'secondary'}>{status.data.totp_enabled ? 'On' : 'Off'}</Badge>}
      </div>
      {body}
      </Card>
    </section>
  );
}

function TotpOn({
  codesLeft,
  mode,
  setMode,
  errors,
  setErrors,
  onNewCodes,
}: {
  codesLeft: number;
  mode: 'idle' | 'regenerate' | 'disable';
  setMode(m: 'idle' | 'regenerate' | 'disable'): void;
  errors: Errors;
  setErrors(e: Errors): void;
  onNewCodes(codes: string[]): void;
}) {
  const regenerate = useRegenerateRecoveryCodes();
  const disable = useDisableTotp();
  const [code, setCode] = React.useState('');
  const [password, setPassword] = React.useState('');
  React.useEffect(() => {
    setCode('');
    setPassword('');
  }, [mode]);

  const onSubmit = (e: React.FormEvent) => {
    e.preventDefault();
    if (mode === 'regenerate' && !regenerate.isPending)
      regenerate.mutate(
        { code },
        {
          onSuccess: (r) => {
            setMode('idle');
            onNewCodes(r.recovery_codes);
            toast({ title: 'New recovery codes', description: 'The old ones no longer work.', variant: 'success' });
          },
          onError: (err) => setErrors(fieldErrors(err, 'Could not make new recovery codes')),
        },
      );
    if (mode === 'disable' && !disable.isPending)
      disable.mutate(
        { password, code },
        {
          onSuccess: () => {
            setMode('idle');
            toast({ title: 'Two-step sign-in is off', variant: 'success' });
          },
          onError: (err) => setErrors(fieldErrors(err, 'Could not turn off two-step sign-in')),
        },
      );
  };
  const pending = regenerate.isPending || disable.isPending;

  return (
    <div className="grid gap-4">
      <p className="text-sm text-muted-foreground" data-testid="recovery-codes-left">
        Your account asks for a code from your authenticator app after your password.{' '}
        {codesLeft === 1 ? '1 recovery code left.' : `${codesLeft} recovery codes left.`}
        {codesLeft <= 2 && ' Make new ones so that losing your phone cannot lock you out.'}
      </p>
      {mode === 'idle' ? (
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={() => setMode('regenerate')}>
            New recovery codes
          </Button>
          <Button variant="outline" className="text-destructive" onClick={() => setMode('disable')}>
            Turn off
          </Button>
        </div>
      ) : (
        <form className="grid max-w-sm gap-4" noValidate onSubmit={onSubmit}>
          <p className="text-sm">
            {mode === 'regenerate'
              ? 'New codes replace the ones you have. Enter a code from your app to continue.'
              : 'Enter your password and a code from your app to turn two-step sign-in off.'}
          </p>
          {mode === 'disable' && (
            <FormField id="totp-off-password" label="Password" error={errors.password}>
              <Input
                id="totp-off-password"
                type="password"
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                aria-invalid={errors.password ? true : undefined}
                aria-describedby={describedBy('totp-off-password', errors.password)}
              />
            </FormField>
          )}
          <FormField id="totp-action-code" label="Code from your app" error={errors.code}>
            <CodeInput id="totp-action-code" error={errors.code} value={code} onChange={(e) => setCode(e.target.value)} autoFocus={mode === 'regenerate'} />
          </FormField>
          <div className="flex gap-2">
            <Button type="submit" variant={mode === 'disable' ? 'destructive' : 'default'} disabled={pending}>
              {pending && <Spinner />}
              {mode === 'regenerate' ? 'Make new codes' : 'Turn off'}
            </Button>
            <Button type="button" variant="ghost" onClick={() => setMode('idle')} disabled={pending}>
              Cancel
            </Button>
          </div>
        </form>
      )}
    </div>
  );
}
