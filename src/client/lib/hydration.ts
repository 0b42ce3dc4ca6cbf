import type { QueryClient, QueryKey } from '@tanstack/react-query';
import * as React from 'react';

/**
 * Public pages are rendered by the server with their data (src/server/modules/spa, app/render.tsx)
 * and the client hydrates that markup. The first client render must equal the server's, so
 * anything that depends on the browser (local storage, the clock, lazy chunks) waits for
 * useHydrated() to turn true.
 */

/** One query the server answered for the first render, as it is seeded into the query cache. */
export interface InitialQuery {
  key: QueryKey;
  data: unknown;
}

/** What the server embeds next to #root as `<script type="application/json" id="rv-initial-data">`. */
export interface InitialData {
  /** The server's clock at render time (ms): time-relative texts use it until hydration is done. */
  now: number;
  queries: InitialQuery[];
}

export const INITIAL_DATA_ID = 'rv-initial-data';

let renderNow: number | undefined;

/** "Now" for the server render and the hydration render (both see the same value); the real clock otherwise. */
export function renderClock(): number {
  return renderNow ?? Date.now();
}

export function setRenderClock(now: number | undefined) {
  renderNow = now;
}

export function seedQueries(client: QueryClient, queries: readonly InitialQuery[]) {
  for (const q of queries) client.setQueryData(q.key, q.data);
}

/** Reads (and removes) the server's initial data; undefined when there is none or it is unreadable. */
export function takeInitialData(): InitialData | undefined {
  const el = document.getElementById(INITIAL_DATA_ID);
  if (!el) return undefined;
  el.remove();
  try {
    const parsed = JSON.parse(el.textContent ?? '') as Partial<InitialData>;
    if (typeof parsed.now !== 'number' || !Array.isArray(parsed.queries)) return undefined;
    return { now: parsed.now, queries: parsed.queries };
  } catch {
    return undefined;
  }
}

let hydrated = false;

/** The whole page has hydrated (or there was nothing to hydrate): ClientOnly renders at once from now on. */
export function markHydrated() {
  hydrated = true;
}

/**
 * False on the server and during hydration, true afterwards (and on every later client render).
 * After hydration the switch is a transition: the browser-only parts then mount in a time-sliced
 * render instead of one blocking one.
 */
export function useHydrated(): boolean {
  const [isHydrated, setHydrated] = React.useState(hydrated);
  React.useEffect(() => {
    if (!isHydrated) React.startTransition(() => setHydrated(true));
  }, [isHydrated]);
  return isHydrated;
}

interface Boundary {
  order: number;
  done: boolean;
}

/** The HydrationBoundary parts of the page being hydrated, and what runs once all are done. */
const boundaries = new Set<Boundary>();
const turns = new Map<number, { turn: Promise<void>; open: () => void; opened: boolean }>();
let whenAllHydrated: (() => void) | undefined;

function turnOf(order: number) {
  let entry = turns.get(order);
  if (!entry) {
    let resolve!: () => void;
    const turn = new Promise<void>((r) => (resolve = r));
    entry = {
      turn,
      opened: false,
      open() {
        // Marked as React's `use` expects, so a render after this reads it without suspending.
        Object.assign(turn, { status: 'fulfilled', value: undefined });
        resolve();
      },
    };
    turns.set(order, entry);
  }
  return entry;
}

/** Lets the next group of parts hydrate, one group per task, or finishes once all have. */
function settle() {
  if (!whenAllHydrated) return;
  const waiting = [...boundaries].filter((b) => !b.done);
  if (waiting.length === 0) {
    const run = whenAllHydrated;
    whenAllHydrated = undefined;
    boundaries.clear();
    turns.clear();
    run();
    return;
  }
  const next = turnOf(Math.min(...waiting.map((b) => b.order)));
  if (next.opened) return;
  next.opened = true;
  setTimeout(next.open, 0);
}

/**
 * Called once the page's shell (everything outside HydrationBoundary parts) has hydrated: the parts
 * then hydrate group by group, and `done` runs when every part has.
 */
export function afterShellHydrated(done: () => void) {
  whenAllHydrated = done;
  settle();
}

/**
 * A part of a server-rendered page that React hydrates after the shell, in a render and commit of
 * its own, so that no single commit carries the whole page (a Suspense boundary: its HTML stays as
 * the server sent it until then). Parts hydrate in groups, lowest `order` first, one group per
 * task; parts of the same order together. The server's clock and ClientOnly's server look stay in
 * force until every part has hydrated.
 */
export function HydrationBoundary({ order = 0, children }: { order?: number; children: React.ReactNode }) {
  const [boundary] = React.useState<Boundary>(() => ({ order, done: false }));
  React.useLayoutEffect(() => {
    if (hydrated) return;
    boundaries.add(boundary);
    return () => {
      boundaries.delete(boundary);
      settle();
    };
  }, [boundary]);
  // Only while the page hydrates, and never on the server (whose render must not suspend): the
  // part waits for its group's turn. It renders nothing, so the markup matches either way.
  const waits = !hydrated && typeof window !== 'undefined';
  return React.createElement(
    React.Suspense,
    { fallback: null },
    waits && React.createElement(WaitForTurn, { order }),
    children,
    React.createElement(BoundaryHydrated, { boundary }),
  );
}

function WaitForTurn({ order }: { order: number }) {
  React.use(turnOf(order).turn);
  return null;
}

/** Last in its boundary: its layout effect runs once the boundary's content has committed. */
function BoundaryHydrated({ boundary }: { boundary: Boundary }) {
  React.useLayoutEffect(() => {
    boundary.done = true;
    settle();
  }, [boundary]);
  return null;
}

/** Renders `fallback` on the server and while hydrating, then the children (browser-only parts). */
export function ClientOnly({ children, fallback = null }: { children: React.ReactNode; fallback?: React.ReactNode }) {
  return useHydrated() ? children : fallback;
}

/**
 * A text box the server rendered can be typed into before the app hydrates it; React keeps its
 * state (`value`), so on mount the typed text is taken over (`adopt`) instead of being ignored.
 */
export function useTypedBeforeHydration(ref: React.RefObject<HTMLInputElement | null>, value: string, adopt: (typed: string) => void) {
  const first = React.useRef({ value, adopt });
  React.useEffect(() => {
    const typed = ref.current?.value;
    if (typed !== undefined && typed !== first.current.value) first.current.adopt(typed);
  }, [ref]);
}
