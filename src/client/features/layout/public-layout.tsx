import { Outlet } from 'react-router';

/** Placeholder: the shared public layout (bell, menu, footer, cursor) is built in the public website issue. */
export function PublicLayout() {
  return <Outlet />;
}
