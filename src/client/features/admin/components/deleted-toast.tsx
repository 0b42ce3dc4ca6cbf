import type { CategoryValue } from '@contract/categories';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { useRestoreResource } from '../api/restore-resource';
import { errorMessage, isSessionError } from '../lib/errors';

/**
 * The spec's "Resource deleted successfully" toast, with an Undo that brings the resource back from
 * the trash (docs/decisions/398-the-trash-is-a-status.md). Returns the function that shows it.
 */
export function useDeletedToast() {
  const restore = useRestoreResource();
  return (resource: { id: number; title: string; category: CategoryValue }) => {
    const shown = toast({
      title: 'Resource deleted successfully',
      description: `“${resource.title}” is in the Trash.`,
      variant: 'success',
      action: (
        <Button
          type="button"
          size="sm"
          variant="outline"
          onClick={() => {
            shown.dismiss();
            restore.mutate(resource, {
              onSuccess: () => toast({ title: 'Resource restored', description: `“${resource.title}” is back.`, variant: 'success' }),
              onError: (err) => {
                if (!isSessionError(err)) toast({ title: 'Failed to restore resource', description: errorMessage(err), variant: 'destructive' });
              },
            });
          }}
        >
          Undo
        </Button>
      ),
    });
  };
}
