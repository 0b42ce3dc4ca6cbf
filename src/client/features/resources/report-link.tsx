import { API } from '@contract/api-paths';
import { Flag } from 'lucide-react';
import * as React from 'react';
import { Spinner } from '@/components/ui/primitives';
import { toast } from '@/components/ui/use-toast';
import { api, ApiError } from '@/lib/api';

/** A visitor's "Report a broken link": the server re-checks this resource's links (issue 32). */
export function ReportLink({ resourceId }: { resourceId: number }) {
  const [state, setState] = React.useState<'idle' | 'sending' | 'sent'>('idle');
  const report = async () => {
    setState('sending');
    try {
      await api<void>(API.reportLink(resourceId), { method: 'POST' });
      setState('sent');
    } catch (err) {
      setState('idle');
      toast({ title: 'Could not send the report', description: err instanceof ApiError ? err.message : 'Please try again later.', variant: 'destructive' });
    }
  };
  if (state === 'sent') {
    return (
      <p role="status" className="text-center text-sm text-muted-foreground">
        Thanks — we will check this link.
      </p>
    );
  }
  return (
    <button
      type="button"
      onClick={() => void report()}
      disabled={state === 'sending'}
      className="inline-flex items-center justify-center gap-1.5 rounded-md text-sm text-muted-foreground underline-offset-4 hover:text-foreground hover:underline focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:opacity-60"
    >
      {state === 'sending' ? <Spinner /> : <Flag className="size-3.5" aria-hidden="true" />}
      Report a broken link
    </button>
  );
}
