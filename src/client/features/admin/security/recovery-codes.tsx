import { Copy, Download } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { useSiteName } from '@/lib/site-api';

/** The recovery codes, shown once: a list, "Download" (a .txt) and "Copy", and a button to go on. */
export function RecoveryCodesPanel({ codes, username, doneLabel, onDone }: { codes: string[]; username: string; doneLabel: string; onDone(): void }) {
  const siteName = useSiteName();
  const text = [
    `${siteName} recovery codes for ${username}`,
    'Each code signs you in once if you lose your authenticator app.',
    '',
    ...codes,
    '',
  ].join('\n');

  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `${siteName.replace(/[^A-Za-z0-9._-]+/g, '-').toLowerCase()}-recovery-codes.txt`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  };
  const copy = () => {
    navigator.clipboard.writeText(text).then(
      () => toast({ title: 'Recovery codes copied', variant: 'success' }),
      () => toast({ title: 'Could not copy', description: 'Select the codes and copy them, or download them.', variant: 'destructive' }),
    );
  };

  return (
    <div className="grid gap-4" data-testid="recovery-codes-panel">
      <div>
        <h3 className="font-semibold">Save your recovery codes</h3>
        <p className="mt-1 text-sm text-muted-foreground">
          Each code signs you in once if you lose your authenticator app. Keep them somewhere safe: they are shown only now.
        </p>
      </div>
      <ol aria-label="Recovery codes" data-testid="recovery-codes" className="grid grid-cols-2 gap-2 rounded-lg border bg-muted/40 p-4 font-mono text-sm">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="outline" onClick={download}>
          <Download aria-hidden="true" /> Download
        </Button>
        <Button type="button" variant="outline" onClick={copy}>
          <Copy aria-hidden="true" /> Copy
        </Button>
        <Button type="button" className="ml-auto" onClick={onDone}>
          {doneLabel}
        </Button>
      </div>
    </div>
  );
}
