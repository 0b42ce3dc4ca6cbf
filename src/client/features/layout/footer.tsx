import { FOOTER_YEAR_DEFAULT } from '@contract/constants';
import { ArrowUpRight, Code2, Heart } from 'lucide-react';
import * as React from 'react';
import { Link } from '@/lib/link';
import { Skeleton } from '@/components/ui/primitives';
import { copyrightLine } from '@/lib/copyright';
import { renderClock } from '@/lib/hydration';
import { paths } from '@/lib/paths';
import { useSite, useSiteName } from '@/lib/site-api';
import { socialIcon } from '@/lib/social-icon';
import type { NavTarget } from './nav-items';
import { useNavLinkClick } from './use-site-navigation';

const headingClass = 'mb-4 text-sm font-semibold uppercase tracking-wider text-foreground';
const linkClass =
  'rounded-sm text-muted-foreground transition-colors hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring';

/** Spec: on every page except home. */
export function Footer({ ref }: { ref?: React.Ref<HTMLElement> }) {
  const site = useSite();
  const siteName = useSiteName();
  const onLinkClick = useNavLinkClick();
  const startYear = site.data?.footer.copyright_start_year ?? FOOTER_YEAR_DEFAULT;

  return (
    <footer ref={ref} className="relative mt-auto border-t bg-muted/40 dark:bg-card/40">
      <div aria-hidden="true" className="absolute inset-x-0 top-0 h-px bg-gradient-to-r from-transparent via-violet-500/60 to-transparent" />
      <div className="mx-auto grid max-w-7xl gap-10 px-6 py-14 sm:grid-cols-2 lg:grid-cols-4 lg:px-8">
        <section aria-labelledby="footer-about">
          <h2 id="footer-about" className={headingClass}>
            About Me
          </h2>
          {site.data ? (
            <p className="whitespace-pre-line text-sm leading-relaxed text-muted-foreground">{site.data.footer.about}</p>
          ) : (
            <div className="grid gap-2">
              <Skeleton className="h-4 w-full" />
              <Skeleton className="h-4 w-11/12" />
              <Skeleton className="h-4 w-2/3" />
            </div>
          )}
        </section>

        {site.data?.footer.quick_links.length !== 0 && (
        <nav aria-labelledby="footer-links">
          <h2 id="footer-links" className={headingClass}>
            Quick Links
          </h2>
          <ul className="grid gap-2.5 text-sm">
            {site.data
              ? site.data.footer.quick_links.map(({ label, href }, i) => (
                  <li key={i}>
                    <QuickLink label={label} href={href} onNavigate={onLinkClick} />
                  </li>
                ))
              : Array.from({ length: 4 }, (_, i) => (
                  <li key={i}>
                    <Skeleton className="h-4 w-24" />
                  </li>
                ))}
          </ul>
        </nav>
        )}

        {site.data?.footer.socials.length !== 0 && (
        <section aria-labelledby="footer-connect">
          <h2 id="footer-connect" className={headingClass}>
            Connect
          </h2>
          <p className="mb-4 text-sm text-muted-foreground">Follow along and join the conversation.</p>
          <ul className="flex flex-wrap gap-2">
            {site.data
              ? site.data.footer.socials.map((c, i) => {
                  const Icon = socialIcon(c.icon);
                  return (
                    <li key={i}>
                      <a
                        href={c.link}
                        target="_blank"
                        rel="noopener noreferrer"
                        aria-label={c.label}
                        title={c.label}
                        className="flex size-10 items-center justify-center rounded-full border bg-background text-muted-foreground shadow-sm transition-all hover:-translate-y-0.5 hover:border-transparent hover:bg-gradient-to-br hover:from-violet-600 hover:to-fuchsia-600 hover:text-white hover:shadow-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                      >
                        <Icon className="size-4" aria-hidden="true" />
                      </a>
                    </li>
                  );
                })
              : Array.from({ length: 8 }, (_, i) => (
                  <li key={i}>
                    <Skeleton className="size-10 rounded-full" />
                  </li>
                ))}
          </ul>
        </section>
        )}

        {/* Hidden when the owner shows no source-code link. */}
        {site.data?.footer.source_code_url !== '' && (
          <section aria-labelledby="footer-source">
            <h2 id="footer-source" className={headingClass}>
              Source Code
            </h2>
            <p className="mb-4 text-sm text-muted-foreground">This site is open source. Read the code, report an issue or contribute.</p>
            {site.data ? (
              <a
                href={site.data.footer.source_code_url}
                target="_blank"
                rel="noopener noreferrer"
                className="inline-flex items-center gap-2 rounded-full border bg-background px-4 py-2 text-sm font-medium shadow-sm transition-colors hover:border-primary/50 hover:text-primary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              >
                <Code2 className="size-4" aria-hidden="true" />
                View Source Code
                <ArrowUpRight className="size-3.5 opacity-60" aria-hidden="true" />
              </a>
            ) : (
              <Skeleton className="h-9 w-44 rounded-full" />
            )}
          </section>
        )}
      </div>

      <div className="border-t">
        <div className="mx-auto flex max-w-7xl flex-col items-center justify-between gap-3 px-6 py-6 text-sm text-muted-foreground sm:flex-row lg:px-8">
          <p>{copyrightLine(startYear, new Date(renderClock()).getUTCFullYear(), site.data?.footer.copyright_holder || siteName)}. All rights reserved.</p>
          <p className="hidden items-center gap-1.5 lg:flex">
            Made with <Heart className="size-3.5 fill-rose-500 text-rose-500" aria-hidden="true" />
            <span className="sr-only">love</span> for creators
          </p>
          <ul className="flex items-center gap-5">
            <li>
              <Link to={paths.privacy} className={linkClass}>
                Privacy Policy
              </Link>
            </li>
            <li>
              <Link to={paths.terms} className={linkClass}>
                Terms of Service
              </Link>
            </li>
          </ul>
        </div>
      </div>
    </footer>
  );
}

/**
 * A quick link: a home section (`/#categories`) scrolls there as the header's links do, a path on
 * this site is a client navigation, another site opens in a new tab.
 */
function QuickLink({ label, href, onNavigate }: { label: string; href: string; onNavigate: ReturnType<typeof useNavLinkClick> }) {
  if (/^https?:\/\//i.test(href)) {
    return (
      <a href={href} target="_blank" rel="noopener noreferrer" className={linkClass}>
        {label}
      </a>
    );
  }
  const target = (href.startsWith('/#') ? href.slice(1) : href) as NavTarget;
  return (
    <a href={href} onClick={onNavigate(target)} className={linkClass}>
      {label}
    </a>
  );
}
