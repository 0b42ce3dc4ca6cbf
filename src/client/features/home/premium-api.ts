import { queryOptions, useQuery } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import { FETCH_TIMEOUT_MS } from '@contract/constants';
import type { PremiumList } from '@contract/resources';
import * as React from 'react';
import { api } from '@/lib/api';
import { type RetryNotice, withPremiumRetry } from './premium-retry';

export const premiumQueryKey = ['resources', 'premium'] as const;

/**
 * retry: false — the carousel runs its own policy inside the query function so it can show
 * the 'Retry attempt N/3 in Xs...' notice; TanStack's default would retry a second time around it.
 */
export const premiumQueryOptions = (onNotice?: (n: RetryNotice | null) => void) =>
  queryOptions({
    queryKey: premiumQueryKey,
    queryFn: ({ signal }) =>
      withPremiumRetry(() => api<PremiumList>(API.premium, { signal, timeoutMs: FETCH_TIMEOUT_MS }), { signal, onNotice }),
    retry: false,
    staleTime: 60_000,
  });

export function usePremiumResources() {
  const [notice, setNotice] = React.useState<RetryNotice | null>(null);
  const query = useQuery(premiumQueryOptions(setNotice));
  return { query, notice };
}
