import { ExternalLink, LogOut, ShieldCheck } from 'lucide-react';
import { Outlet, useNavigate } from 'react-router';
import { Link } from '@/lib/link';
import { Button } from '@/components/ui/button';
import { Badge, Spinner } from '@/components/ui/primitives';
import { toast } from '@/components/ui/use-toast';
import { paths } from '@/lib/paths';
import { useLogout } from '../api/logout';
import { useSession } from '../session/session';
import { ThemeToggle } from './theme-toggle';

/** The protected layout: sticky 'Admin Panel' header with Logout, then the page. */
export function AdminShell() {
  const { admin, isSuperUser, signOut } = useSession();
  const navigate = useNavigate();
  const logout = useLogout();

  const onLogout = () => {
    logout.mutate(undefined, {
      // Signed out locally whatever the server says: a dead session is as good as ended.
      onSettled: () => {
        signOut();
        toast({ title: 'Logged out', description: 'You have been successfully logged out' });
        navigate(paths.admin.login, { replace: true });
      },
    });
  };

  return (
    <div className="min-h-dvh bg-gradient-to-b from-violet-50/70 via-background to-background dark:from-violet-950/30">
      <header className="sticky top-0 z-40 border-b bg-background/80 backdrop-blur-md supports-[backdrop-filter]:bg-background/70">
        <div className="mx-auto flex h-16 max-w-7xl items-center gap-3 px-4 sm:px-6">
          <Link
            to={paths.admin.dashboard}
            className="flex items-center gap-2 rounded-md font-bold tracking-tight outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
          >
            <span className="grid size-9 place-items-center rounded-lg bg-gradient-to-br from-violet-600 to-fuchsia-600 text-white shadow-md">
              <ShieldCheck className="size-5" aria-hidden="true" />
            </span>
            <span className="text-lg">Admin Panel</span>
          </Link>
          <div className="ml-auto flex items-center gap-1 sm:gap-2">
            {admin && (
              <span className="mr-1 hidden items-center gap-2 text-sm text-muted-foreground md:flex">
                Signed in as <span className="font-medium text-foreground">{admin.username}</span>
                {isSuperUser && <Badge variant="secondary">Super Admin</Badge>}
              </span>
            )}
            <Button asChild variant="ghost" size="sm" className="hidden sm:inline-flex">
              <Link to={paths.home}>
                <ExternalLink aria-hidden="true" /> View site
              </Link>
            </Button>
            <ThemeToggle />
            <Button variant="outline" size="sm" onClick={onLogout} disabled={logout.isPending}>
              {logout.isPending ? <Spinner /> : <LogOut aria-hidden="true" />}
              Logout
            </Button>
          </div>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-7xl px-4 py-8 sm:px-6 sm:py-10">
        <Outlet />
      </main>
    </div>
  );
}
