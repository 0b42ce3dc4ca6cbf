import type { ImportAction, ImportReport, ImportRow } from '@contract/catalogue';
import { CATALOGUE_COLUMNS, IMPORT_BODY_MAX_BYTES } from '@contract/catalogue';
import { AlertCircle, CheckCircle2, FileDown, FileUp, RotateCcw } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Badge, Card, Label, Spinner } from '@/components/ui/primitives';
import { cn } from '@/lib/utils';
import { exportUrl, useImportResources } from '../api/import-resources';
import { BackToDashboard } from '../components/back-to-dashboard';
import { PageHeader } from '../components/page-header';
import { useAdminTitle } from '../components/use-admin-title';
import { errorMessage } from '../lib/errors';
import { formatNumber } from '../lib/format';

/** Rows the report table shows at once (errors first); the counts always cover every row. */
const REPORT_ROWS_SHOWN = 500;

const PLANNED: Record<ImportAction, string> = { create: 'Create', update: 'Update', skip: 'Unchanged', error: 'Error' };
const DONE: Record<ImportAction, string> = { create: 'Created', update: 'Updated', skip: 'Unchanged', error: 'Not imported' };
const TONE: Record<ImportAction, string> = {
  create: 'border-emerald-500/40 bg-emerald-500/10 text-emerald-700 dark:text-emerald-300',
  update: 'border-sky-500/40 bg-sky-500/10 text-sky-700 dark:text-sky-300',
  skip: 'border-border bg-muted text-muted-foreground',
  error: 'border-destructive/40 bg-destructive/10 text-destructive',
};

type Step = { kind: 'choose' } | { kind: 'checked'; file: File; report: ImportReport } | { kind: 'applied'; file: File; report: ImportReport };

/** The catalogue's export (CSV, JSON) and import: choose a CSV, read the dry run's report, then Apply. */
export function CataloguePage() {
  useAdminTitle('Export and Import');
  return (
    <>
      <PageHeader title="Export and Import" description="Every resource, whatever its status, in one file; resources created and updated from a CSV" actions={<BackToDashboard />} />
      <ExportCard />
      <ImportCard />
    </>
  );
}

function ExportCard() {
  return (
    <Card className="p-6">
      <h2 className="text-xl font-semibold tracking-tight">Export</h2>
      <p className="mt-1 text-sm text-muted-foreground">
        All fields, tags, licence, counts and hosted file keys and names. The CSV opens in a spreadsheet and imports back unchanged.
      </p>
      <div className="mt-4 flex flex-wrap gap-2">
        <Button asChild variant="gradient">
          <a href={exportUrl('csv')} download>
            <FileDown aria-hidden="true" /> Export CSV
          </a>
        </Button>
        <Button asChild variant="outline">
          <a href={exportUrl('json')} download>
            <FileDown aria-hidden="true" /> Export JSON
          </a>
        </Button>
      </div>
    </Card>
  );
}

