import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import * as React from 'react';
import { Toaster } from '@/components/ui/toaster';
import { queryRetry, queryRetryDelay } from '@/lib/api';
import { ThemeProvider } from '@/lib/theme';

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
        <Toaster />
      </ThemeProvider>
    </QueryClientProvider>
  );
}
