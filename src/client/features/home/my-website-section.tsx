import type { SiteSettings } from '@contract/site';
import { CodeXml, ExternalLink, LayoutTemplate, Pause, Play } from 'lucide-react';
import * as React from 'react';
import { buttonVariants } from '@/components/ui/button';
import { homeSections } from '@/lib/paths';
import { useSite } from '@/lib/site-api';
import { Skeleton } from '@/components/ui/primitives';
import { cn } from '@/lib/utils';

/** The two tiles' looks, in order; their texts are the owner's. */
const TILE_LOOKS = [
  { icon: CodeXml, gradient: 'from-violet-500 to-indigo-600' },
  { icon: LayoutTemplate, gradient: 'from-fuchsia-500 to-pink-600' },
];

/** The built-in promo video, shown until the owner uploads one. */
const BUILT_IN_VIDEO: PromoVideoSource = { mp4: '/media/promo.mp4', webm: '/media/promo.webm', poster: '/media/promo-poster.webp', width: 640, height: 360 };
type PromoVideoSource = NonNullable<SiteSettings['my_website']['video']>;

export function MyWebsiteSection() {
  const site = useSite();
  const portfolio = site.data?.portfolio_url;
  const mine = site.data?.my_website;
  return (
    <section id={homeSections.myWebsite} aria-labelledby="my-website-heading" className="relative scroll-mt-20 px-4 py-20 sm:px-6">
      <div className="mx-auto grid max-w-6xl items-center gap-10 lg:grid-cols-2 lg:gap-16">
        <PromoVideo key={mine?.video?.mp4 ?? 'built-in'} video={mine?.video ?? BUILT_IN_VIDEO} />
        <div>
          <p className="text-sm font-semibold uppercase tracking-widest text-fuchsia-700 dark:text-fuchsia-400">My Website</p>
          <h2 id="my-website-heading" className="mt-3 text-3xl font-bold tracking-tight sm:text-4xl">
            {mine ? mine.heading : <span className="sr-only">My Website</span>}
          </h2>
          {!mine && <Skeleton aria-hidden="true" className="mt-3 h-10 w-3/4" />}
          {mine ? mine.text && <p className="mt-4 text-muted-foreground">{mine.text}</p> : <Skeleton className="mt-4 h-12 w-full" />}
          <ul className="mt-8 grid gap-4 sm:grid-cols-2">
            {(mine?.tiles ?? [null, null]).map((tile, i) => {
              const { icon: Icon, gradient } = TILE_LOOKS[i % TILE_LOOKS.length]!;
              return (
                <li key={i} className="home-glass rounded-2xl p-5">
                  <span className={cn('grid size-10 place-items-center rounded-lg bg-gradient-to-br text-white shadow-md', gradient)}>
                    <Icon className="size-5" aria-hidden="true" />
                  </span>
                  {tile ? (
                    <>
                      <h3 className="mt-4 font-semibold">{tile.title}</h3>
                      {tile.text && <p className="mt-1 text-sm text-muted-foreground">{tile.text}</p>}
                    </>
                  ) : (
                    <>
                      <Skeleton className="mt-4 h-5 w-24" />
                      <Skeleton className="mt-2 h-10 w-full" />
                    </>
                  )}
                </li>
              );
            })}
          </ul>
          <a
            href={portfolio ?? undefined}
            target="_blank"
            rel="noopener noreferrer"
            aria-disabled={portfolio ? undefined : true}
            className={cn(
              buttonVariants({ variant: 'gradient', size: 'lg' }),
              'mt-8 rounded-full px-7 shadow-lg shadow-fuchsia-500/20',
              !portfolio && 'pointer-events-none opacity-60',
            )}
          >
            View Portfolio
            <ExternalLink aria-hidden="true" />
            <span className="sr-only">(opens in a new tab)</span>
          </a>
        </div>
      </div>
    </section>
  );
}

/**
 * Muted, looping, inline. It plays only while on screen (and never by itself under reduced
 * motion), so it neither competes with the page's first paint nor burns battery off screen;
 * the button pauses it for good (WCAG 2.2.2).
 */
function PromoVideo({ video }: { video: PromoVideoSource }) {
  const ref = React.useRef<HTMLVideoElement>(null);
  const [playing, setPlaying] = React.useState(false);
  const [userPaused, setUserPaused] = React.useState(false);

  React.useEffect(() => {
    const video = ref.current;
    if (!video || userPaused) return;
    if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
    const observer = new IntersectionObserver(([entry]) => {
      if (entry.isIntersecting) video.play().catch(() => setPlaying(false));
      else video.pause();
    });
    observer.observe(video);
    return () => observer.disconnect();
  }, [userPaused]);

  const toggle = () => {
    const video = ref.current;
    if (!video) return;
    if (video.paused) {
      setUserPaused(false);
      video.play().catch(() => setPlaying(false));
    } else {
      setUserPaused(true);
      video.pause();
    }
  };

  return (
    <div className="relative">
      <div aria-hidden="true" className="absolute -inset-4 -z-10 rounded-[2rem] bg-gradient-to-br from-violet-600/30 via-fuchsia-500/20 to-indigo-500/30 blur-2xl" />
      <div className="home-glass overflow-hidden rounded-3xl p-2">
        <video
          ref={ref}
          className="aspect-video w-full rounded-2xl bg-black object-cover"
          width={video.width}
          height={video.height}
          poster={video.poster}
          preload="none"
          muted
          loop
          playsInline
          aria-label={video === BUILT_IN_VIDEO ? 'Promo: a website being designed and coded' : 'Promo video'}
          onPlay={() => setPlaying(true)}
          onPause={() => setPlaying(false)}
        >
          <source src={video.mp4} type="video/mp4" />
          {video.webm && <source src={video.webm} type="video/webm" />}
        </video>
      </div>
      <button
        type="button"
        onClick={toggle}
        aria-label={playing ? 'Pause video' : 'Play video'}
        className="absolute bottom-5 right-5 grid size-10 cursor-pointer place-items-center rounded-full bg-black/60 text-white backdrop-blur transition-colors hover:bg-black/80 focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-white/70"
      >
        {playing ? <Pause className="size-4" aria-hidden="true" /> : <Play className="size-4" aria-hidden="true" />}
      </button>
    </div>
  );
}
