import * as React from 'react';
import { ClientOnly } from '@/lib/hydration';
import { homeSections } from '@/lib/paths';
import { usePageMeta } from '@/lib/site-api';
import { CategoriesSection } from './categories-section';
import { CommunityStats } from './community-stats';
import { HeroSection } from './hero-section';
import { MyWebsiteSection } from './my-website-section';
import './home.css';

// Below the fold and the heaviest part of the page: its own chunk, fetched while the top renders.
const PremiumCarousel = React.lazy(() => import('./premium-carousel'));

export function HomePage() {
  usePageMeta('/');
  return (
    <main className="relative overflow-x-clip">
      <HeroSection />
      <CommunityStats />
      <CategoriesSection />
      <section id={homeSections.premium} aria-labelledby="premium-heading" className="relative scroll-mt-20 px-4 py-20 sm:px-6">
        <div aria-hidden="true" className="pointer-events-none absolute inset-x-0 top-1/3 -z-10 mx-auto h-96 max-w-4xl rounded-full bg-gradient-to-r from-violet-500/15 via-fuchsia-500/15 to-amber-400/15 blur-3xl" />
        <div className="mx-auto max-w-6xl">
          <div className="mx-auto mb-8 max-w-2xl text-center">
            <h2 id="premium-heading" className="text-3xl font-bold tracking-tight sm:text-4xl">
              Premium <span className="home-gradient-text">Resources</span>
            </h2>
            <p className="mt-3 text-muted-foreground">Exclusive high-quality resources curated for premium members</p>
          </div>
          <ClientOnly fallback={<PremiumFallback />}>
            <React.Suspense fallback={<PremiumFallback />}>
              <PremiumCarousel />
            </React.Suspense>
          </ClientOnly>
        </div>
      </section>
      <MyWebsiteSection />
    </main>
  );
}

/** Same box and words as the carousel's own loading state, so nothing jumps when it arrives. */
function PremiumFallback() {
  return (
    <div role="status" className="flex min-h-[464px] items-center justify-center">
      <p className="font-medium text-muted-foreground">Loading premium resources...</p>
    </div>
  );
}
