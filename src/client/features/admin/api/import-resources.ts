import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { ExportFormat, ImportReport } from '@contract/catalogue';
import { api } from '@/lib/api';

/** An import checks and writes up to tens of thousands of rows: far longer than a form's save. */
export const IMPORT_TIMEOUT_MS = 5 * 60 * 1000;

/** The export's address: a plain link downloads it (the session cookie goes with it). */
export const exportUrl = (format: ExportFormat) => `${API.adminResourcesExport}?format=${format}`;

/** Sends the CSV as it is; `dryRun` only reports what applying would do. */
export const importResources = ({ file, dryRun }: { file: Blob; dryRun: boolean }) =>
  api<ImportReport>(`${API.adminResourcesImport}${dryRun ? '?dry_run=true' : ''}`, {
    method: 'POST',
    body: new Blob([file], { type: 'text/csv' }),
    timeoutMs: IMPORT_TIMEOUT_MS,
  });

export function useImportResources() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: importResources,
    // Anything the admin or the public pages show may have changed: everything is refetched when next seen.
    onSuccess: (report) => (report.dry_run ? undefined : client.invalidateQueries()),
  });
}
