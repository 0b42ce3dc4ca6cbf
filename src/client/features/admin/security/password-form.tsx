import { zodResolver } from '@hookform/resolvers/zod';
import type { EndedSessions } from '@contract/auth';
import { passwordSchema } from '@contract/auth';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Input, Spinner } from '@/components/ui/primitives';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api';
import { useChangePassword } from '../api/change-password';
import { describedBy, FormField } from '../components/form-field';
import { errorMessage, isSessionError } from '../lib/errors';

// The length rules are the contract's; a common leaked password is refused by the server, which names the field.
const passwordFormSchema = z
  .object({
    current_password: z.string().min(1, { error: 'Current password is required' }),
    new_password: passwordSchema,
    confirm_password: z.string(),
  })
  .refine((v) => v.confirm_password === v.new_password, { path: ['confirm_password'], error: 'Passwords do not match' });
type PasswordForm = z.infer<typeof passwordFormSchema>;
const EMPTY: PasswordForm = { current_password: '', new_password: '', confirm_password: '' };

/** Current, new and confirm: changes one's own password. The server ends the other sessions. */
export function PasswordForm({
  idPrefix,
  submitLabel = 'Change password',
  wide = false,
  onChanged,
}: {
  idPrefix: string;
  submitLabel?: string;
  /** The submit button across the form (alone on a card) rather than at its start. */
  wide?: boolean;
  onChanged(result: EndedSessions): void;
}) {
  const change = useChangePassword();
  const form = useForm<PasswordForm>({ resolver: zodResolver(passwordFormSchema), defaultValues: EMPTY });
  const { errors } = form.formState;
  const id = (name: string) => `${idPrefix}-${name}`;

  const onValid = async ({ current_password, new_password }: PasswordForm) => {
    if (change.isPending) return;
    try {
      const result = await change.mutateAsync({ current_password, new_password });
      form.reset(EMPTY);
      onChanged(result);
    } catch (err) {
      if (isSessionError(err)) return;
      if (err instanceof ApiError && err.fields) {
        for (const [key, message] of Object.entries(err.fields)) {
          if (key === 'current_password' || key === 'new_password') form.setError(key, { type: 'server', message }, { shouldFocus: true });
        }
      }
      toast({ title: 'Failed to change the password', description: errorMessage(err), variant: 'destructive' });
    }
  };

  const field = (name: keyof PasswordForm, label: string, autoComplete: string, hint?: string) => {
    const message = errors[name]?.message;
    return (
      <FormField id={id(name)} label={label} required error={message} hint={hint}>
        <Input
          id={id(name)}
          type="password"
          autoComplete={autoComplete}
          aria-invalid={message ? true : undefined}
          aria-describedby={describedBy(id(name), message, hint !== undefined)}
          {...form.register(name)}
        />
      </FormField>
    );
  };

  return (
    <form noValidate onSubmit={form.handleSubmit(onValid)} className={wide ? 'grid gap-4' : 'grid max-w-md gap-4'}>
      {field('current_password', 'Current password', 'current-password')}
      {field('new_password', 'New password', 'new-password', 'At least 8 characters, not a common password')}
      {field('confirm_password', 'Confirm new password', 'new-password')}
      <div>
        <Button type="submit" variant="gradient" className={wide ? 'w-full' : undefined} disabled={change.isPending}>
          {change.isPending && <Spinner />}
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
