import { cva } from 'class-variance-authority';
import { X } from 'lucide-react';
import { Toast as ToastPrimitive } from 'radix-ui';
import { TOAST_DURATION_MS } from '@contract/constants';
import { cn } from '@/lib/utils';
import { dismissToast, useToasts } from './use-toast';

const toastVariants = cva(
  'group pointer-events-auto relative flex w-full items-center justify-between gap-3 overflow-hidden rounded-lg border p-4 pr-8 shadow-lg transition-all data-[state=open]:animate-fade-in data-[state=closed]:opacity-0 data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=end]:translate-x-[var(--radix-toast-swipe-end-x)]',
  {
    variants: {
      variant: {
        default: 'border bg-background text-foreground',
        success: 'border-emerald-500/40 bg-background text-foreground',
        // As the destructive button: white on dark --destructive is below 4.5:1.
        destructive: 'destructive border-destructive bg-destructive text-destructive-foreground dark:border-red-700 dark:bg-red-700',
      },
    },
    defaultVariants: { variant: 'default' },
  },
);

/** The one toast outlet, mounted once at the app root (hotkey F8 focuses it: Radix default). */
export function Toaster() {
  const toasts = useToasts();
  return (
    <ToastPrimitive.Provider duration={TOAST_DURATION_MS}>
      {toasts.map((t) => (
        <ToastPrimitive.Root
          key={t.id}
          open={t.open}
          duration={t.duration}
          onOpenChange={(open) => {
            if (!open) dismissToast(t.id);
          }}
          className={cn(toastVariants({ variant: t.variant }))}
        >
          <div className="grid gap-1">
            {t.title && <ToastPrimitive.Title className="text-sm font-semibold">{t.title}</ToastPrimitive.Title>}
            {t.description && (
              <ToastPrimitive.Description className="text-sm opacity-90">{t.description}</ToastPrimitive.Description>
            )}
          </div>
          {t.action}
          <ToastPrimitive.Close
            aria-label="Close"
            className="absolute right-2 top-2 rounded-md p-1 opacity-70 transition-opacity hover:opacity-100 focus:opacity-100 focus:outline-none focus:ring-2"
          >
            <X className="size-4" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      {/*
        Top centre, under the header, on every screen: a form's actions sit at the bottom right and
        a page's at the top right, where a toast would cover them for its whole duration.
      */}
      <ToastPrimitive.Viewport className="fixed inset-x-0 top-16 z-[100] mx-auto flex max-h-screen w-full flex-col p-4 sm:max-w-[420px]" />
    </ToastPrimitive.Provider>
  );
}
