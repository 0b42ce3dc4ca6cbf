import * as React from 'react';
import { useBlocker } from 'react-router';
import { ConfirmDialog } from '../components/confirm-dialog';

/** Asks before leaving while files are still being sent: in-app navigation gets a dialog, the tab the browser's own prompt. */
export function LeaveGuard({ when }: { when: boolean }) {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => when && currentLocation.pathname !== nextLocation.pathname);
  React.useEffect(() => {
    if (!when) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [when]);
  return (
    <ConfirmDialog
      open={blocker.state === 'blocked'}
      onOpenChange={(open) => {
        if (!open && blocker.state === 'blocked') blocker.reset();
      }}
      title="Leave while uploading?"
      description="Files are still being uploaded. If you leave now, they stop; choose the same files again later to resume them."
      confirmLabel="Leave"
      pending={false}
      onConfirm={() => blocker.state === 'blocked' && blocker.proceed()}
    />
  );
}
