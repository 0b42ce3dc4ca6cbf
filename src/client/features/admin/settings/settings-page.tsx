import type { AdminSettings } from '@contract/settings';
import { Building2, FileText, Footprints, Gauge, History, House, Users, type LucideIcon } from 'lucide-react';
import * as React from 'react';
import { NavLink, useParams } from 'react-router';
import { Card, Skeleton } from '@/components/ui/primitives';
import { paths, SETTINGS_SCREENS, type SettingsScreen } from '@/lib/paths';
import { cn } from '@/lib/utils';
import { useSettings } from '../api/get-settings';
import { PageHeader } from '../components/page-header';
import { QueryError } from '../components/query-error';
import { useAdminTitle } from '../components/use-admin-title';
import { useErrorToast } from '../components/use-error-toast';
import { AccessDenied } from '../routes/access-denied';
import { AdminNotFound } from '../routes/admin-not-found';
import { useSession } from '../session/session';
import { CommunitySection } from './community-section';
import { FiguresSection } from './figures-section';
import { FooterSection } from './footer-section';
import { HistorySection } from './history-section';
import { HomeSection } from './home-section';
import { LegalSection } from './legal-section';
import { SiteSection } from './site-section';

const SCREENS: Record<SettingsScreen, { label: string; description: string; icon: LucideIcon; Component: React.ComponentType<{ settings: AdminSettings }> }> = {
  site: { label: 'Site', description: 'Name, description, address, logo and favicon', icon: Building2, Component: SiteSection },
  home: { label: 'Home', description: 'The hero, My Website and its promo video', icon: House, Component: HomeSection },
  community: { label: 'Community', description: 'The link cards on the Community page', icon: Users, Component: CommunitySection },
  footer: { label: 'Footer', description: 'About text, links, social icons and copyright', icon: Footprints, Component: FooterSection },
  figures: { label: 'Figures', description: 'The “Our Growing Community” figures', icon: Gauge, Component: FiguresSection },
  legal: { label: 'Legal pages', description: 'Privacy Policy and Terms of Service', icon: FileText, Component: LegalSection },
  history: { label: 'History', description: 'Saved versions, and restoring one', icon: History, Component: HistorySection },
};

const isScreen = (s: string | undefined): s is SettingsScreen => (SETTINGS_SCREENS as readonly string[]).includes(s ?? '');

/** Super admins only: everything that makes the site the owner's, one screen per section. */
export function SettingsPage() {
  const { isSuperUser } = useSession();
  const { screen } = useParams();
  if (!isSuperUser) return <AccessDenied />;
  if (!isScreen(screen)) return <AdminNotFound />;
  return <SettingsScreens screen={screen} />;
}

function SettingsScreens({ screen }: { screen: SettingsScreen }) {
  const current = SCREENS[screen];
  useAdminTitle(`Settings: ${current.label}`);
  const settings = useSettings();
  useErrorToast(settings.error, 'Failed to load settings');
  const nav = React.useRef<HTMLElement>(null);
  // On a phone the sections scroll sideways: the open one is brought into view.
  React.useEffect(() => {
    nav.current?.querySelector('[aria-current="page"]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [screen]);

  return (
    <>
      <PageHeader title="Settings" description="Make the site yours: what visitors see, and what it says about you." />
      <div className="grid gap-6 lg:grid-cols-[15rem_minmax(0,1fr)] lg:gap-8">
        <nav ref={nav} aria-label="Settings sections" className="-mx-4 overflow-x-auto px-4 lg:mx-0 lg:overflow-visible lg:px-0">
          <ul className="flex gap-1 lg:sticky lg:top-24 lg:grid">
            {SETTINGS_SCREENS.map((s) => {
              const { label, icon: Icon } = SCREENS[s];
              return (
                <li key={s} className="shrink-0">
                  <NavLink
                    to={paths.admin.settings(s)}
                    className={({ isActive }) =>
                      cn(
                        'flex items-center gap-2 whitespace-nowrap rounded-lg px-3 py-2 text-sm font-medium text-muted-foreground outline-none transition-colors hover:bg-muted hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50',
                        isActive && 'bg-primary/10 text-foreground ring-1 ring-primary/20 hover:bg-primary/15',
                      )
                    }
                  >
                    <Icon aria-hidden="true" className="size-4 shrink-0" />
                    {label}
                  </NavLink>
                </li>
              );
            })}
          </ul>
        </nav>
        <section aria-labelledby="settings-screen-heading" className="grid min-w-0 content-start gap-6">
          <div>
            <h2 id="settings-screen-heading" className="text-2xl font-semibold tracking-tight">
              {current.label}
            </h2>
            <p className="mt-1 text-sm text-muted-foreground">{current.description}</p>
          </div>
          {settings.data ? (
            <current.Component key={screen} settings={settings.data} />
          ) : settings.isError ? (
            <QueryError title="Failed to load settings" error={settings.error} onRetry={() => void settings.refetch()} />
          ) : (
            <SettingsSkeleton />
          )}
        </section>
      </div>
    </>
  );
}

function SettingsSkeleton() {
  return (
    <Card aria-busy="true" aria-label="Loading settings" className="grid gap-5 p-6">
      {Array.from({ length: 4 }, (_, i) => (
        <div key={i} className="grid gap-2">
          <Skeleton className="h-4 w-32" />
          <Skeleton className="h-9 w-full" />
        </div>
      ))}
    </Card>
  );
}
