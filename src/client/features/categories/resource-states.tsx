import { FilterX, PackageOpen, RefreshCw, TriangleAlert } from 'lucide-react';
import { Button } from '@/components/ui/button';

export const LOAD_ERROR_MESSAGE = 'Failed to load resources. Please try again later.';

function Panel({ icon, children, tone = 'muted' }: { icon: React.ReactNode; children: React.ReactNode; tone?: 'muted' | 'error' }) {
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center rounded-3xl border border-dashed bg-card/60 px-6 py-14 text-center shadow-sm sm:px-10">
      <div
        className={
          tone === 'error'
            ? 'mb-5 flex size-16 items-center justify-center rounded-2xl bg-destructive/10 text-destructive'
            : 'mb-5 flex size-16 items-center justify-center rounded-2xl bg-accent text-accent-foreground'
        }
      >
        {icon}
      </div>
      {children}
    </div>
  );
}

/** `hint`: what to try instead (the spec's line by default). */
export function EmptyState({ onClear, hint = 'Check back later for new resources' }: { onClear?: () => void; hint?: string }) {
  return (
    <Panel icon={<PackageOpen aria-hidden="true" className="size-8" />}>
      <h2 className="text-xl font-semibold tracking-tight">No resources found</h2>
      <p className="mt-2 text-muted-foreground">{hint}</p>
      {onClear && (
        <Button variant="outline" className="mt-6" onClick={onClear}>
          <FilterX aria-hidden="true" />
          Clear filters
        </Button>
      )}
    </Panel>
  );
}

export function ErrorState({ onRetry }: { onRetry(): void }) {
  return (
    <div role="alert">
      <Panel tone="error" icon={<TriangleAlert aria-hidden="true" className="size-8" />}>
        <h2 className="text-xl font-semibold tracking-tight">Oops! Something went wrong</h2>
        <p className="mt-2 text-muted-foreground">{LOAD_ERROR_MESSAGE}</p>
        <Button className="mt-6" onClick={onRetry}>
          <RefreshCw aria-hidden="true" />
          Try Again
        </Button>
      </Panel>
    </div>
  );
}
