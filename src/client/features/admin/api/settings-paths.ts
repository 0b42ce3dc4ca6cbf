/**
 * The settings API's paths (issue 29). The client's own copy until the lead moves them into
 * contract/api-paths.ts beside the server's routes.
 */
export const SETTINGS_API = {
  settings: '/api/admin/settings',
  versions: '/api/admin/settings/versions',
  version: (id: number | string) => `/api/admin/settings/versions/${id}`,
  restore: (id: number | string) => `/api/admin/settings/versions/${id}/restore`,
  previewMarkdown: '/api/admin/settings/preview-markdown',
} as const;
