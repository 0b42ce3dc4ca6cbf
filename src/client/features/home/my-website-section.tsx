import { CodeXml, ExternalLink, LayoutTemplate, Pause, Play } from 'lucide-react';
import * as React from 'react';
import { buttonVariants } from '@/components/ui/button';
import { homeSections } from '@/lib/paths';
import { useSite } from '@/lib/site-api';
import { cn } from '@/lib/utils';

const TILES = [
  {
    title: 'Clean Code',
    text: 'Readable, typed and tested code that stays fast as it grows.',
    icon: CodeXml,
    gradient: 'from-violet-500 to-indigo-600',
  },
  {
    title: 'Modern UI',
    text: 'Responsive interfaces with motion, depth and a dark mode done right.',
    icon: LayoutTemplate,
    gradient: 'from-fuchsia-500 to-pink-600',
  },
];

export function MyWebsiteSection() {
  const site = useSite();
  const portfolio = site.data?.portfolio_url;
  return (
    <section id={homeSections.myWebsite} aria-labelledby="my-website-heading" className="relative scroll-mt-20 px-4 py-20 sm:px-6">
      <div className="mx-auto grid max-w-6xl items-center gap-10 lg:grid-cols-2 lg:gap-16">
        <PromoVideo />
        <div>
          <p className="text-sm font-semibold uppercase tracking-widest text-fuchsia-700 dark:text-fuchsia-400">My Website</p>
          <h2 id="my-website-heading" className="mt-3 text-3xl font-bold tracking-tight sm:text-4xl">
            Crafting Digital Experiences
          </h2>
          <p className="mt-4 text-muted-foreground">
            Beyond the packs, I design and build websites for creators and brands — fast, accessible and made to be
            remembered.
          </p>
          <ul className="mt-8 grid gap-4 sm:grid-cols-2">
            {TILES.map(({ title, text, icon: Icon, gradient }) => (
              <li key={title} className="home-glass rounded-2xl p-5">
                <span className={cn('grid size-10 place-items-center rounded-lg bg-gradient-to-br text-white shadow-md', gradient)}>
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                <h3 className="mt-4 font-semibold">{title}</h3>
                <p className="mt-1 text-sm text-muted-foreground">{text}</p>
              </li>
            ))}
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
function PromoVideo() {
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
          width={640}
          height={360}
          poster="/media/promo-poster.webp"
          preload="none"
          muted
          loop
          playsInline
          aria-label="Promo: a website being designed and coded"
          onPlay={() => setPlaying(true)}
          onPause={() => setPlaying(false)}
        >
          <source src="/media/promo.mp4" type="video/mp4" />
          <source src="/media/promo.webm" type="video/webm" />
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
