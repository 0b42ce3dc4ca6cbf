import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import * as React from 'react';
import { queryRetry, queryRetryDelay } from '@/lib/api';
import { ThemeProvider } from '@/lib/theme';

// The toast outlet (Radix Toast) loads as its own chunk after the first render; toasts raised before
// it arrives wait in the store and show as soon as it mounts.
const Toaster = React.lazy(() => import('@/components/ui/toaster').then((m) => ({ default: m.Toaster })));

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: queryRetry, retryDelay: queryRetryDelay, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

export function AppProviders({ children }: { children: React.ReactNode }) {
  const [client] = React.useState(makeQueryClient);
  return (
    <QueryClientProvider client={client}>
      <ThemeProvider>
        {children}
        <React.Suspense fallback={null}>
          <Toaster />
        </React.Suspense>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
