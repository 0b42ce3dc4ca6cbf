import { House, RotateCw, TriangleAlert } from 'lucide-react';
import * as React from 'react';
import { StatusAction, StatusPage } from '@/components/status-page';
import { paths } from '@/lib/paths';
import { useSiteName } from '@/lib/site-api';

/**
 * What a route shows when it fails to render or its code fails to load, instead of a blank or
 * broken screen: a page that says so, a retry and a way home. Both are full page loads: a fresh
 * start, with the current code and data. The error itself is logged once (see AppRouter).
 */
function ErrorPage({ fullScreen }: { fullScreen: boolean }) {
  const siteName = useSiteName();
  React.useEffect(() => {
    document.title = `Something went wrong - ${siteName}`;
  }, [siteName]);
  return (
    <StatusPage
      variant="error"
      icon={TriangleAlert}
      title="Something went wrong"
      fullScreen={fullScreen}
      actions={
        <>
          <StatusAction icon={RotateCw} onClick={() => window.location.reload()}>
            Try Again
          </StatusAction>
          <StatusAction icon={House} variant="outline" href={paths.home}>
            Back to Home
          </StatusAction>
        </>
      }
    >
      This page could not be shown. Try again in a moment, or head back to the home page.
    </StatusPage>
  );
}

/** A public page that failed: shown inside the site's header and footer. */
export function PageError() {
  return <ErrorPage fullScreen={false} />;
}

/** Anything else that failed (the layout itself, the admin area): a page of its own. */
export function AppError() {
  return <ErrorPage fullScreen />;
}
