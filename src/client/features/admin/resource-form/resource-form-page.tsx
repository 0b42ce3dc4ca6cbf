import { type CategoryValue, formatCategoryTitle } from '@contract/categories';
import * as React from 'react';
import { useParams } from 'react-router';
import { Link } from '@/lib/link';
import { Button } from '@/components/ui/button';
import { Card, Skeleton } from '@/components/ui/primitives';
import { paths } from '@/lib/paths';
import { useResource } from '../api/get-resources';
import { BackToDashboard } from '../components/back-to-dashboard';
import { useAdminTitle } from '../components/use-admin-title';
import { useErrorToast } from '../components/use-error-toast';
import { errorMessage } from '../lib/errors';
import { UnknownCategory } from '../routes/unknown-category';
import { useCategoryParam } from '../routes/use-category-param';
import { newResourceValues, resourceValues } from './form-values';
import { ResourceForm } from './resource-form';
import { ResourceHistory } from './resource-history';

export function ResourceFormPage({ mode }: { mode: 'create' | 'edit' }) {
  const { raw, category } = useCategoryParam();
  if (!category) return <UnknownCategory value={raw} />;
  return mode === 'create' ? <CreateResource category={category} /> : <EditResource category={category} />;
}

function CreateResource({ category }: { category: CategoryValue }) {
  useAdminTitle('New Resource');
  return <ResourceForm key={category} mode="create" category={category} initial={newResourceValues(category)} />;
}

/** Spec: the edit screen loads the category list and picks the item by id (the server narrows the list to that id). */
function EditResource({ category }: { category: CategoryValue }) {
  useAdminTitle('Edit Resource');
  const rawId = useParams().id ?? '';
  const id = /^[1-9][0-9]{0,9}$/.test(rawId) && Number(rawId) <= 2_147_483_647 ? Number(rawId) : undefined;
  const resources = useResource(category, id ?? 0, id !== undefined);
  const resource = resources.data?.items.find((r) => r.id === id);
  const missing = (id === undefined || resources.isSuccess) && !resource;
  const notFound = React.useMemo(
    () => (missing ? new Error(`There is no resource ${rawId} in ${formatCategoryTitle(category)}.`) : null),
    [missing, rawId, category],
  );
  useErrorToast(resources.error ?? notFound, 'Failed to load resource');

  if (id !== undefined && resources.isPending) return <FormSkeleton />;
  if (!resource) {
    return (
      <Card role="alert" className="mx-auto flex max-w-lg flex-col items-center gap-3 p-10 text-center">
        <h1 className="text-2xl font-bold">Failed to load resource</h1>
        <p className="text-muted-foreground">{errorMessage(resources.error ?? notFound)}</p>
        <div className="flex flex-wrap justify-center gap-2">
          <BackToDashboard />
          <Button asChild>
            <Link to={paths.admin.resources(category)}>Back to {formatCategoryTitle(category)}</Link>
          </Button>
        </div>
      </Card>
    );
  }
  return (
    <>
      <ResourceForm key={resource.id} mode="edit" category={category} resource={resource} initial={resourceValues(resource)} />
      <ResourceHistory id={resource.id} />
    </>
  );
}

function FormSkeleton() {
  return (
    <div aria-busy="true" aria-label="Loading resource" className="grid gap-6">
      <Skeleton className="h-10 w-64" />
      <div className="grid gap-6 lg:grid-cols-3">
        <Skeleton className="h-96 lg:col-span-2" />
        <Skeleton className="h-96" />
      </div>
    </div>
  );
}
