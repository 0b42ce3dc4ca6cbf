import type * as React from 'react';
import { Navigate, useLocation } from 'react-router';
import { paths } from '@/lib/paths';
import { ChangePasswordScreen } from '../security/change-password-screen';
import { useSession } from '../session/session';

/**
 * Every admin page but login: nobody signed in → the login page, replacing this entry; an admin who
 * must change the password first → that screen, until it is done.
 */
export function RequireAdmin({ children }: { children: React.ReactNode }) {
  const { status, mustChangePassword } = useSession();
  const location = useLocation();
  if (status === 'signed-out') return <Navigate to={paths.admin.login} replace state={{ from: location.pathname }} />;
  if (mustChangePassword) return <ChangePasswordScreen />;
  return children;
}
