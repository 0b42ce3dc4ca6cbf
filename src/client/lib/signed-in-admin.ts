import { useQuery } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { AdminProfile } from '@contract/auth';
import { STORAGE_ADMIN } from '@contract/constants';
import { api } from './api';
import { useHydrated } from './hydration';
import { storage } from './storage';

/**
 * Whether an admin is signed in in this browser, for admin shortcuts on public pages (a
 * resource's statistics). The admin area keeps the signed-in profile in local storage
 * (features/admin/session); only then is the session confirmed with GET /api/auth/me, so a
 * visitor's page makes no request. False on the server and during hydration (the first render
 * equals the server's), and until the server has confirmed the session.
 */
export function useSignedInAdmin(): boolean {
  const hydrated = useHydrated();
  const stored = hydrated && storage.get(STORAGE_ADMIN) !== null;
  // Under the admin scope (['admin', …]): signing out drops it with every other admin query.
  const me = useQuery({
    queryKey: ['admin', 'me', 'public-page'],
    queryFn: ({ signal }) => api<AdminProfile>(API.me, { signal }),
    enabled: stored,
    retry: false,
    staleTime: 60_000,
  });
  return stored && me.isSuccess;
}
