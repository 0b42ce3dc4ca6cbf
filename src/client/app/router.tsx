import { type ClientOnErrorFunction, createBrowserRouter, RouterProvider } from 'react-router';
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

/**
 * A route's error boundary shows the error page (app/route-error.tsx). React itself logs an error a
 * boundary caught while rendering (the root's onCaughtError); the router reports here what it
 * caught otherwise (a page's code that failed to load). Without this handler the router would
 * log every render error a second time.
 */
const logRouteError: ClientOnErrorFunction = (error, { errorInfo, location }) => {
  if (!errorInfo) console.error(`Could not show ${location.pathname}:`, error);
};

export function AppRouter({ router }: { router: AppRouterInstance }) {
  return <RouterProvider router={router} onError={logRouteError} />;
}
