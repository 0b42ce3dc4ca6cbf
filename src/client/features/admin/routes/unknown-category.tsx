import { FolderX } from 'lucide-react';
import { Card } from '@/components/ui/primitives';
import { BackToDashboard } from '../components/back-to-dashboard';
import { useAdminTitle } from '../components/use-admin-title';

export function UnknownCategory({ value }: { value: string }) {
  useAdminTitle('Unknown Category');
  return (
    <Card className="mx-auto flex max-w-lg flex-col items-center gap-3 p-10 text-center">
      <span className="grid size-12 place-items-center rounded-full bg-muted text-muted-foreground">
        <FolderX aria-hidden="true" />
      </span>
      <h1 className="text-2xl font-bold">Unknown category</h1>
      <p className="text-muted-foreground">
        There is no category called <span className="font-mono text-foreground">“{value}”</span>. Pick one from the dashboard.
      </p>
      <BackToDashboard variant="default" />
    </Card>
  );
}
