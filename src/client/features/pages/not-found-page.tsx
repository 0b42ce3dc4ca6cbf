import { ArrowLeft, Compass, Users } from 'lucide-react';
import { useLocation } from 'react-router';
import { StatusAction, StatusPage } from '@/components/status-page';
import { paths } from '@/lib/paths';
import { usePageMeta } from '@/lib/site-api';

export default function NotFoundPage() {
  const { pathname } = useLocation();
  usePageMeta(pathname);

  return (
    <StatusPage
      icon={Compass}
      mark={
        <p
          aria-hidden="true"
          className="select-none bg-gradient-to-b from-violet-600 to-fuchsia-500 bg-clip-text text-8xl font-black tracking-tighter text-transparent sm:text-9xl dark:from-violet-400 dark:to-fuchsia-400"
        >
          404
        </p>
      }
      title="Page not found"
      actions={
        <>
          <StatusAction icon={ArrowLeft} to={paths.home}>
            Back to Home
          </StatusAction>
          <StatusAction icon={Users} variant="outline" to={paths.community}>
            Join the Community
          </StatusAction>
        </>
      }
    >
      The page you&apos;re looking for doesn&apos;t exist or has been moved. Let&apos;s get you back to the good stuff.
    </StatusPage>
  );
}
