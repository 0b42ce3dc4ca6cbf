import * as React from 'react';
import { useBlocker } from 'react-router';
import { ConfirmDialog } from './confirm-dialog';

/**
 * Asks before leaving while `when` holds (unsaved changes, files still being sent): in-app
 * navigation to another page gets a dialog with these texts, closing or reloading the tab the
 * browser's own prompt.
 */
export function LeaveGuard({ when, title, description, confirmLabel }: { when: boolean; title: string; description: string; confirmLabel: string }) {
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
      title={title}
      description={description}
      confirmLabel={confirmLabel}
      pending={false}
      onConfirm={() => blocker.state === 'blocked' && blocker.proceed()}
    />
  );
}
