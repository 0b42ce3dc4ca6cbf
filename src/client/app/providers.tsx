import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import * as React from 'react';
import { queryRetry, queryRetryDelay } from '@/lib/api';
import { ClientOnly } from '@/lib/hydration';
import { ThemeProvider } from '@/lib/theme';

// The toast outlet (Radix Toast) loads as its own chunk after the first render; toasts raised before
// it arrives wait in the store and show as soon as it mounts.
const Toaster = React.lazy(() => import('@/components/ui/toaster').then((m) => ({ default: m.Toaster })));

export function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: queryRetry, retryDelay: queryRetryDelay, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

/**
 * The same tree on the server (app/render.tsx) and in the browser, so hydration matches (useId
 * included). `onMounted` runs once the first render (hydration) has committed.
 */
export function AppProviders({ children, client, onMounted }: { children: React.ReactNode; client: QueryClient; onMounted?: () => void }) {
  const mounted = React.useRef(onMounted);
  React.useEffect(() => {
    const run = mounted.current;
    mounted.current = undefined;
    run?.();
  }, []);
  return (
    <QueryClientProvider client={client}>
      <ThemeProvider>
        {children}
        <ClientOnly>
          <React.Suspense fallback={null}>
            <Toaster />
          </React.Suspense>
        </ClientOnly>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
