import { zodResolver } from '@hookform/resolvers/zod';
import type { AdminProfile } from '@contract/auth';
import { passwordSchema, usernameSchema } from '@contract/auth';
import { LogOut, Trash2, UserPlus } from 'lucide-react';
import * as React from 'react';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Badge, Card, Input, Label, Skeleton, Spinner } from '@/components/ui/primitives';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api';
import { useCreateAdmin } from '../api/create-admin';
import { useDeleteAdmin } from '../api/delete-admin';
import { useEndAdminSessions } from '../api/end-admin-sessions';
import { useAdmins } from '../api/get-admins';
import { BackToDashboard } from '../components/back-to-dashboard';
import { ConfirmDialog } from '../components/confirm-dialog';
import { describedBy, FormField } from '../components/form-field';
import { PageHeader } from '../components/page-header';
import { QueryError } from '../components/query-error';
import { useAdminTitle } from '../components/use-admin-title';
import { useErrorToast } from '../components/use-error-toast';
import { errorMessage, isSessionError } from '../lib/errors';
import { formatShortDate } from '../lib/format';
import { useSession } from '../session/session';
import { AccessDenied } from './access-denied';

export function ManageAdminsPage() {
  useAdminTitle('Manage Admins');
  const { isSuperUser } = useSession();
  if (!isSuperUser) return <AccessDenied />;
  return <ManageAdmins />;
}

function ManageAdmins() {
  const { admin: me } = useSession();
  const admins = useAdmins();
  useErrorToast(admins.error, 'Failed to fetch admins');
  const remove = useDeleteAdmin();
  const [pendingDelete, setPendingDelete] = React.useState<AdminProfile | null>(null);
  const endSessions = useEndAdminSessions();
  const [pendingSignOut, setPendingSignOut] = React.useState<AdminProfile | null>(null);
  const items = admins.data?.items;

  const confirmSignOut = () => {
    if (!pendingSignOut) return;
    const { username } = pendingSignOut;
    endSessions.mutate(pendingSignOut.id, {
      onSuccess: ({ ended }) =>
        toast({ title: `${username} is signed out everywhere`, description: `${ended} ${ended === 1 ? 'session' : 'sessions'} ended.`, variant: 'success' }),
      onError: (err) => {
        if (!isSessionError(err)) toast({ title: 'Failed to sign out the admin', description: errorMessage(err), variant: 'destructive' });
      },
      onSettled: () => setPendingSignOut(null),
    });
  };

  const confirmDelete = () => {
    if (!pendingDelete) return;
    remove.mutate(pendingDelete.id, {
      onSuccess: () => toast({ title: 'Admin deleted successfully', variant: 'success' }),
      onError: (err) => {
        if (!isSessionError(err)) toast({ title: 'Failed to delete admin', description: errorMessage(err), variant: 'destructive' });
      },
      onSettled: () => setPendingDelete(null),
    });
  };

  return (
    <>
      <PageHeader
        title="Manage Admins"
        description="Add or remove admin users"
        actions={
          <>
            <BackToDashboard />
            <AddAdminDialog />
          </>
        }
      />
      {admins.isError ? (
        <QueryError title="Failed to fetch admins" error={admins.error} onRetry={() => admins.refetch()} />
      ) : (
        <Card className="overflow-hidden">
          {/* Phones get a card per row: the delete button stays on screen, nothing scrolls sideways. */}
          <div className="md:overflow-x-auto">
            <table className="w-full text-left text-sm max-md:block md:min-w-[560px]">
              <caption className="sr-only">Admins</caption>
              <thead className="border-b bg-muted/60 text-xs uppercase tracking-wide text-muted-foreground max-md:sr-only">
                <tr>
                  <th scope="col" className="px-4 py-3 font-semibold">Username</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Role</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Created At</th>
                  <th scope="col" className="px-4 py-3 text-right font-semibold">Actions</th>
                </tr>
              </thead>
              <tbody className="divide-y max-md:block">
                {!items
                  ? Array.from({ length: 3 }, (_, i) => (
                      <tr key={i} className="max-md:block">
                        {Array.from({ length: 4 }, (_, j) => (
                          <td key={j} className="px-4 py-4 max-md:block max-md:py-2">
                            <Skeleton className="h-4 w-full" />
                          </td>
                        ))}
                      </tr>
                    ))
                  : items.map((a) => {
                      const self = a.id === me?.id;
                      return (
                        <tr
                          key={a.id}
                          className="transition-colors hover:bg-muted/40 max-md:grid max-md:grid-cols-[minmax(0,1fr)_auto] max-md:items-center max-md:gap-x-3 max-md:gap-y-2 max-md:p-4"
                        >
                          <td className="px-4 py-3 font-medium max-md:col-start-1 max-md:row-start-1 max-md:p-0">
                            <span className="flex items-center gap-2">
                              <span
                                aria-hidden="true"
                                className="grid size-8 place-items-center rounded-full bg-gradient-to-br from-violet-500 to-fuchsia-500 text-xs font-bold uppercase text-white"
                              >
                                {a.username.slice(0, 2)}
                              </span>
                              {a.username}
                              {self && <Badge variant="outline">You</Badge>}
                            </span>
                          </td>
                          <td className="px-4 py-3 max-md:col-span-2 max-md:p-0 max-md:pl-10">
                            <Badge variant={a.is_super_user ? 'default' : 'secondary'}>{a.is_super_user ? 'Super Admin' : 'Admin'}</Badge>
                          </td>
                          <td className="px-4 py-3 tabular-nums text-muted-foreground max-md:col-span-2 max-md:p-0 max-md:pl-10 max-md:text-xs">
                            <span className="md:hidden">Added </span>
                            {formatShortDate(a.created_at)}
                          </td>
                          <td className="px-4 py-3 text-right max-md:col-start-2 max-md:row-start-1 max-md:p-0">
                            {/* Nobody deletes themselves (the server refuses too); one's own sessions are on the Security page. */}
                            {!self && (
                              <Button
                                variant="ghost"
                                size="icon"
                                className="size-9"
                                aria-label={`Sign out ${a.username} everywhere`}
                                title="Sign out everywhere"
                                onClick={() => setPendingSignOut(a)}
                              >
                                <LogOut aria-hidden="true" />
                              </Button>
                            )}
                            {!self && (
                              <Button
                                variant="ghost"
                                size="icon"
                                className="size-9 text-destructive hover:bg-destructive/10 hover:text-destructive"
                                aria-label={`Delete admin ${a.username}`}
                                onClick={() => setPendingDelete(a)}
                              >
                                <Trash2 aria-hidden="true" />
                              </Button>
                            )}
                          </td>
                        </tr>
                      );
                    })}
              </tbody>
            </table>
          </div>
        </Card>
      )}
      <ConfirmDialog
        open={pendingDelete !== null}
        onOpenChange={(open) => !open && setPendingDelete(null)}
        title="Are you sure you want to delete this admin?"
        description={<>{pendingDelete?.username} will no longer be able to sign in.</>}
        pending={remove.isPending}
        onConfirm={confirmDelete}
      />
      <ConfirmDialog
        open={pendingSignOut !== null}
        onOpenChange={(open) => !open && setPendingSignOut(null)}
        title="Sign this admin out everywhere?"
        description={<>Every session of {pendingSignOut?.username} ends; they can sign in again with their password.</>}
        confirmLabel="Sign out everywhere"
        pending={endSessions.isPending}
        onConfirm={confirmSignOut}
      />
    </>
  );
}

