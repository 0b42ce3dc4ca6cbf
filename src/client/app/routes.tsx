import type { RouteObject } from 'react-router';
import { AppShell } from '@/features/layout/app-shell';
import { PublicLayout } from '@/features/layout/public-layout';
import { HomePage } from '@/features/home/home-page';
import { AppError, PageError } from './route-error';

const lazyPage = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({ Component: (await load()).default });

/**
 * Every client route, used by the browser router and by the server render (app/render.tsx).
 * Home is in the first bundle (LCP); every other page, and the whole admin area, is its own chunk.
 */
export const routes: RouteObject[] = [
  {
    // Pathless: scroll-to-top and the cursor apply to every screen, admin included.
    Component: AppShell,
    ErrorBoundary: AppError,
    // A first visit to a lazy page shows nothing (not a warning) while its chunk loads.
    HydrateFallback: () => null,
    children: [
      {
        path: '/',
        Component: PublicLayout,
        children: [
          {
            // Pathless: a public page that fails keeps the site's header and footer around its error.
            ErrorBoundary: PageError,
            children: [
              { index: true, Component: HomePage },
              { path: 'categories/:slug', lazy: lazyPage(() => import('@/features/categories/category-page')) },
              { path: 'resources/:idSlug', lazy: lazyPage(() => import('@/features/resources/resource-page')) },
              { path: 'search', lazy: lazyPage(() => import('@/features/categories/search-page')) },
              { path: 'download-expired', lazy: lazyPage(() => import('@/features/resources/download-expired-page')) },
              { path: 'community', lazy: lazyPage(() => import('@/features/pages/community-page')) },
              { path: 'privacy', lazy: lazyPage(() => import('@/features/pages/privacy-page')) },
              { path: 'terms', lazy: lazyPage(() => import('@/features/pages/terms-page')) },
              { path: '*', lazy: lazyPage(() => import('@/features/pages/not-found-page')) },
            ],
          },
        ],
      },
      { path: '/coming-soon', lazy: lazyPage(() => import('@/features/pages/coming-soon-page')) },
      { path: '/admin/*', lazy: lazyPage(() => import('@/features/admin/admin-app')) },
    ],
  },
];
