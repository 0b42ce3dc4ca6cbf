import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { afterShellHydrated, markHydrated, seedQueries, setRenderClock, takeInitialData } from '@/lib/hydration';
import { nextTask } from '@/lib/tasks';
import { prepareClassMerge } from '@/lib/utils';
import { AppProviders, makeQueryClient } from './providers';
import { AppRouter, createAppRouter, routerReady } from './router';

/**
 * Starts the app (loaded by main.tsx; after the first paint when the server sent the page's markup).
 * A server-rendered page is hydrated — React adopts the existing DOM instead of building it again —
 * with the query cache seeded from the same data the server rendered with, so the first render
 * matches the HTML and fetches nothing. Each step runs in a task of its own (the router's first
 * match, tailwind-merge's one-time setup in two, then the hydration, which runs in a transition so
 * it yields to the browser every few milliseconds), and only once the route's own chunk is loaded.
 * `onMounted` runs when the whole page has hydrated or rendered (the page's handlers are live).
 */
export async function boot(container: HTMLElement, onMounted?: () => void) {
  const client = makeQueryClient();
  const initial = takeInitialData();
  if (initial) seedQueries(client, initial.queries);
  await nextTask();
  const router = createAppRouter();
  await routerReady(router);
  await nextTask();
  await prepareClassMerge();
  await nextTask();
  const app = (
    <StrictMode>
      <AppProviders
        client={client}
        onMounted={() =>
          afterShellHydrated(() => {
            // All hydrated: later renders use the browser's clock, and browser-only parts render at once.
            setRenderClock(undefined);
            markHydrated();
            onMounted?.();
          })
        }
      >
        <AppRouter router={router} />
      </AppProviders>
    </StrictMode>
  );
  if (container.firstElementChild && initial) {
    // Time-relative texts render against the server's clock until hydration is done.
    setRenderClock(initial.now);
    startTransition(() => {
      hydrateRoot(container, app);
    });
    return;
  }
  markHydrated();
  container.replaceChildren();
  startTransition(() => {
    createRoot(container).render(app);
  });
}
