import type { LegalPage } from '@contract/settings';
import { api } from '@/lib/api';
import { SETTINGS_API } from './settings-paths';

/** The editor's preview: the server renders and sanitises it exactly as the public page will be. */
export const previewMarkdown = (markdown: string, signal?: AbortSignal) =>
  api<Pick<LegalPage, 'html'>>(SETTINGS_API.previewMarkdown, { method: 'POST', body: { markdown }, signal });
