import { ArrowLeft } from 'lucide-react';
import { Link } from '@/lib/link';
import { Button, type ButtonProps } from '@/components/ui/button';
import { paths } from '@/lib/paths';

export function BackToDashboard({ variant = 'outline' }: { variant?: ButtonProps['variant'] }) {
  return (
    <Button asChild variant={variant}>
      <Link to={paths.admin.dashboard}>
        <ArrowLeft aria-hidden="true" /> Back to Dashboard
      </Link>
    </Button>
  );
}
