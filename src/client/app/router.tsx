import { createBrowserRouter, RouterProvider } from 'react-router';
import { routes } from './routes';

export type AppRouterInstance = ReturnType<typeof createBrowserRouter>;

/** Made by boot (not when this module is evaluated): matching the first URL is a step of its own. */
export function createAppRouter(): AppRouterInstance {
  return createBrowserRouter(routes);
}

/**
 * Resolves once the router has matched the first URL and loaded that route's lazy chunk, so the
 * first render is the page itself (the same markup as the prerendered HTML), never the empty fallback.
 */
export function routerReady(router: AppRouterInstance): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}

export function AppRouter({ router }: { router: AppRouterInstance }) {
  return <RouterProvider router={router} />;
}
