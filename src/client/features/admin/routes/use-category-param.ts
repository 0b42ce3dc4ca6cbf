import { type CategoryValue, isCategoryValue } from '@contract/categories';
import { useParams } from 'react-router';

/** The {category} route segment as a category value, or null for an unknown one. */
export function useCategoryParam(): { raw: string; category: CategoryValue | null } {
  const raw = useParams().category ?? '';
  return { raw, category: isCategoryValue(raw) ? raw : null };
}
