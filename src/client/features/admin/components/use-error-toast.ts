import * as React from 'react';
import { toast } from '@/components/ui/use-toast';
import { errorMessage, isSessionError } from '../lib/errors';

/** The spec's toast for a failed load, once per failure; session expiry is handled elsewhere. */
export function useErrorToast(error: unknown, title: string) {
  React.useEffect(() => {
    if (!error || isSessionError(error)) return;
    toast({ title, description: errorMessage(error), variant: 'destructive' });
  }, [error, title]);
}
