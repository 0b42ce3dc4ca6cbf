import { TWO_FACTOR_POLICIES, type TwoFactorPolicy } from '@contract/two-factor';
import { Users } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Card, Skeleton, Spinner } from '@/components/ui/primitives';
import { toast } from '@/components/ui/use-toast';
import { useSetTwoFactorPolicy, useTwoFactorPolicy } from '../api/two-factor';
import { QueryError } from '../components/query-error';
import { errorMessage, isSessionError } from '../lib/errors';

const CHOICES: Record<TwoFactorPolicy, { label: string; hint: string }> = {
  off: { label: 'Off', hint: 'Admins cannot set up two-step sign-in. Those who have it keep it.' },
  optional: { label: 'Optional', hint: 'Each admin chooses whether to use it.' },
  required: { label: 'Required', hint: 'An admin without a second factor must set one up at their next sign-in before getting in.' },
};

/** Security page, super admins: the site's two-step sign-in policy for every admin. */
export function TwoStepPolicySection() {
  const policy = useTwoFactorPolicy();
  const save = useSetTwoFactorPolicy();
  const [chosen, setChosen] = React.useState<TwoFactorPolicy | null>(null);
  const current = chosen ?? policy.data?.policy;

  const onSubmit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!current || save.isPending) return;
    save.mutate(current, {
      onSuccess: (r) => {
        setChosen(null);
        toast({ title: 'Policy saved', description: `Two-step sign-in: ${CHOICES[r.policy].label.toLowerCase()}.`, variant: 'success' });
      },
      onError: (err) => {
        if (!isSessionError(err)) toast({ title: 'Failed to save the policy', description: errorMessage(err), variant: 'destructive' });
      },
    });
  };

  return (
    <section aria-labelledby="two-step-policy-heading">
      <Card className="grid gap-4 p-6">
        <div className="flex items-center gap-3">
          <Users aria-hidden="true" className="size-5 text-violet-600" />
          <h2 id="two-step-policy-heading" className="text-lg font-semibold">
            Two-step sign-in for all admins
          </h2>
        </div>
        {policy.isError ? (
          <QueryError title="Failed to load the policy" error={policy.error} onRetry={() => void policy.refetch()} />
        ) : policy.isPending ? (
          <Skeleton aria-label="Loading" className="h-24" />
        ) : (
          <form className="grid gap-4" onSubmit={onSubmit}>
            <fieldset className="grid gap-3">
              <legend className="sr-only">Policy</legend>
              {TWO_FACTOR_POLICIES.map((p) => (
                <label key={p} className="flex cursor-pointer items-start gap-3 rounded-lg border p-3 has-[:checked]:border-violet-500">
                  <input type="radio" name="two-step-policy" value={p} checked={current === p} onChange={() => setChosen(p)} className="mt-1" />
                  <span>
                    <span className="font-medium">{CHOICES[p].label}</span>
                    <span className="block text-sm text-muted-foreground">{CHOICES[p].hint}</span>
                  </span>
                </label>
              ))}
            </fieldset>
            <div>
              <Button type="submit" disabled={save.isPending || current === policy.data.policy}>
                {save.isPending && <Spinner />}
                Save policy
              </Button>
            </div>
          </form>
        )}
      </Card>
    </section>
  );
}
