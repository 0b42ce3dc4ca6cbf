import { FileText } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { GlowMain } from '@/components/status-page';
import { paths } from '@/lib/paths';
import { usePageMeta, useSiteName } from '@/lib/site-api';

/**
 * A policy document as plain data, so the wording can be edited without touching markup.
 * `{site}` is replaced by the site name. A paragraph given as an array is a bulleted list.
 */
export interface LegalDocument {
  title: string;
  updated: string;
  intro: string;
  sections: { heading: string; body: (string | string[])[] }[];
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

export function LegalPage({ doc }: { doc: LegalDocument }) {
  const { pathname } = useLocation();
  usePageMeta(pathname);
  const siteName = useSiteName();
  const fill = (s: string) => s.replaceAll('{site}', siteName);

  return (
    <GlowMain glow="band" className="flex-1">
      <div className="mx-auto max-w-6xl px-6 py-14 sm:py-20 lg:px-8">
        <header className="max-w-3xl">
          <span className="inline-flex items-center gap-2 rounded-full border bg-background/70 px-3 py-1 text-xs font-medium text-muted-foreground shadow-sm">
            <FileText className="size-3.5 text-primary" aria-hidden="true" />
            Legal
          </span>
          <h1 className="mt-4 text-4xl font-extrabold tracking-tight sm:text-5xl">{doc.title}</h1>
          <p className="mt-3 text-sm text-muted-foreground">Last updated: {doc.updated}</p>
          <p className="mt-6 text-lg leading-relaxed text-muted-foreground">{fill(doc.intro)}</p>
        </header>

        <div className="mt-12 grid gap-12 lg:grid-cols-[14rem_1fr]">
          <nav aria-label="On this page" className="hidden lg:block">
            <div className="sticky top-24">
              <p className="mb-3 text-xs font-semibold uppercase tracking-wider text-muted-foreground">On this page</p>
              <ol className="grid gap-2 border-l text-sm">
                {doc.sections.map((s) => (
                  <li key={s.heading}>
                    <a
                      href={`#${slug(s.heading)}`}
                      className="-ml-px block border-l border-transparent pl-4 text-muted-foreground transition-colors hover:border-primary hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                    >
                      {s.heading}
                    </a>
                  </li>
                ))}
              </ol>
            </div>
          </nav>

          <article className="max-w-3xl">
            {doc.sections.map((s, i) => (
              <section key={s.heading} aria-labelledby={slug(s.heading)} className="border-b py-8 first:pt-0 last:border-b-0">
                <h2 id={slug(s.heading)} className="flex items-baseline gap-3 text-xl font-semibold tracking-tight">
                  <span className="text-sm font-bold tabular-nums text-primary" aria-hidden="true">
                    {String(i + 1).padStart(2, '0')}
                  </span>
                  {s.heading}
                </h2>
                <div className="mt-4 grid gap-4 leading-relaxed text-muted-foreground">
                  {s.body.map((block, j) =>
                    Array.isArray(block) ? (
                      <ul key={j} className="grid list-disc gap-2 pl-5 marker:text-primary">
                        {block.map((item) => (
                          <li key={item}>{fill(item)}</li>
                        ))}
                      </ul>
                    ) : (
                      <p key={j}>{fill(block)}</p>
                    ),
                  )}
                </div>
              </section>
            ))}
            <p className="mt-4 rounded-xl border bg-muted/40 p-4 text-sm text-muted-foreground">
              Questions about this page? Reach us through any channel on the{' '}
              <Link to={paths.community} className="font-medium text-primary underline-offset-4 hover:underline">
                Community page
              </Link>
              .
            </p>
          </article>
        </div>
      </div>
    </GlowMain>
  );
}
