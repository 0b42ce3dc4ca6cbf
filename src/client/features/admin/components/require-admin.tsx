import type * as React from 'react';
import { Navigate, useLocation } from 'react-router';
import { paths } from '@/lib/paths';
import { useSession } from '../session/session';

/** Every admin page but login: nobody signed in → the login page, replacing this entry. */
export function RequireAdmin({ children }: { children: React.ReactNode }) {
  const { status } = useSession();
  const location = useLocation();
  if (status === 'signed-out') return <Navigate to={paths.admin.login} replace state={{ from: location.pathname }} />;
  return children;
}