const adminFormSchema = z.object({
  username: usernameSchema,
  password: passwordSchema,
  is_super_user: z.boolean(),
  must_change_password: z.boolean(),
});
type AdminForm = z.infer<typeof adminFormSchema>;
const EMPTY_FORM: AdminForm = { username: '', password: '', is_super_user: false, must_change_password: false };

function AddAdminDialog() {
  const [open, setOpen] = React.useState(false);
  const create = useCreateAdmin();
  const form = useForm<AdminForm>({ resolver: zodResolver(adminFormSchema), defaultValues: EMPTY_FORM });
  const { errors } = form.formState;

  const onValid = async (values: AdminForm) => {
    if (create.isPending) return;
    try {
      const created = await create.mutateAsync(values);
      toast({ title: 'Admin created successfully', description: `${created.username} can sign in now.`, variant: 'success' });
      // Spec: the fields reset after success.
      form.reset(EMPTY_FORM);
      setOpen(false);
    } catch (err) {
      if (isSessionError(err)) return;
      if (err instanceof ApiError && err.fields) {
        for (const [key, message] of Object.entries(err.fields)) {
          if (key === 'username' || key === 'password') form.setError(key, { type: 'server', message });
        }
      }
      toast({ title: 'Failed to create admin', description: errorMessage(err), variant: 'destructive' });
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (create.isPending) return;
        setOpen(next);
        if (!next) form.reset(EMPTY_FORM);
      }}
    >
      <DialogTrigger asChild>
        <Button variant="gradient">
          <UserPlus aria-hidden="true" /> Add Admin
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Add New Admin</DialogTitle>
          <DialogDescription>They sign in at the admin login with these credentials.</DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={form.handleSubmit(onValid)} className="grid gap-4">
          <FormField id="admin-username" label="Username" required error={errors.username?.message} hint="3–32 letters, digits, _ . or -">
            <Input
              id="admin-username"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              aria-invalid={errors.username ? true : undefined}
              aria-describedby={describedBy('admin-username', errors.username?.message, true)}
              {...form.register('username')}
            />
          </FormField>
          <FormField id="admin-password" label="Password" required error={errors.password?.message} hint="At least 8 characters">
            <Input
              id="admin-password"
              type="password"
              autoComplete="new-password"
              aria-invalid={errors.password ? true : undefined}
              aria-describedby={describedBy('admin-password', errors.password?.message, true)}
              {...form.register('password')}
            />
          </FormField>
          <div className="flex items-center justify-between gap-4 rounded-lg border p-3">
            <div className="grid gap-1">
              <Label htmlFor="admin-super">Super admin</Label>
              <p id="admin-super-hint" className="text-xs text-muted-foreground">
                Can manage other admins.
              </p>
            </div>
            <Controller
              control={form.control}
              name="is_super_user"
              render={({ field }) => (
                <Switch id="admin-super" aria-describedby="admin-super-hint" checked={field.value} onCheckedChange={field.onChange} />
              )}
            />
          </div>
          <div className="flex items-start gap-3 rounded-lg border p-3">
            <input
              id="admin-must-change"
              type="checkbox"
              className="mt-0.5 size-4 shrink-0 accent-violet-600"
              aria-describedby="admin-must-change-hint"
              {...form.register('must_change_password')}
            />
            <div className="grid gap-1">
              <Label htmlFor="admin-must-change">Must change the password at the next sign-in</Label>
              <p id="admin-must-change-hint" className="text-xs text-muted-foreground">
                They can do nothing else until they choose their own.
              </p>
            </div>
          </div>
          <DialogFooter>
            <Button type="submit" variant="gradient" disabled={create.isPending}>
              {create.isPending && <Spinner />}
              Create Admin
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
