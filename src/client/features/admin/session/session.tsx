import { useQueryClient } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { AdminProfile, SignedInAdmin } from '@contract/auth';
import * as React from 'react';
import { useNavigate } from 'react-router';
import { onApiError, onUnauthorized } from '@/lib/api';
import { paths } from '@/lib/paths';
import { getMe, useMe } from '../api/get-me';
import { isPasswordChangeRequired } from '../lib/errors';
import { ADMIN_QUERY_SCOPE } from '../api/query-scope';
import { clearStoredAdmin, readStoredAdmin, storeAdmin } from './stored-admin';

/** signed-out: nobody; loading: a stored profile awaits the server's confirmation; signed-in: confirmed. */
export type SessionStatus = 'signed-out' | 'loading' | 'signed-in';

export interface Session {
  status: SessionStatus;
  admin: AdminProfile | null;
  isSuperUser: boolean;
  /** The server allows nothing but a password change until it is done (a CLI reset, or so created). */
  mustChangePassword: boolean;
  /** After a successful login: remember the profile. */
  signIn(admin: AdminProfile | SignedInAdmin): void;
  /** After one's own password was changed. */
  passwordChanged(): void;
  /** After logout or a 401: forget the profile and every admin query's cached data. */
  signOut(): void;
}

const SessionContext = React.createContext<Session | null>(null);

export function SessionProvider({ children }: { children: React.ReactNode }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const [admin, setAdmin] = React.useState<AdminProfile | null>(readStoredAdmin);
  // Only a stored profile needs confirming; without one there is no session to ask about.
  const [confirming, setConfirming] = React.useState(() => admin !== null);
  const [mustChangePassword, setMustChangePassword] = React.useState(false);
  const me = useMe(confirming);

  React.useEffect(() => {
    if (!confirming) return;
    if (me.data) {
      storeAdmin(me.data);
      setAdmin(me.data);
      setMustChangePassword(me.data.must_change_password);
      setConfirming(false);
    } else if (me.isError) {
      // A 401 is handled by the unauthorized listener below; any other failure (offline, 5xx)
      // keeps the stored profile: the next admin call will tell.
      setConfirming(false);
    }
  }, [confirming, me.data, me.isError]);

  const signOut = React.useCallback(() => {
    clearStoredAdmin();
    setAdmin(null);
    setMustChangePassword(false);
    setConfirming(false);
    client.removeQueries({ queryKey: ADMIN_QUERY_SCOPE });
  }, [client]);

  const signIn = React.useCallback(
    (profile: AdminProfile | SignedInAdmin) => {
      // Another admin may have used this browser: nothing of theirs stays cached.
      client.removeQueries({ queryKey: ADMIN_QUERY_SCOPE });
      storeAdmin(profile);
      setAdmin(profile);
      setMustChangePassword('must_change_password' in profile && profile.must_change_password);
      setConfirming(false);
      // The sign-in answer is the bare profile: whether a new password comes first is /me's to say.
      getMe().then(
        (current) => current.id === profile.id && setMustChangePassword(current.must_change_password),
        () => {},
      );
    },
    [client],
  );

  const passwordChanged = React.useCallback(() => {
    setMustChangePassword(false);
    // What failed while the password had to be changed first loads again.
    void client.invalidateQueries({ queryKey: ADMIN_QUERY_SCOPE });
  }, [client]);

  // Any admin call may answer that the password must be changed first (set by a reset meanwhile).
  React.useEffect(
    () =>
      onApiError((error) => {
        if (isPasswordChangeRequired(error)) setMustChangePassword(true);
      }),
    [],
  );

  // An expired session anywhere sends the admin to the login page. A failed login is a 401
  // too, but that is the login page's own business.
  React.useEffect(
    () =>
      onUnauthorized((path) => {
        if (path === API.login || path.startsWith(`${API.login}/`)) return;
        signOut();
        navigate(paths.admin.login, { replace: true });
      }),
    [signOut, navigate],
  );

  const value = React.useMemo<Session>(
    () => ({
      status: admin === null ? 'signed-out' : confirming ? 'loading' : 'signed-in',
      admin,
      isSuperUser: admin?.is_super_user === true,
      mustChangePassword,
      signIn,
      signOut,
      passwordChanged,
    }),
    [admin, confirming, mustChangePassword, signIn, signOut, passwordChanged],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const ctx = React.useContext(SessionContext);
  if (!ctx) throw new Error('useSession must be used inside SessionProvider');
  return ctx;
}
