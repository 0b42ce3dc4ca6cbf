import type { AdminProfile } from '@contract/auth';
import { ERROR_CODES } from '@contract/errors';
import type { TotpEnrolment } from '@contract/two-factor';
import { KeyRound } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Input, Spinner } from '@/components/ui/primitives';
import { ApiError } from '@/lib/api';
import { useConfirmEnrolmentAtSignIn, useLoginSecondStep, useStartEnrolmentAtSignIn } from '../api/two-factor';
import { describedBy, FormField } from '../components/form-field';
import { errorMessage } from '../lib/errors';
import { RecoveryCodesPanel } from '../security/recovery-codes';
import { CodeInput, TotpEnrolmentForm } from '../security/totp-enrolment';

interface StepProps {
  challenge: string;
  /** The challenge is gone (expired, used, too many wrong codes): back to the password. */
  onExpired(message: string): void;
  /** A wrong code: the card shakes. */
  onWrong(): void;
  onSignedIn(admin: AdminProfile): void;
  /** Back to the password form (another account, or a typo in the name). */
  onBack(): void;
}

const isExpired = (err: unknown) => err instanceof ApiError && err.code === ERROR_CODES.challengeExpired;

/** The login card's second step: the 6-digit code, or "Use a recovery code" instead. */
export function SecondStepForm({ challenge, onExpired, onWrong, onSignedIn, onBack }: StepProps) {
  const verify = useLoginSecondStep();
  const [recovery, setRecovery] = React.useState(false);
  const [value, setValue] = React.useState('');
  const [error, setError] = React.useState<string>();
  const id = recovery ? 'login-recovery-code' : 'login-code';

  const onSubmit = (e: React.FormEvent) => {
    e.preventDefault();
    if (verify.isPending) return;
    verify.mutate(recovery ? { challenge, recovery_code: value } : { challenge, code: value }, {
      onSuccess: onSignedIn,
      onError: (err) => {
        if (isExpired(err)) return onExpired(err.message);
        setError(err instanceof ApiError && err.fields ? (Object.values(err.fields)[0] ?? err.message) : errorMessage(err));
        setValue('');
        onWrong();
      },
    });
  };

  return (
    <form className="mt-8 grid gap-5" onSubmit={onSubmit} noValidate>
      <p className="text-center text-sm text-muted-foreground">
        {recovery ? 'Enter one of your recovery codes. Each works once.' : 'Enter the 6-digit code from your authenticator app.'}
      </p>
      <FormField id={id} label={recovery ? 'Recovery code' : 'Authentication code'} error={error}>
        {recovery ? (
          <Input
            id={id}
            name="recovery_code"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            className="font-mono"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy(id, error)}
            autoFocus
          />
        ) : (
          <CodeInput id={id} error={error} value={value} onChange={(e) => setValue(e.target.value)} autoFocus />
        )}
      </FormField>
      <Button type="submit" variant="gradient" size="lg" className="w-full" disabled={verify.isPending}>
        {verify.isPending && <Spinner />}
        Verify
      </Button>
      <Button
        type="button"
        variant="link"
        onClick={() => {
          setRecovery(!recovery);
          setValue('');
          setError(undefined);
        }}
      >
        <KeyRound aria-hidden="true" />
        {recovery ? 'Use a code from your app' : 'Use a recovery code'}
      </Button>
      <Button type="button" variant="ghost" size="sm" onClick={onBack}>
        Back
      </Button>
    </form>
  );
}

/** Policy `required` and no second factor yet: set one up on the card, save the codes, then in. */
export function EnrolAtSignIn({ challenge, username, onExpired, onWrong, onSignedIn, onBack }: StepProps & { username: string }) {
  const start = useStartEnrolmentAtSignIn();
  const confirm = useConfirmEnrolmentAtSignIn();
  const [enrolment, setEnrolment] = React.useState<TotpEnrolment | null>(null);
  const [done, setDone] = React.useState<{ codes: string[]; admin: AdminProfile } | null>(null);
  const [error, setError] = React.useState<string>();
  const started = React.useRef(false);

  React.useEffect(() => {
    if (started.current) return;
    started.current = true;
    start.mutate(challenge, {
      onSuccess: setEnrolment,
      onError: (err) => onExpired(isExpired(err) ? err.message : errorMessage(err)),
    });
  }, [challenge, start, onExpired]);

  if (done)
    return (
      <div className="mt-6">
        <RecoveryCodesPanel codes={done.codes} username={username} doneLabel="Continue" onDone={() => onSignedIn(done.admin)} />
      </div>
    );
  return (
    <div className="mt-6 grid gap-4">
      <p className="text-center text-sm text-muted-foreground">This site requires two-step sign-in. Set up an authenticator app to continue.</p>
      {enrolment ? (
        <TotpEnrolmentForm
          enrolment={enrolment}
          pending={confirm.isPending}
          error={error}
          submitLabel="Turn on and sign in"
          onCancel={onBack}
          onConfirm={(code) =>
            confirm.mutate(
              { challenge, code },
              {
                onSuccess: (r) => setDone({ codes: r.recovery_codes, admin: r.admin }),
                onError: (err) => {
                  if (isExpired(err)) return onExpired(err.message);
                  setError(err instanceof ApiError && err.fields ? (Object.values(err.fields)[0] ?? err.message) : errorMessage(err));
                  onWrong();
                },
              },
            )
          }
        />
      ) : (
        <div className="grid place-items-center py-8" aria-busy="true">
          <Spinner />
        </div>
      )}
    </div>
  );
}
