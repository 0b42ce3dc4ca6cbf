import { House, LayoutGrid, Gem, Globe, Users, ShieldUser, Sparkles, type LucideIcon } from 'lucide-react';
import { homeSections, paths } from '@/lib/paths';

/**
 * A target is either '#section-id' (a home page section, smooth-scrolled to) or a path
 * starting with '/' (navigated to directly).
 */
export type NavTarget = `#${string}` | `/${string}`;

export interface NavItem {
  label: string;
  target: NavTarget;
  icon: LucideIcon;
  /** Spec: My Website only in the desktop menu, Admin only in the mobile sheet. */
  only?: 'desktop' | 'mobile';
  highlight?: boolean;
}

export const NAV_ITEMS: readonly NavItem[] = [
  { label: 'Home', target: `#${homeSections.hero}`, icon: House },
  { label: 'Categories', target: `#${homeSections.categories}`, icon: LayoutGrid },
  { label: 'Resources', target: `#${homeSections.premium}`, icon: Gem },
  { label: 'My Website', target: `#${homeSections.myWebsite}`, icon: Globe, only: 'desktop' },
  { label: 'Community', target: paths.community, icon: Users },
  { label: 'Admin', target: paths.admin.login, icon: ShieldUser, only: 'mobile' },
  { label: 'Anime Edits', target: paths.category('anime_edits') as NavTarget, icon: Sparkles, highlight: true },
];

export const navItemsFor = (device: 'desktop' | 'mobile') => NAV_ITEMS.filter((i) => !i.only || i.only === device);

/** A real href, so middle-click / open-in-new-tab still land in the right place. */
export const hrefFor = (target: NavTarget) => (target.startsWith('#') ? `${paths.home}${target}` : target);
