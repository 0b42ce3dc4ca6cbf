import { queryOptions, useQuery } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import { STORAGE_DISMISSED } from '@contract/constants';
import type { Announcement, AnnouncementList } from '@contract/announcements';
import * as React from 'react';
import { api } from '@/lib/api';
import { storage } from '@/lib/storage';

/** Enough to cover every announcement a visitor could plausibly have dismissed, without growing forever. */
const DISMISSED_MAX = 100;

export const activeAnnouncementsQueryOptions = () =>
  queryOptions({
    queryKey: ['announcements', 'active'],
    queryFn: ({ signal }) => api<AnnouncementList>(API.activeAnnouncements, { signal }),
    staleTime: 60_000,
  });

/** Stored ids; anything that is not a JSON array of integers counts as "none dismissed". */
export function readDismissed(): number[] {
  const raw = storage.get(STORAGE_DISMISSED);
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter((v): v is number => Number.isInteger(v)) : [];
  } catch {
    return [];
  }
}

function writeDismissed(ids: number[]) {
  storage.set(STORAGE_DISMISSED, JSON.stringify(ids.slice(-DISMISSED_MAX)));
}

export interface BellState {
  /** Active announcements the visitor has not dismissed, newest first. */
  items: Announcement[];
  dismiss(id: number): void;
  clearAll(): void;
}

/** Spec: bell announcement failure is logged only; the list stays empty. */
export function useBellAnnouncements(): BellState {
  const query = useQuery(activeAnnouncementsQueryOptions());
  const [dismissed, setDismissed] = React.useState<number[]>(readDismissed);

  React.useEffect(() => {
    if (query.isError) console.warn('Could not load announcements:', query.error.message);
  }, [query.isError, query.error]);

  // Another tab dismissing keeps this one in step.
  React.useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key === STORAGE_DISMISSED || e.key === null) setDismissed(readDismissed());
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  const all = query.data?.items;
  const items = React.useMemo(() => (all ?? []).filter((a) => !dismissed.includes(a.id)), [all, dismissed]);

  const add = React.useCallback((ids: number[]) => {
    setDismissed((prev) => {
      const next = [...prev.filter((id) => !ids.includes(id)), ...ids];
      writeDismissed(next);
      return next;
    });
  }, []);

  return {
    items,
    dismiss: React.useCallback((id: number) => add([id]), [add]),
    clearAll: React.useCallback(() => add(items.map((a) => a.id)), [add, items]),
  };
}
