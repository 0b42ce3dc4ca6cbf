import { API } from '@contract/api-paths';
import type { LegalPage } from '@contract/settings';
import { api } from '@/lib/api';

/** The editor's preview: the server renders and sanitises it exactly as the public page will be. */
export const previewMarkdown = (markdown: string, signal?: AbortSignal) =>
  api<Pick<LegalPage, 'html'>>(API.adminSettingsPreviewMarkdown, { method: 'POST', body: { markdown }, signal });
