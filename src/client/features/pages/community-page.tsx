import type { CommunityLink } from '@contract/site';
import { RefreshCw, Users } from 'lucide-react';
import * as React from 'react';
import { useLocation } from 'react-router';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/primitives';
import { usePageMeta, useSite } from '@/lib/site-api';
import { socialIcon } from '@/lib/social-icon';

/** The spec's eight networks; shown as placeholders while the links load. */
const CARD_COUNT = 8;

export default function CommunityPage() {
  const { pathname } = useLocation();
  usePageMeta(pathname);
  const site = useSite();

  return (
    <main id="main" className="relative isolate flex-1 overflow-hidden">
      <div aria-hidden="true" className="pointer-events-none absolute inset-0 -z-10">
        <div className="absolute -top-40 left-1/2 size-[40rem] -translate-x-1/2 rounded-full bg-gradient-to-br from-violet-500/20 via-fuchsia-500/15 to-transparent blur-3xl" />
        <div className="absolute inset-0 bg-[radial-gradient(circle_at_1px_1px,rgb(120_113_198/0.12)_1px,transparent_0)] bg-[size:28px_28px] [mask-image:linear-gradient(to_bottom,black,transparent_70%)]" />
      </div>

      <div className="mx-auto max-w-7xl px-6 py-16 sm:py-20 lg:px-8">
        <header className="mx-auto max-w-2xl text-center">
          <span className="inline-flex items-center gap-2 rounded-full border bg-background/70 px-3 py-1 text-xs font-medium text-muted-foreground shadow-sm backdrop-blur">
            <Users className="size-3.5 text-primary" aria-hidden="true" />
            Creators helping creators
          </span>
          <h1 className="mt-5 text-4xl font-extrabold tracking-tight sm:text-5xl lg:text-6xl">
            Join Our{' '}
            <span className="bg-gradient-to-r from-violet-600 to-fuchsia-600 bg-clip-text text-transparent dark:from-violet-400 dark:to-fuchsia-400">
              Community
            </span>
          </h1>
          <p className="mt-5 text-lg leading-relaxed text-muted-foreground">
            Share your edits, get feedback, hear about new resources first and learn alongside thousands of video and photo creators.
          </p>
        </header>

        {site.isError ? (
          <div role="alert" className="mx-auto mt-14 flex max-w-md flex-col items-center gap-4 rounded-2xl border bg-card p-8 text-center shadow-sm">
            <p className="font-medium">We couldn&apos;t load the community links.</p>
            <Button variant="outline" onClick={() => site.refetch()}>
              <RefreshCw aria-hidden="true" />
              Try Again
            </Button>
          </div>
        ) : site.data?.community.length === 0 ? (
          <p className="mx-auto mt-14 max-w-md rounded-2xl border border-dashed bg-card/60 p-8 text-center text-muted-foreground">
            No community links yet. Check back soon.
          </p>
        ) : (
          <ul className="mt-14 grid gap-5 sm:grid-cols-2 lg:grid-cols-4" aria-busy={site.isPending}>
            {site.data
              ? site.data.community.map((c, i) => <CommunityCard key={i} index={i} {...c} />)
              : Array.from({ length: CARD_COUNT }, (_, i) => (
                  <li key={i} className="rounded-2xl border bg-card p-6 shadow-sm">
                    <Skeleton className="size-12 rounded-xl" />
                    <Skeleton className="mt-5 h-5 w-32" />
                    <Skeleton className="mt-3 h-4 w-full" />
                    <Skeleton className="mt-2 h-4 w-2/3" />
                    <Skeleton className="mt-6 h-9 w-28 rounded-full" />
                  </li>
                ))}
          </ul>
        )}
      </div>
    </main>
  );
}

function CommunityCard({ name, link, color, description, icon, index }: CommunityLink & { index: number }) {
  const Icon = socialIcon(icon);
  const titleId = `community-${index}`;
  return (
    <li
      style={{ '--brand': color } as React.CSSProperties}
      className="group relative flex flex-col overflow-hidden rounded-2xl border bg-card p-6 shadow-sm transition-all duration-300 hover:-translate-y-1 hover:border-(--brand)/50 hover:shadow-xl"
    >
      <div aria-hidden="true" className="absolute inset-x-0 top-0 h-1 bg-(--brand)" />
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -right-12 -top-12 size-36 rounded-full bg-(--brand) opacity-10 blur-2xl transition-opacity duration-300 group-hover:opacity-25"
      />
      <span className="flex size-12 items-center justify-center rounded-xl bg-(--brand) text-white shadow-lg shadow-(color:--brand)/30">
        <Icon className="size-6" aria-hidden="true" />
      </span>
      <h2 id={titleId} className="mt-5 text-lg font-semibold">
        {name}
      </h2>
      <p className="mt-2 flex-1 text-sm leading-relaxed text-muted-foreground">{description}</p>
      <a
        href={link}
        target="_blank"
        rel="noopener noreferrer"
        aria-describedby={titleId}
        className="mt-6 inline-flex w-fit items-center gap-1 rounded-full border bg-background px-4 py-2 text-sm font-semibold shadow-sm transition-colors hover:border-(--brand) hover:bg-(--brand)/10 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        Join Now →
      </a>
    </li>
  );
}
