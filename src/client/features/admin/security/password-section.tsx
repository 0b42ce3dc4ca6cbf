import { KeyRound } from 'lucide-react';
import { Card } from '@/components/ui/primitives';
import { toast } from '@/components/ui/use-toast';
import { PasswordForm } from './password-form';

export const otherSessionsEnded = (ended: number) =>
  ended === 0 ? 'No other session was signed in.' : `Signed out of ${ended} other ${ended === 1 ? 'session' : 'sessions'}.`;

/** Password: change one's own; the other sessions end, this one stays. */
export function PasswordSection() {
  return (
    <Card className="p-6" aria-labelledby="password-heading" role="region">
      <div className="mb-4 flex items-start gap-3">
        <span className="grid size-10 shrink-0 place-items-center rounded-full bg-violet-500/10 text-violet-600 dark:text-violet-400">
          <KeyRound aria-hidden="true" className="size-5" />
        </span>
        <div>
          <h2 id="password-heading" className="text-lg font-semibold">
            Password
          </h2>
          <p className="text-sm text-muted-foreground">Changing it signs you out everywhere else.</p>
        </div>
      </div>
      <PasswordForm
        idPrefix="password"
        onChanged={({ ended }) => toast({ title: 'Password changed', description: otherSessionsEnded(ended), variant: 'success' })}
      />
    </Card>
  );
}
