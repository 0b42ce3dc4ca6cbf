import { Compass } from 'lucide-react';
import { Card } from '@/components/ui/primitives';
import { BackToDashboard } from '../components/back-to-dashboard';
import { useAdminTitle } from '../components/use-admin-title';

export function AdminNotFound() {
  useAdminTitle('Page Not Found');
  return (
    <Card className="mx-auto flex max-w-md flex-col items-center gap-3 p-10 text-center">
      <Compass className="size-10 text-muted-foreground" aria-hidden="true" />
      <h1 className="text-2xl font-bold">Page not found</h1>
      <p className="text-muted-foreground">There is no admin page at this address.</p>
      <BackToDashboard variant="default" />
    </Card>
  );
}
