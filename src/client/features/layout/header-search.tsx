import { Search, X } from 'lucide-react';
import { SEARCH_MAX } from '@contract/constants';
import { SEARCH_PATH } from '@contract/pages';
import * as React from 'react';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '@/lib/paths';
import { cn } from '@/lib/utils';

/** Where the `/` key must type a slash instead of jumping to the search box. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.closest('input, textarea, select, [contenteditable]:not([contenteditable="false"])') !== null;
}

/**
 * The header's search of the whole site (issue 33): Enter opens `/search?q=…`. The `/` key focuses
 * it from anywhere on the page except where one is typing (a text box, a contenteditable), with
 * Ctrl/Alt/Meta held, or under an open dialog; Escape leaves it. On a phone it is an icon that
 * opens the box over the header. See docs/decisions/451-one-search-page.md.
 */
export function HeaderSearch() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  // On the search page the box holds its words (the server renders it so too); elsewhere it is empty.
  const fromUrl = pathname === SEARCH_PATH ? (new URLSearchParams(search).get('q') ?? '') : '';
  const [text, setText] = React.useState(fromUrl);
  const [seen, setSeen] = React.useState(fromUrl);
  if (fromUrl !== seen) {
    setSeen(fromUrl);
    setText(fromUrl);
  }
  // A phone's box, open over the header.
  const [open, setOpen] = React.useState(false);
  const input = React.useRef<HTMLInputElement>(null);

  React.useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented || e.isComposing) return;
      if (isTyping(e.target) || document.querySelector('[role="dialog"], [role="alertdialog"]')) return;
      e.preventDefault();
      setOpen(true);
      // Opened on a phone, it shows in this commit's layout: focus after it.
      requestAnimationFrame(() => input.current?.focus());
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  React.useEffect(() => {
    if (open) input.current?.focus();
  }, [open]);

  const close = () => {
    setOpen(false);
    input.current?.blur();
  };

  return (
    <>
      <button
        type="button"
        aria-label="Search"
        aria-expanded={open}
        onClick={() => setOpen(true)}
        className="inline-flex size-10 shrink-0 cursor-pointer items-center justify-center rounded-full text-foreground hover:bg-accent focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 md:hidden"
      >
        <Search aria-hidden="true" className="size-5" />
      </button>
      <form
        role="search"
        aria-label="Site search"
        action={SEARCH_PATH}
        onSubmit={(e) => {
          e.preventDefault();
          close();
          void navigate(paths.search(text));
        }}
        className={cn(
          'flex items-center md:mx-4 md:max-w-md md:flex-1',
          open ? 'max-md:absolute max-md:inset-x-0 max-md:top-0 max-md:z-10 max-md:h-16 max-md:gap-2 max-md:bg-background max-md:px-3 max-md:sm:px-4' : 'max-md:hidden',
        )}
      >
        <label htmlFor="site-search" className="sr-only">
          Search all resources
        </label>
        <div className="relative min-w-0 flex-1">
          <Search aria-hidden="true" className="pointer-events-none absolute left-3.5 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
          <input
            ref={input}
            id="site-search"
            name="q"
            type="search"
            value={text}
            maxLength={SEARCH_MAX}
            autoComplete="off"
            enterKeyHint="search"
            placeholder="Search resources..."
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') close();
            }}
            onBlur={(e) => {
              // Leaving the phone's box (elsewhere than its close button) folds it back into the icon.
              if (!e.currentTarget.form?.contains(e.relatedTarget as Node | null)) setOpen(false);
            }}
            className="h-10 w-full rounded-full border border-input bg-card/80 pl-10 pr-10 text-base shadow-sm outline-none transition-colors placeholder:text-muted-foreground focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 md:text-sm [&::-webkit-search-cancel-button]:hidden"
          />
          <kbd
            aria-hidden="true"
            className="pointer-events-none absolute right-3 top-1/2 hidden -translate-y-1/2 rounded border bg-muted px-1.5 font-mono text-xs text-muted-foreground md:block"
          >
            /
          </kbd>
        </div>
        <button
          type="button"
          aria-label="Close search"
          onClick={close}
          className="inline-flex size-10 shrink-0 cursor-pointer items-center justify-center rounded-full hover:bg-accent focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 md:hidden"
        >
          <X aria-hidden="true" className="size-5" />
        </button>
      </form>
    </>
  );
}
