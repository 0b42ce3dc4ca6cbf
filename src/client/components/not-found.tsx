import { House } from 'lucide-react';
import { StatusAction, StatusPage } from '@/components/status-page';
import { paths } from '@/lib/paths';

/** A page's own "not found" (an unknown category, a removed resource): the 404, what is missing, the way home. */
export function NotFoundPanel({ message }: { message: string }) {
  return (
    <StatusPage
      variant="panel"
      mark={<p className="bg-gradient-to-r from-violet-600 to-fuchsia-600 bg-clip-text text-7xl font-black text-transparent">404</p>}
      title="Page not found"
      actions={
        <StatusAction icon={House} to={paths.home}>
          Back to Home
        </StatusAction>
      }
    >
      {message}
    </StatusPage>
  );
}
