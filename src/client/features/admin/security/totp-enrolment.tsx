import type { TotpEnrolment } from '@contract/two-factor';
import { Copy } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Input, Spinner } from '@/components/ui/primitives';
import { toast } from '@/components/ui/use-toast';
import { describedBy, FormField } from '../components/form-field';

/** The six-digit code field of every two-step form. */
export function CodeInput({ id, error, ...props }: { id: string; error?: string } & React.ComponentProps<typeof Input>) {
  return (
    <Input
      id={id}
      name="code"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9 ]*"
      maxLength={7}
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy(id, error)}
      className="font-mono tracking-widest"
      {...props}
    />
  );
}

/**
 * Setting up an authenticator app: the QR code, the key as text for apps that cannot scan, and
 * the code that proves it works.
 */
export function TotpEnrolmentForm({
  enrolment,
  pending,
  error,
  submitLabel,
  onConfirm,
  onCancel,
}: {
  enrolment: TotpEnrolment;
  pending: boolean;
  error?: string;
  submitLabel: string;
  onConfirm(code: string): void;
  onCancel?(): void;
}) {
  const [code, setCode] = React.useState('');
  const qr = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qr_svg)}`;
  const copyKey = () =>
    navigator.clipboard.writeText(enrolment.secret).then(
      () => toast({ title: 'Key copied', variant: 'success' }),
      () => toast({ title: 'Could not copy', description: 'Select the key and copy it.', variant: 'destructive' }),
    );

  return (
    <form
      className="grid gap-4"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (!pending) onConfirm(code);
      }}
    >
      <ol className="grid gap-4 text-sm">
        <li className="grid gap-3">
          <span>1. Scan this QR code with an authenticator app (such as 1Password, Google Authenticator or Aegis).</span>
          <img src={qr} alt="QR code for your authenticator app" width={176} height={176} className="rounded-lg border bg-white p-2" />
        </li>
        <li className="grid gap-2">
          <span>Can’t scan it? Enter this key in the app instead:</span>
          <div className="flex items-center gap-2">
            <code data-testid="totp-secret" className="select-all break-all rounded-md border bg-muted/40 px-3 py-2 font-mono text-sm">
              {enrolment.secret}
            </code>
            <Button type="button" variant="ghost" size="sm" onClick={copyKey} aria-label="Copy the key">
              <Copy aria-hidden="true" />
            </Button>
          </div>
        </li>
        <li>2. Enter the 6-digit code the app shows.</li>
      </ol>
      <div className="max-w-xs">
        <FormField id="totp-enrol-code" label="Code from your app" error={error}>
          <CodeInput id="totp-enrol-code" error={error} value={code} onChange={(e) => setCode(e.target.value)} autoFocus />
        </FormField>
      </div>
      <div className="flex gap-2">
        <Button type="submit" disabled={pending}>
          {pending && <Spinner />}
          {submitLabel}
        </Button>
        {onCancel && (
          <Button type="button" variant="ghost" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}
