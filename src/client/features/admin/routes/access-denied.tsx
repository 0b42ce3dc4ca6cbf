import { ShieldX } from 'lucide-react';
import { Card } from '@/components/ui/primitives';
import { BackToDashboard } from '../components/back-to-dashboard';

/** Spec: what a non-super user sees on Manage Admins. */
export function AccessDenied() {
  return (
    <Card className="mx-auto flex max-w-md flex-col items-center gap-3 p-10 text-center">
      <span className="grid size-14 place-items-center rounded-full bg-destructive/10 text-destructive">
        <ShieldX className="size-7" aria-hidden="true" />
      </span>
      <h1 className="text-2xl font-bold">Access Denied</h1>
      <p className="text-muted-foreground">You don&apos;t have permission to access this page.</p>
      <BackToDashboard variant="default" />
    </Card>
  );
}
