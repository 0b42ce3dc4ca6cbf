import { type AnchorHTMLAttributes, forwardRef, type MouseEvent, useContext } from 'react';
import { UNSAFE_DataRouterContext as DataRouterContext } from 'react-router';

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  /** A path of this site (`/…`); anything else is a plain link the browser follows. */
  to: string;
}

/**
 * A link to a page of this site: a left click without a modifier key (and no other target) navigates the
 * app's router, any other click is the browser's. What React Router's `Link` does for the absolute paths the
 * app links to, with the same markup, and like it a click on a link to the page shown replaces that page in
 * the history instead of adding it again. React Router's resolves each link against the route tree and the
 * location on every render (a resource page draws ~28): 13 % of the page's server render (decision 463).
 */
export const Link = forwardRef<HTMLAnchorElement, LinkProps>(function Link({ to, onClick, target, ...rest }, ref) {
  const router = useContext(DataRouterContext)?.router;
  const inApp = to.startsWith('/') && !to.startsWith('//');
  function handleClick(event: MouseEvent<HTMLAnchorElement>) {
    onClick?.(event);
    if (!router || !inApp || event.defaultPrevented || event.button !== 0 || (target && target !== '_self')) return;
    if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    const { pathname, search, hash } = router.state.location;
    void router.navigate(to, { replace: pathname + search + hash === to });
  }
  return <a {...rest} ref={ref} href={to} target={target} onClick={handleClick} />;
});
