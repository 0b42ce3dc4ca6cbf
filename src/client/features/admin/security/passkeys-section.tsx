import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { type Passkey, passkeyNameSchema } from '@contract/passkeys';
import { AlertTriangle, KeyRound, Pencil, Plus, RotateCw, Trash2 } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Card, Input, Skeleton, Spinner } from '@/components/ui/primitives';
import { toast } from '@/components/ui/use-toast';
import { isAlreadyRegistered, isCeremonyCancelled, useAddPasskey, usePasskeys, useRemovePasskey, useRenamePasskey } from '../api/passkeys';
import { ConfirmDialog } from '../components/confirm-dialog';
import { describedBy, FormField } from '../components/form-field';
import { useErrorToast } from '../components/use-error-toast';
import { errorMessage, isSessionError } from '../lib/errors';
import { formatShortDate } from '../lib/format';

const CANCELLED = 'The passkey prompt was closed or timed out. Nothing was changed.';

/** "Chrome on macOS", from the browser's User-Agent: a default name the admin may change. */
async function defaultPasskeyName(): Promise<string> {
  try {
    const { default: Bowser } = await import('bowser');
    const { browser, os } = Bowser.parse(navigator.userAgent);
    return [browser.name, os.name].filter(Boolean).join(' on ') || 'My passkey';
  } catch {
    return 'My passkey';
  }
}

