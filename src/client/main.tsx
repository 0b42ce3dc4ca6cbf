// Every style the prerendered first frame needs, in the one stylesheet the HTML links.
import './index.css';
import './features/layout/layout.css';
import './features/home/home.css';
import { nextTask } from './lib/tasks';

/**
 * The entry is only this: public pages arrive rendered by the server, with their data, in #root
 * (src/server/modules/spa, app/render.tsx), so the app's JavaScript is fetched once that markup
 * has painted — it never competes with the HTML and CSS for the network or the main thread before
 * the first paint — and then hydrates it. Pages sent empty (admin, not found) start at once.
 */
const container = document.getElementById('root')!;

/** Gives up waiting for the paint entry (a browser without one, a page never shown) after this long. */
const FIRST_PAINT_WAIT_MS = 3000;

function afterFirstPaint(run: () => void) {
  let started = false;
  const go = () => {
    if (started) return;
    started = true;
    setTimeout(run, 0);
  };
  // The paint entry is reported once the server's markup is on screen, which on a busy machine can
  // be frames after requestAnimationFrame: only then do the app's requests start.
  if (PerformanceObserver.supportedEntryTypes?.includes('paint')) {
    const observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      go();
    });
    observer.observe({ type: 'paint', buffered: true });
    setTimeout(go, FIRST_PAINT_WAIT_MS);
  } else {
    // Two frames: the first is the one that paints the server's markup.
    requestAnimationFrame(() => requestAnimationFrame(go));
  }
}

const INTERACTIVE = 'a[href], button, summary, [role="button"]';

/** Child-index path from the container down to el. */
function pathOf(el: Element): number[] {
  const path: number[] = [];
  for (let node: Element = el; node !== container && node.parentElement; node = node.parentElement) {
    path.unshift(Array.prototype.indexOf.call(node.parentElement.children, node));
  }
  return path;
}

function elementAt(path: number[]): HTMLElement | null {
  let node: Element | undefined = container;
  for (const i of path) node = node?.children[i];
  return node instanceof HTMLElement ? node : null;
}

/**
 * Until the app has hydrated, the server's buttons have no handlers: a click on one is held and
 * replayed on the same element (found again by its child path, in case React rebuilt it) once the
 * app is live. Links are held too, so they navigate inside the app instead of reloading.
 */
function holdEarlyClicks(): () => void {
  let held: number[] | null = null;
  const onClick = (e: MouseEvent) => {
    const target = e.target instanceof Element ? e.target.closest(INTERACTIVE) : null;
    if (!target || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    e.stopPropagation();
    held = pathOf(target);
  };
  container.addEventListener('click', onClick, true);
  return () => {
    container.removeEventListener('click', onClick, true);
    if (held) elementAt(held)?.click();
  };
}

/**
 * The files each step below imports (the chunk and its static imports), written in by the build
 * (vite.config.ts, `appChunks`). Under the dev server the placeholder stays: it does not parse and
 * nothing is preloaded.
 */
const APP_CHUNKS = '__RV_APP_CHUNKS__';

interface ChunkFiles {
  vendor: string[];
  app: string[];
  category: string[];
}

function chunkFiles(): ChunkFiles | undefined {
  try {
    return JSON.parse(APP_CHUNKS) as ChunkFiles;
  } catch {
    return undefined;
  }
}

/** Fetches (and compiles) modules without evaluating them. */
function preload(files: readonly string[]) {
  for (const file of files) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = import.meta.env.BASE_URL + file;
    document.head.appendChild(link);
  }
}

/**
 * Everything the page needs is fetched at once, then evaluated one part per task — the libraries,
 * the app, the category page — so that no single task blocks the main thread for long.
 */
async function start(onMounted?: () => void) {
  const category = location.pathname.startsWith('/categories/');
  const files = chunkFiles();
  if (files) {
    const app = [...new Set([...files.vendor, ...files.app])];
    preload(app);
    // Each link starts a request: the category page's ones go in the next task.
    if (category) setTimeout(() => preload(files.category.filter((f) => !app.includes(f))), 0);
  }
  await import('./app/vendor');
  await nextTask();
  const { boot } = await import('./app/boot');
  if (category) {
    // A category page also needs its route chunk before hydrating.
    await nextTask();
    await import('@/features/categories/category-page');
  }
  await nextTask();
  await boot(container, () => {
    // The page's handlers are live (hydrated or rendered): `#root[data-live]` (browser tests wait for it).
    container.dataset.live = '';
    onMounted?.();
  });
}

if (container.firstElementChild) {
  const replay = holdEarlyClicks();
  afterFirstPaint(() => void start(replay));
} else void start();
