import { DOWNLOAD_LINK_TTL_SECONDS } from '@contract/constants';
import { ArrowLeft, Clock, House } from 'lucide-react';
import { useLocation, useSearchParams } from 'react-router';
import { StatusAction, StatusPage } from '@/components/status-page';
import { paths } from '@/lib/paths';
import { usePageMeta } from '@/lib/site-api';
import { resourceIdParam, useResource } from './api/get-resource';

/**
 * Where the server sends a browser that opened an expired or tampered download link (decision 370):
 * what happened, and the way back to the resource (named when the link was for one) to download again.
 */
export default function DownloadExpiredPage() {
  const { pathname } = useLocation();
  usePageMeta(pathname);
  const id = resourceIdParam(useSearchParams()[0]);
  const resource = useResource(id);
  const shown = id !== undefined ? resource.data : undefined;

  return (
    <StatusPage
      icon={Clock}
      glow={false}
      title="This download link has expired"
      actions={
        <>
          {shown ? (
            <StatusAction icon={ArrowLeft} to={shown.url}>
              Back to the resource
            </StatusAction>
          ) : null}
          <StatusAction icon={House} variant={shown ? 'outline' : 'gradient'} to={paths.home}>
            Back to Home
          </StatusAction>
        </>
      }
    >
      A download link works for {DOWNLOAD_LINK_TTL_SECONDS / 60} minutes after you click Download.{' '}
      {shown ? (
        <>
          Go back to <strong className="text-foreground">{shown.title}</strong> and click Download again for a fresh one.
        </>
      ) : (
        'Find the resource again and click Download for a fresh one.'
      )}
    </StatusPage>
  );
}