/** The Security page's passkeys: add one (a name, then the browser's prompt), list, rename and remove one's own. */
export function PasskeysSection() {
  const passkeys = usePasskeys();
  useErrorToast(passkeys.error, 'Failed to load passkeys');
  const [adding, setAdding] = React.useState(false);
  const [renaming, setRenaming] = React.useState<Passkey | null>(null);
  const [removing, setRemoving] = React.useState<Passkey | null>(null);
  const remove = useRemovePasskey();
  const supported = React.useMemo(() => browserSupportsWebAuthn(), []);
  const items = passkeys.data?.items;

  const confirmRemove = () => {
    if (!removing) return;
    remove.mutate(removing.id, {
      onSuccess: () => toast({ title: 'Passkey removed', description: `"${removing.name}" can no longer sign you in.`, variant: 'success' }),
      onError: (err) => {
        if (!isSessionError(err)) toast({ title: 'Failed to remove passkey', description: errorMessage(err), variant: 'destructive' });
      },
      onSettled: () => setRemoving(null),
    });
  };

  return (
    <Card className="p-6" aria-labelledby="passkeys-title" role="region">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h2 id="passkeys-title" className="flex items-center gap-2 text-xl font-semibold">
            <KeyRound aria-hidden="true" className="size-5 text-violet-600 dark:text-violet-300" />
            Passkeys
          </h2>
          <p className="mt-1 text-sm text-muted-foreground">
            Sign in without your password, with your fingerprint, face or screen lock. A passkey stays on your device.
          </p>
        </div>
        <Button variant="gradient" onClick={() => setAdding(true)} disabled={!supported}>
          <Plus aria-hidden="true" /> Add a passkey
        </Button>
      </div>
      {!supported && <p className="mt-3 text-sm text-muted-foreground">This browser does not support passkeys.</p>}

      <div className="mt-5">
        {passkeys.isError ? (
          <div role="alert" className="flex flex-col items-start gap-3 rounded-lg border border-destructive/40 p-4">
            <p className="flex items-center gap-2 text-sm font-medium text-destructive">
              <AlertTriangle aria-hidden="true" className="size-4" /> Failed to load passkeys: {errorMessage(passkeys.error)}
            </p>
            <Button variant="outline" size="sm" onClick={() => passkeys.refetch()}>
              <RotateCw aria-hidden="true" /> Try Again
            </Button>
          </div>
        ) : !items ? (
          <div className="grid gap-3" aria-busy="true" aria-label="Loading passkeys">
            <Skeleton className="h-14 w-full" />
            <Skeleton className="h-14 w-full" />
          </div>
        ) : items.length === 0 ? (
          <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
            No passkeys yet. Add one to sign in with this device instead of your password.
          </p>
        ) : (
          <ul className="divide-y rounded-lg border" aria-label="Your passkeys">
            {items.map((p) => (
              <li key={p.id} className="flex items-center gap-3 p-4">
                <div className="min-w-0 flex-1">
                  <p className="truncate font-medium">{p.name}</p>
                  <p className="text-xs tabular-nums text-muted-foreground">
                    Added {formatShortDate(p.created_at)} · {p.last_used_at ? `Last used ${formatShortDate(p.last_used_at)}` : 'Never used'}
                  </p>
                </div>
                <Button variant="ghost" size="icon" className="size-9" aria-label={`Rename passkey ${p.name}`} onClick={() => setRenaming(p)}>
                  <Pencil aria-hidden="true" />
                </Button>
                <Button
                  variant="ghost"
                  size="icon"
                  className="size-9 text-destructive hover:bg-destructive/10 hover:text-destructive"
                  aria-label={`Remove passkey ${p.name}`}
                  onClick={() => setRemoving(p)}
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>

      <AddPasskeyDialog open={adding} onOpenChange={setAdding} />
      <RenamePasskeyDialog passkey={renaming} onClose={() => setRenaming(null)} />
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title="Remove this passkey?"
        description={<>You will no longer be able to sign in with &ldquo;{removing?.name}&rdquo;.</>}
        confirmLabel="Remove"
        pending={remove.isPending}
        onConfirm={confirmRemove}
      />
    </Card>
  );
}

/** The name's error, or undefined when the contract accepts it. */
const nameError = (name: string) => {
  const parsed = passkeyNameSchema.safeParse(name);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
};

function NameDialog({
  open,
  title,
  description,
  submitLabel,
  initial,
  pending,
  onOpenChange,
  onSubmit,
}: {
  open: boolean;
  title: string;
  description: string;
  submitLabel: string;
  initial: string;
  pending: boolean;
  onOpenChange(open: boolean): void;
  onSubmit(name: string): void;
}) {
  const [name, setName] = React.useState(initial);
  const [error, setError] = React.useState<string>();
  React.useEffect(() => {
    if (open) {
      setName(initial);
      setError(undefined);
    }
  }, [open, initial]);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (pending) return;
    const problem = nameError(name);
    setError(problem);
    if (!problem) onSubmit(name.trim());
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogContent>
        <form onSubmit={submit} noValidate className="grid gap-4">
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>{description}</DialogDescription>
          </DialogHeader>
          <FormField id="passkey-name" label="Name" error={error}>
            <Input
              id="passkey-name"
              value={name}
              autoFocus
              maxLength={200}
              aria-invalid={error ? true : undefined}
              aria-describedby={describedBy('passkey-name', error)}
              onChange={(e) => setName(e.target.value)}
            />
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" disabled={pending} onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" variant="gradient" disabled={pending}>
              {pending && <Spinner />}
              {submitLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function AddPasskeyDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const add = useAddPasskey();
  const [initial, setInitial] = React.useState('My passkey');
  React.useEffect(() => {
    if (open) void defaultPasskeyName().then(setInitial);
  }, [open]);

  const onSubmit = (name: string) =>
    add.mutate(name, {
      onSuccess: (created) => {
        toast({ title: 'Passkey added', description: `You can sign in with "${created.name}" now.`, variant: 'success' });
        onOpenChange(false);
      },
      onError: (err) => {
        if (isSessionError(err)) return;
        if (isCeremonyCancelled(err)) toast({ title: 'Passkey not added', description: CANCELLED, variant: 'destructive' });
        else if (isAlreadyRegistered(err))
          toast({ title: 'Passkey not added', description: 'This device already holds a passkey for your account.', variant: 'destructive' });
        else toast({ title: 'Failed to add passkey', description: errorMessage(err), variant: 'destructive' });
      },
    });

  return (
    <NameDialog
      open={open}
      title="Add a passkey"
      description="Name it after the device or password manager that keeps it. Your browser then asks you to confirm with your fingerprint, face or screen lock."
      submitLabel="Continue"
      initial={initial}
      pending={add.isPending}
      onOpenChange={onOpenChange}
      onSubmit={onSubmit}
    />
  );
}

function RenamePasskeyDialog({ passkey, onClose }: { passkey: Passkey | null; onClose(): void }) {
  const rename = useRenamePasskey();
  const onSubmit = (name: string) => {
    if (!passkey) return;
    rename.mutate(
      { id: passkey.id, name },
      {
        onSuccess: () => {
          toast({ title: 'Passkey renamed', variant: 'success' });
          onClose();
        },
        onError: (err) => {
          if (!isSessionError(err)) toast({ title: 'Failed to rename passkey', description: errorMessage(err), variant: 'destructive' });
        },
      },
    );
  };
  return (
    <NameDialog
      open={passkey !== null}
      title="Rename passkey"
      description="A name to tell your passkeys apart."
      submitLabel="Save"
      initial={passkey?.name ?? ''}
      pending={rename.isPending}
      onOpenChange={(open) => !open && onClose()}
      onSubmit={onSubmit}
    />
  );
}
