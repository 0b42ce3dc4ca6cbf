import { FOOTER_YEAR_DEFAULT } from '@contract/constants';
import { ArrowUpRight, Code2, Heart } from 'lucide-react';
import * as React from 'react';
import { Link } from 'react-router';
import { Skeleton } from '@/components/ui/primitives';
import { paths } from '@/lib/paths';
import { useSite, useSiteName } from '@/lib/site-api';
import { hrefFor, QUICK_LINKS } from './nav-items';
import { socialIcon } from '@/lib/social-icon';
import { useNavLinkClick } from './use-site-navigation';

const headingClass = 'mb-4 text-sm font-semibold uppercase tracking-wider text-foreground';
const linkClass =
  'rounded-sm text-muted-foreground transition-colors hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring';

/** Spec: on every page except home. */
export function Footer({ ref }: { ref?: React.Ref<HTMLElement> }) {
  const site = useSite();
  const siteName = useSiteName();
  const onLinkClick = useNavLinkClick();
  const year = site.data?.footer.copyright_start_year ?? FOOTER_YEAR_DEFAULT;

  return (
    <footer ref={ref} className="relative mt-auto border-t bg-muted/40 dark:bg-card/40">
      <div aria-hidden="true" className="absolute inset-x-0 top-0 h-px bg-gradient-to-r from-transparent via-violet-500/60 to-transparent" />
      <div className="mx-auto grid max-w-7xl gap-10 px-6 py-14 sm:grid-cols-2 lg:grid-cols-4 lg:px-8">
        <section aria-labelledby="footer-about">
          <h2 id="footer-about" className={headingClass}>
            About Me
          </h2>
          <p className="text-sm leading-relaxed text-muted-foreground">
            I&apos;m an editor and developer sharing the packs, presets and tools I use every day. {siteName} is where creators find
            high-quality resources to edit faster and better.
          </p>
        </section>

        <nav aria-labelledby="footer-links">
          <h2 id="footer-links" className={headingClass}>
            Quick Links
          </h2>
          <ul className="grid gap-2.5 text-sm">
            {QUICK_LINKS.map(({ label, target }) => (
              <li key={label}>
                <a href={hrefFor(target)} onClick={onLinkClick(target)} className={linkClass}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>

        <section aria-labelledby="footer-connect">
          <h2 id="footer-connect" className={headingClass}>
            Connect
          </h2>
          <p className="mb-4 text-sm text-muted-foreground">Follow along and join the conversation.</p>
          <ul className="flex flex-wrap gap-2">
            {site.data
              ? site.data.community.map((c) => {
                  const Icon = socialIcon(c.name);
                  return (
                    <li key={c.name}>
                      <a
                        href={c.link}
                        target="_blank"
                        rel="noopener noreferrer"
                        aria-label={c.name}
                        title={c.name}
                        style={{ '--brand': c.color } as React.CSSProperties}
                        className="flex size-10 items-center justify-center rounded-full border bg-background text-muted-foreground shadow-sm transition-all hover:-translate-y-0.5 hover:border-transparent hover:bg-(--brand) hover:text-white hover:shadow-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
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
      </div>

      <div className="border-t">
        <div className="mx-auto flex max-w-7xl flex-col items-center justify-between gap-3 px-6 py-6 text-sm text-muted-foreground sm:flex-row lg:px-8">
          <p>
            © {year} {siteName}. All rights reserved.
          </p>
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
