import { Outlet } from 'react-router';
import { CursorGate } from './cursor-gate';
import { ScrollManager } from './scroll-manager';

/** Wraps every route (public, coming soon, admin): scroll-to-top on navigation and the app-wide cursor. */
export function AppShell() {
  return (
    <>
      <ScrollManager />
      <Outlet />
      <CursorGate />
    </>
  );
}