function ImportCard() {
  const importer = useImportResources();
  const [step, setStep] = React.useState<Step>({ kind: 'choose' });
  const [tooLarge, setTooLarge] = React.useState<string | null>(null);
  const inputRef = React.useRef<HTMLInputElement>(null);
  const headingRef = React.useRef<HTMLHeadingElement>(null);

  const run = (file: File, dryRun: boolean) =>
    importer.mutate(
      { file, dryRun },
      {
        onSuccess: (report) => {
          setStep({ kind: dryRun ? 'checked' : 'applied', file, report });
          // The report replaces the controls: move focus to its heading so keyboard users land on it.
          requestAnimationFrame(() => headingRef.current?.focus());
        },
      },
    );

  const choose = (e: React.ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    importer.reset();
    setStep({ kind: 'choose' });
    if (file.size > IMPORT_BODY_MAX_BYTES) {
      setTooLarge(`${file.name} is larger than ${formatNumber(IMPORT_BODY_MAX_BYTES / 1024 / 1024)} MB: split it into smaller files`);
      return;
    }
    setTooLarge(null);
    run(file, true);
  };
  const startOver = () => {
    importer.reset();
    setStep({ kind: 'choose' });
    requestAnimationFrame(() => inputRef.current?.focus());
  };

  const busy = importer.isPending;
  const failed = importer.isError ? errorMessage(importer.error) : tooLarge;
  const report = step.kind === 'choose' ? null : step.report;
  const applying = busy && step.kind === 'checked';

  return (
    <Card className="mt-6 p-6">
      <h2 className="text-xl font-semibold tracking-tight">Import</h2>
      <p className="mt-1 text-sm text-muted-foreground">
        A CSV in the export's columns (any of them, with <code>id</code>): a row with an id updates that resource, a row without one creates a resource.
        Nothing is written until you apply the checked file.
      </p>

      {step.kind !== 'checked' && (
        <div className="mt-4 flex flex-wrap items-center gap-3">
          <Label htmlFor="catalogue-import-file" className="sr-only">
            CSV file to import
          </Label>
          <input
            ref={inputRef}
            id="catalogue-import-file"
            type="file"
            accept=".csv,text/csv"
            // The button below opens it: one tab stop, not an invisible second one.
            tabIndex={-1}
            className="sr-only"
            onChange={choose}
            disabled={busy}
          />
          <Button type="button" variant={step.kind === 'applied' ? 'outline' : 'gradient'} disabled={busy} onClick={() => inputRef.current?.click()}>
            <FileUp aria-hidden="true" /> {step.kind === 'applied' ? 'Import another file' : 'Choose a CSV file'}
          </Button>
          <span className="text-xs text-muted-foreground">Up to {formatNumber(IMPORT_BODY_MAX_BYTES / 1024 / 1024)} MB</span>
        </div>
      )}

      {busy && (
        <p role="status" className="mt-4 flex items-center gap-2 text-sm text-muted-foreground">
          <Spinner /> {applying ? 'Applying the import…' : 'Checking the file…'}
        </p>
      )}

      {failed && !busy && (
        <div role="alert" className="mt-4 flex items-start gap-2 rounded-lg border border-destructive/40 bg-destructive/10 p-3 text-sm text-destructive">
          <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <div>
            <p className="font-medium">{step.kind === 'checked' ? 'The import could not be applied' : 'The file could not be checked'}</p>
            <p>{failed}</p>
          </div>
        </div>
      )}

      {report && step.kind !== 'choose' && (
        <section aria-labelledby="import-report-heading" className="mt-6">
          <h3 id="import-report-heading" ref={headingRef} tabIndex={-1} className="text-lg font-semibold outline-none">
            {step.kind === 'checked' ? `Dry run of ${step.file.name}` : `Imported ${step.file.name}`}
          </h3>
          <Summary report={report} />
          {step.kind === 'checked' && (
            <div className="mt-4 flex flex-wrap gap-2">
              <Button type="button" variant="gradient" disabled={busy || report.counts.create + report.counts.update === 0} onClick={() => run(step.file, false)}>
                <CheckCircle2 aria-hidden="true" /> Apply
              </Button>
              <Button type="button" variant="outline" disabled={busy} onClick={startOver}>
                <RotateCcw aria-hidden="true" /> Choose another file
              </Button>
            </div>
          )}
          <ReportTable rows={report.rows} labels={step.kind === 'checked' ? PLANNED : DONE} />
        </section>
      )}

      {step.kind === 'choose' && !busy && !failed && (
        <details className="mt-4 text-sm text-muted-foreground">
          <summary className="cursor-pointer">The columns</summary>
          <p className="mt-2 break-words">
            {CATALOGUE_COLUMNS.join(', ')}. Counts, dates and file names are for reading and are ignored; a hosted file is named by the key the export printed in{' '}
            <code>download_file</code> or <code>thumbnail_file</code>.
          </p>
        </details>
      )}
    </Card>
  );
}

function Summary({ report }: { report: ImportReport }) {
  const { counts, dry_run: dryRun } = report;
  const parts = dryRun
    ? [`${formatNumber(counts.create)} to create`, `${formatNumber(counts.update)} to update`, `${formatNumber(counts.skip)} unchanged`, `${formatNumber(counts.error)} with errors`]
    : [`${formatNumber(counts.create)} created`, `${formatNumber(counts.update)} updated`, `${formatNumber(counts.skip)} unchanged`, `${formatNumber(counts.error)} not imported`];
  return (
    <p className="mt-1 text-sm text-muted-foreground" aria-live="polite">
      {formatNumber(report.rows.length)} {report.rows.length === 1 ? 'row' : 'rows'}: {parts.join(', ')}.
      {dryRun && counts.error > 0 && ' Rows with errors are left out when you apply; the others are imported.'}
    </p>
  );
}

function ReportTable({ rows, labels }: { rows: ImportRow[]; labels: Record<ImportAction, string> }) {
  const shown = React.useMemo(() => [...rows.filter((r) => r.action === 'error'), ...rows.filter((r) => r.action !== 'error')].slice(0, REPORT_ROWS_SHOWN), [rows]);
  return (
    <div className="mt-4 overflow-x-auto rounded-lg border">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">What each row of the file {labels === PLANNED ? 'would do' : 'did'}</caption>
        <thead className="bg-muted/50 text-xs uppercase tracking-wide text-muted-foreground">
          <tr>
            <th scope="col" className="px-3 py-2">Row</th>
            <th scope="col" className="px-3 py-2">Action</th>
            <th scope="col" className="px-3 py-2">Title</th>
            <th scope="col" className="px-3 py-2">Errors</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((r) => (
            <tr key={r.row} className="border-t align-top">
              <td className="px-3 py-2 tabular-nums">{r.row}</td>
              <td className="px-3 py-2">
                <Badge variant="outline" className={cn('whitespace-nowrap', TONE[r.action])}>
                  {r.id !== null && r.action !== 'error' ? `${labels[r.action]} #${r.id}` : labels[r.action]}
                </Badge>
              </td>
              <td className="max-w-xs truncate px-3 py-2" title={r.title}>
                {r.title || <span className="text-muted-foreground">(no title)</span>}
              </td>
              <td className="px-3 py-2">
                {r.errors ? (
                  <ul className="space-y-0.5 text-destructive">
                    {Object.entries(r.errors).map(([column, message]) => (
                      <li key={column}>
                        <code className="text-xs">{column}</code>: {message}
                      </li>
                    ))}
                  </ul>
                ) : (
                  <span className="text-muted-foreground">—</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > shown.length && (
        <p className="border-t px-3 py-2 text-xs text-muted-foreground">
          Showing {formatNumber(shown.length)} of {formatNumber(rows.length)} rows, errors first.
        </p>
      )}
    </div>
  );
}
