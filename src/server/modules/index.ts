import type { Module } from '../context';
import { adminsModule } from './admins/routes';
import { auditModule } from './audit/routes';
import { linksModule } from './links/routes';
import { adminAnnouncementsModule } from './announcements/admin-routes';
import { authModule } from './auth/routes';
import { dashboardModule } from './dashboard/routes';
import { downloadStatsModule } from './downloads/admin-routes';
import { downloadsModule } from './downloads/routes';
import { adminResourcesModule } from './resources/admin-routes';
import { adminBulkModule } from './resources/bulk-routes';
import { trashModule } from './resources/trash-routes';
import { catalogueModule } from './catalogue/routes';
import { announcementsModule } from './announcements/routes';
import { categoriesModule } from './categories/routes';
import { resourcesModule } from './resources/routes';
import { siteModule } from './site/routes';
import { settingsModule } from './settings/routes';
import { thumbnailsModule } from './thumbnails/routes';
import { mediaModule } from './media/routes';
import { specimensModule } from './media/specimens';
import { ogImageModule } from './spa/og-image';
import { mediaJobsModule } from './media/worker';
import { metricsModule } from './metrics/routes';
import { systemModule } from './system/routes';
import { filesModule } from './files/routes';
import { spaModule } from './spa/routes';
import { listingsModule } from './listings/routes';
import { backupsModule } from './backups/routes';

/**
 * Every module, in registration order. Add yours above the SPA module: it goes last because
 * it owns the catch-all for non-/api paths.
 */
export const modules: Module[] = [
  authModule, // first: its guard attaches to every /api/admin route registered after it
  categoriesModule,
  resourcesModule,
  downloadsModule,
  announcementsModule,
  siteModule,
  thumbnailsModule,
  mediaModule,
  specimensModule,
  mediaJobsModule,
  listingsModule,
  filesModule,
  adminResourcesModule,
  adminBulkModule,
  trashModule,
  catalogueModule,
  adminAnnouncementsModule,
  adminsModule,
  settingsModule,
  dashboardModule,
  downloadStatsModule,
  auditModule,
  metricsModule,
  systemModule,
  linksModule,
  backupsModule,
  ogImageModule,
  spaModule,
];
