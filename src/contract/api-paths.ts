/** Every API path, used by the server to register routes and by the client to call them. */
export const API = {
  categories: '/api/categories',
  resources: '/api/resources',
  premium: '/api/resources/premium',
  resource: (id: number | string) => `/api/resources/${id}`,
  download: (id: number | string) => `/api/resources/${id}/download`,
  related: (id: number | string) => `/api/resources/${id}/related`,
  activeAnnouncements: '/api/announcements/active',
  site: '/api/site',
  /** A legal page (contract/settings.ts LEGAL_PAGES): `{ title, html, updated_at }`. */
  page: (page: string) => `/api/pages/${page}`,
  login: '/api/auth/login',
  logout: '/api/auth/logout',
  me: '/api/auth/me',
  adminResources: '/api/admin/resources',
  adminResource: (id: number | string) => `/api/admin/resources/${id}`,
  /** One action on many resources (contract/bulk.ts): a result per id. */
  adminResourcesBulk: '/api/admin/resources/bulk',
  /** The ids of every resource the admin list's filters match (for "Select all N matching"). */
  adminResourceIds: '/api/admin/resources/ids',
  /** Every resource as CSV or JSON (contract/catalogue.ts). */
  adminResourcesExport: '/api/admin/resources/export',
  /** A CSV of resources to create or update; `?dry_run=true` only reports. */
  adminResourcesImport: '/api/admin/resources/import',
  /** Queue a failed preview job again. */
  adminResourcePreviewRetry: (id: number | string) => `/api/admin/resources/${id}/preview/retry`,
  /** A signed, short-lived link to a resource's page whatever its status. */
  adminResourcePreviewLink: (id: number | string) => `/api/admin/resources/${id}/preview-link`,
  /** Deleted resources (contract/trash.ts): GET the list. */
  adminTrash: '/api/admin/trash',
  /** DELETE: purge one for good (super admins). */
  adminTrashItem: (id: number | string) => `/api/admin/trash/${id}`,
  /** POST: bring one back as it was. */
  adminTrashRestore: (id: number | string) => `/api/admin/trash/${id}/restore`,
  adminAnnouncements: '/api/admin/announcements',
  adminAnnouncement: (id: number | string) => `/api/admin/announcements/${id}`,
  adminAdmins: '/api/admin/admins',
  adminAdmin: (id: number | string) => `/api/admin/admins/${id}`,
  dashboard: '/api/admin/dashboard',
  adminDownloads: '/api/admin/downloads',
  adminResourceDownloads: (id: number | string) => `/api/admin/resources/${id}/downloads`,
  adminResourceDownloadsCsv: (id: number | string) => `/api/admin/resources/${id}/downloads.csv`,
  /** The owner's settings (super admins): GET, and PATCH with any subset of the sections. */
  adminSettings: '/api/admin/settings',
  adminSettingsVersions: '/api/admin/settings/versions',
  adminSettingsVersion: (id: number | string) => `/api/admin/settings/versions/${id}`,
  adminSettingsRestore: (id: number | string) => `/api/admin/settings/versions/${id}/restore`,
  adminSettingsPreviewMarkdown: '/api/admin/settings/preview-markdown',
  /** The audit log (contract/audit.ts): GET, newest first, filtered; super admins see all, an admin their own. */
  adminAudit: '/api/admin/audit',
  /** The same filters as CSV, streamed. */
  adminAuditCsv: '/api/admin/audit.csv',
} as const;
