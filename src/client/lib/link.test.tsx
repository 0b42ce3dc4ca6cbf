import { createElement, type MouseEvent, type ReactElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
// eslint-disable-next-line no-restricted-imports -- the markup is compared with React Router's own Link
import { createMemoryRouter, Link as RouterLink, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { Link, type LinkProps } from './link';

/** `node`, drawn at `at` inside a data router (as the app and its server render are). */
function draw(node: ReactNode, at = '/a'): string {
  const router = createMemoryRouter([{ path: '*', element: node }], { initialEntries: [at] });
  return renderToStaticMarkup(createElement(RouterProvider, { router }));
}

/**
 * The click handler our Link draws for `props` on a router at `at`, and that router: the element the link
 * renders is caught inside a render (the hooks need one) and its `onClick` handed back.
 */
function linkAt(props: LinkProps, at = '/a') {
  let onClick: ((e: MouseEvent<HTMLAnchorElement>) => void) | undefined;
  function Catch() {
    const element = (Link as unknown as { render(p: LinkProps, ref: null): ReactElement<{ onClick: typeof onClick }> }).render(props, null);
    onClick = element.props.onClick;
    return null;
  }
  const router = createMemoryRouter([{ path: '*', element: createElement(Catch) }], { initialEntries: [at] });
  renderToStaticMarkup(createElement(RouterProvider, { router }));
  return { router, onClick: onClick! };
}

/** A click as the browser reports it: left button, no modifier, unless `over` says otherwise. */
function click(over: Partial<{ button: number; metaKey: boolean; ctrlKey: boolean; shiftKey: boolean; altKey: boolean }> = {}) {
  const event = { button: 0, metaKey: false, ctrlKey: false, shiftKey: false, altKey: false, defaultPrevented: false, ...over, preventDefault: () => (event.defaultPrevented = true) };
  return event;
}
const asMouse = (e: ReturnType<typeof click>) => e as unknown as MouseEvent<HTMLAnchorElement>;

describe('Link', () => {
  it("draws the markup React Router's Link draws (without its route-discovery attribute)", () => {
    const cases: LinkProps[] = [
      { to: '/resources/12-bold-film-burns' },
      { to: '/categories/video-editing', className: 'rounded-sm hover:underline' },
      { to: '/search?q=glitch%20%26%20grain#results', 'aria-label': 'Search', title: 'Search', tabIndex: -1, draggable: false },
      { to: '/privacy', target: '_blank', rel: 'noreferrer', children: 'Privacy Policy' },
      { to: '/', children: createElement('span', { className: 'x' }, 'Home') },
    ];
    for (const props of cases) {
      const theirs = draw(createElement(RouterLink, props)).replace(' data-discover="true"', '');
      expect(draw(createElement(Link, props)), JSON.stringify(props)).toBe(theirs);
    }
  });

  it('navigates the router on a left click, replacing the entry when the link is to the page shown', async () => {
    const other = linkAt({ to: '/categories/typography?sort=newest' });
    const event = click();
    other.onClick(asMouse(event));
    expect(event.defaultPrevented).toBe(true);
    await expect.poll(() => other.router.state.location.pathname + other.router.state.location.search).toBe('/categories/typography?sort=newest');
    expect(other.router.state.historyAction).toBe('PUSH');

    const same = linkAt({ to: '/a?b=1' }, '/a?b=1');
    same.onClick(asMouse(click()));
    await expect.poll(() => same.router.state.historyAction).toBe('REPLACE');
    expect(same.router.state.location.pathname).toBe('/a');
  });

  it("leaves to the browser a click with another button or a modifier key, another target, another site's address, or one a handler prevented", async () => {
    const cases: [LinkProps, ReturnType<typeof click>][] = [
      [{ to: '/b' }, click({ button: 1 })],
      [{ to: '/b' }, click({ ctrlKey: true })],
      [{ to: '/b' }, click({ metaKey: true })],
      [{ to: '/b' }, click({ shiftKey: true })],
      [{ to: '/b' }, click({ altKey: true })],
      [{ to: '/b', target: '_blank' }, click()],
      [{ to: 'https://example.com/b' }, click()],
      [{ to: '//example.com/b' }, click()],
      [{ to: '/b', onClick: (e) => e.preventDefault() }, click()],
    ];
    for (const [props, event] of cases) {
      const { router, onClick } = linkAt(props);
      onClick(asMouse(event));
      // The browser's own handling needs the event untouched, unless the link's own handler prevented it.
      expect(event.defaultPrevented, JSON.stringify(props)).toBe(Boolean(props.onClick));
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(router.state.location.pathname, JSON.stringify(props)).toBe('/a');
    }
  });

  it("calls the link's own onClick before navigating", async () => {
    const seen: string[] = [];
    const { router, onClick } = linkAt({ to: '/b', onClick: () => seen.push(router.state.location.pathname) });
    onClick(asMouse(click()));
    await expect.poll(() => router.state.location.pathname).toBe('/b');
    expect(seen).toEqual(['/a']);
  });
});
