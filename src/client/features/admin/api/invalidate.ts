import type { QueryClient } from '@tanstack/react-query';
import type { CategoryValue } from '@contract/categories';
import { categoriesQueryOptions } from '@/lib/site-api';
import { announcementsQueryOptions } from './get-announcements';
import { dashboardQueryOptions } from './get-dashboard';
import { resourcesKey } from './get-resources';
import { trashQueryOptions } from './get-trash';

/*
 * The public site's queries (resource lists, the bell) belong to other features, so instead of
 * naming their keys everything is first marked stale without refetching: whatever the admin
 * opens next is fresh. Then the admin views on screen refetch.
 */

/** After a resource is created, edited, deleted (moved to the trash) or restored. */
export async function invalidateResourceViews(client: QueryClient, category: CategoryValue) {
  await client.invalidateQueries({ refetchType: 'none' });
  await Promise.all([
    client.invalidateQueries({ queryKey: resourcesKey(category) }),
    client.invalidateQueries({ queryKey: dashboardQueryOptions().queryKey }),
    client.invalidateQueries({ queryKey: categoriesQueryOptions().queryKey }),
    client.invalidateQueries({ queryKey: trashQueryOptions().queryKey }),
  ]);
}

/** After an announcement is added, toggled or deleted (the dashboard counts active ones). */
export async function invalidateAnnouncementViews(client: QueryClient) {
  await client.invalidateQueries({ refetchType: 'none' });
  await Promise.all([
    client.invalidateQueries({ queryKey: announcementsQueryOptions().queryKey }),
    client.invalidateQueries({ queryKey: dashboardQueryOptions().queryKey }),
  ]);
}
