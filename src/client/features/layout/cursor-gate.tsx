import * as React from 'react';
import { useMediaQuery } from './use-media-query';

const CustomCursor = React.lazy(() => import('./custom-cursor'));

/** PRODUCT.md: only for a fine pointer, never under prefers-reduced-motion. */
export const CURSOR_MEDIA_QUERY = '(pointer: fine) and (prefers-reduced-motion: no-preference)';

/** Longest wait for an idle moment before loading the cursor anyway. */
const IDLE_TIMEOUT_MS = 2000;

/** Loads the cursor effect in its own chunk once the page is idle, so it never delays the first paint. */
export function CursorGate() {
  const enabled = useMediaQuery(CURSOR_MEDIA_QUERY);
  const [idle, setIdle] = React.useState(false);

  React.useEffect(() => {
    if (!enabled || idle) return;
    if ('requestIdleCallback' in window) {
      const id = window.requestIdleCallback(() => setIdle(true), { timeout: IDLE_TIMEOUT_MS });
      return () => window.cancelIdleCallback(id);
    }
    const id = setTimeout(() => setIdle(true), IDLE_TIMEOUT_MS / 2);
    return () => clearTimeout(id);
  }, [enabled, idle]);

  if (!enabled || !idle) return null;
  return (
    <React.Suspense fallback={null}>
      <CustomCursor />
    </React.Suspense>
  );
}
