import * as React from 'react';
import { useSiteName } from '@/lib/site-api';

/** 'Dashboard - Resource Vault' (PRODUCT.md: `{Page} - {SITE_NAME}`). */
export function useAdminTitle(page: string) {
  const site = useSiteName();
  React.useEffect(() => {
    document.title = `${page} - ${site}`;
  }, [page, site]);
}
