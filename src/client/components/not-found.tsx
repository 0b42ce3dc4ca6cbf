import { House } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { paths } from '@/lib/paths';

/** A page's own "not found" (an unknown category, a removed resource): the 404, what is missing, the way home. */
export function NotFoundPanel({ message }: { message: string }) {
  return (
    <main id="main" className="flex min-h-[70vh] flex-col items-center justify-center px-4 py-24 text-center">
      <p className="bg-gradient-to-r from-violet-600 to-fuchsia-600 bg-clip-text text-7xl font-black text-transparent">404</p>
      <h1 className="mt-4 text-3xl font-bold tracking-tight">Page not found</h1>
      <p className="mt-3 max-w-md text-muted-foreground">{message}</p>
      <Button asChild variant="gradient" size="lg" className="mt-8 rounded-full">
        <Link to={paths.home}>
          <House aria-hidden="true" />
          Back to Home
        </Link>
      </Button>
    </main>
  );
}
