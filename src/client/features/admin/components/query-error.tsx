import { AlertTriangle, RotateCw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/primitives';
import { errorMessage } from '../lib/errors';

/** Inline state of a failed load, beside the spec's toast. */
export function QueryError({ title, error, onRetry }: { title: string; error: unknown; onRetry(): void }) {
  return (
    <Card role="alert" className="flex flex-col items-center gap-3 p-10 text-center">
      <span className="grid size-12 place-items-center rounded-full bg-destructive/10 text-destructive">
        <AlertTriangle aria-hidden="true" />
      </span>
      <p className="text-lg font-semibold">{title}</p>
      <p className="max-w-md text-sm text-muted-foreground">{errorMessage(error)}</p>
      <Button variant="outline" onClick={onRetry}>
        <RotateCw aria-hidden="true" /> Try Again
      </Button>
    </Card>
  );
}
