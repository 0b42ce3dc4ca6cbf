/** Every API path, used by the server to register routes and by the client to call them. */
export const API = {
  categories: '/api/categories',
  resources: '/api/resources',
  premium: '/api/resources/premium',
  resource: (id: number | string) => `/api/resources/${id}`,
  download: (id: number | string) => `/api/resources/${id}/download`,
  related: (id: number | string) => `/api/resources/${id}/related`,
  /** POST, no body: a visitor's "Report a broken link"; queues a re-check of the resource's links (202). */
  reportLink: (id: number | string) => `/api/resources/${id}/report-link`,
  /** The files inside a resource's ZIP download, a page at a time (contract/contents.ts). */
  resourceContents: (id: number | string) => `/api/resources/${id}/contents`,
  activeAnnouncements: '/api/announcements/active',
  site: '/api/site',
  /** A legal page (contract/settings.ts LEGAL_PAGES): `{ title, html, updated_at }`. */
  page: (page: string) => `/api/pages/${page}`,
  login: '/api/auth/login',
  logout: '/api/auth/logout',
  me: '/api/auth/me',
  /** Sign in with a passkey (contract/passkeys.ts): POST for the options, then POST the browser's answer. */
  passkeySignInOptions: '/api/auth/passkey/options',
  passkeySignIn: '/api/auth/passkey',
  /** The signed-in admin's own sessions (contract/auth.ts adminSessionSchema): GET the list. */
  authSessions: '/api/auth/sessions',
  /** DELETE: end one of one's own sessions (ending the current one signs out). */
  authSession: (id: string) => `/api/auth/sessions/${id}`,
  /** POST: end every session of one's own but this one. */
  authSessionsRevokeOthers: '/api/auth/sessions/revoke-others',
  /** POST `{ current_password, new_password }`: change one's own password; the other sessions end. */
  authPassword: '/api/auth/password',
  /** The second sign-in step: `{ challenge, code }` or `{ challenge, recovery_code }` (contract/two-factor.ts). */
  loginSecondStep: '/api/auth/login/2fa',
  /** Policy `required`, no second factor yet: enrol with the sign-in challenge, then the session opens. */
  loginTotp: '/api/auth/login/totp',
  loginTotpConfirm: '/api/auth/login/totp/confirm',
  /** The signed-in admin's TOTP: GET status, POST start enrolment, DELETE turn off. */
  totp: '/api/auth/totp',
  totpConfirm: '/api/auth/totp/confirm',
  /** POST `{ code }`: new recovery codes replace the old ones. */
  totpRecoveryCodes: '/api/auth/totp/recovery-codes',
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
  /** DELETE: end every session of that admin (super admins). */
  adminAdminSessions: (id: number | string) => `/api/admin/admins/${id}/sessions`,
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
  /** The signed-in admin's own passkeys (contract/passkeys.ts): GET the list, POST the browser's answer to add one. */
  adminPasskeys: '/api/admin/passkeys',
  /** POST: the options for "Add a passkey". */
  adminPasskeyOptions: '/api/admin/passkeys/options',
  /** PATCH: rename; DELETE: remove (one's own only). */
  adminPasskey: (id: number | string) => `/api/admin/passkeys/${id}`,
  /** The second-factor policy (super admins): GET, PATCH `{ policy }`. */
  adminTwoFactorPolicy: '/api/admin/two-factor-policy',
  /** The audit log (contract/audit.ts): GET, newest first, filtered; super admins see all, an admin their own. */
  /** Super admins: the health of every part (contract/system.ts). */
  adminSystem: '/api/admin/system',
  /** Super admins: GET the backups in the store (contract/backups.ts), POST "Back up now" (202). */
  adminBackups: '/api/admin/backups',
  /** A backup's download through a signed link from GET /api/admin/backups. */
  backupFile: (token: string) => `/api/backups/${token}`,
  adminAudit: '/api/admin/audit',
  /** The same filters as CSV, streamed. */
  adminAuditCsv: '/api/admin/audit.csv',
  /** Broken external links (contract/links.ts): GET the list. */
  adminLinkHealth: '/api/admin/link-health',
  /** POST: check every external link now (queues the check; 202). */
  adminLinkHealthRun: '/api/admin/link-health/run',
} as const;
