import { ArrowDown, Sparkles } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/primitives';
import { homeSections } from '@/lib/paths';
import { useSite } from '@/lib/site-api';

function scrollToPremium() {
  const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  document.getElementById(homeSections.premium)?.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'start' });
}

/** The hero: the owner's texts (the spec's words by default), rendered by the server with the page. */
export function HeroSection() {
  const hero = useSite().data?.hero;
  return (
    <section
      id={homeSections.hero}
      aria-labelledby="hero-heading"
      className="relative isolate flex min-h-[88svh] items-center justify-center overflow-hidden px-4 pb-20 pt-28 sm:px-6"
    >
      <div aria-hidden="true" className="pointer-events-none absolute inset-0 -z-10">
        <div className="home-grid absolute inset-0" />
        <div className="absolute -left-32 top-10 size-[28rem] rounded-full bg-violet-500/25 blur-3xl dark:bg-violet-600/30" />
        <div className="absolute -right-24 top-1/3 size-[24rem] rounded-full bg-fuchsia-500/20 blur-3xl dark:bg-fuchsia-600/25" />
        <div className="absolute bottom-0 left-1/3 size-[22rem] rounded-full bg-indigo-500/20 blur-3xl dark:bg-indigo-600/25" />
        <div className="absolute inset-x-0 bottom-0 h-40 bg-gradient-to-b from-transparent to-background" />
      </div>

      <div className="mx-auto flex max-w-5xl flex-col items-center text-center">
        {hero ? (
          hero.badge && (
            <p className="home-glass mb-8 inline-flex items-center gap-2 rounded-full px-4 py-1.5 text-sm font-medium">
              <Sparkles className="size-4 text-fuchsia-600 dark:text-fuchsia-400" aria-hidden="true" />
              {hero.badge}
            </p>
          )
        ) : (
          <Skeleton className="mb-8 h-8 w-72 rounded-full" />
        )}
        <h1
          id="hero-heading"
          className="home-gradient-text text-[clamp(2.75rem,11vw,8.5rem)] font-black leading-[0.9] tracking-tighter"
        >
          {hero ? (
            <>
              <span className="block">{hero.title[0]}</span> {hero.title[1] && <span className="block">{hero.title[1]}</span>}
            </>
          ) : (
            <span className="sr-only">Loading</span>
          )}
        </h1>
        {!hero && <Skeleton aria-hidden="true" className="h-[clamp(5rem,20vw,15rem)] w-full max-w-3xl rounded-2xl" />}
        {hero ? (
          hero.text && <p className="mt-8 max-w-2xl text-lg text-muted-foreground sm:text-xl">{hero.text}</p>
        ) : (
          <Skeleton className="mt-8 h-14 w-full max-w-2xl" />
        )}
        <Button variant="gradient" size="lg" onClick={scrollToPremium} className="mt-10 h-14 rounded-full px-8 text-base shadow-xl shadow-fuchsia-500/25 hover:shadow-fuchsia-500/40">
          {hero?.button ?? 'Explore Resources'}
          <ArrowDown className="size-5 transition-transform group-hover:translate-y-0.5" aria-hidden="true" />
        </Button>
      </div>
    </section>
  );
}
