import { ArrowLeft, Sparkles } from 'lucide-react';
import { useLocation } from 'react-router';
import { Link } from '@/lib/link';
import { paths } from '@/lib/paths';
import { usePageMeta } from '@/lib/site-api';
import './coming-soon.css';

/** Generated demo thumbnails (/thumbnails/<id>.svg) for resource ids 1..24, split over four rows. */
const THUMBNAIL_COUNT = 24;
const ROWS = 4;
const PER_ROW = THUMBNAIL_COUNT / ROWS;
const ROW_DURATIONS_S = [70, 55, 80, 62];

const rows = Array.from({ length: ROWS }, (_, r) =>
  Array.from({ length: PER_ROW }, (_, i) => `/thumbnails/${r * PER_ROW + i + 1}.svg`),
);

function hideBroken(e: React.SyntheticEvent<HTMLImageElement>) {
  e.currentTarget.style.visibility = 'hidden';
}

export default function ComingSoonPage() {
  const { pathname } = useLocation();
  usePageMeta(pathname);

  return (
    <main id="main" className="relative isolate flex min-h-dvh items-center justify-center overflow-hidden bg-[#08070f] text-white">
      <div aria-hidden="true" className="absolute inset-0 -z-20 flex -rotate-6 scale-125 flex-col justify-center gap-4 opacity-60">
        {rows.map((images, r) => (
          <div key={r} className="overflow-hidden">
            <div
              className="coming-soon-track"
              data-reverse={r % 2 === 1}
              style={{ '--marquee-duration': `${ROW_DURATIONS_S[r]}s` } as React.CSSProperties}
            >
              {[...images, ...images].map((src, i) => (
                <img
                  key={i}
                  src={src}
                  alt=""
                  width={288}
                  height={162}
                  decoding="async"
                  onError={hideBroken}
                  className="aspect-video w-56 shrink-0 rounded-xl object-cover shadow-2xl ring-1 ring-white/10 sm:w-72"
                />
              ))}
            </div>
          </div>
        ))}
      </div>
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-[radial-gradient(ellipse_at_center,rgb(8_7_15/0.55)_0%,rgb(8_7_15/0.85)_45%,#08070f_80%)]"
      />
      <div aria-hidden="true" className="absolute left-1/2 top-1/2 -z-10 size-[36rem] -translate-x-1/2 -translate-y-1/2 rounded-full bg-violet-600/25 blur-3xl" />

      <div className="relative px-6 py-24 text-center">
        <span className="inline-flex items-center gap-2 rounded-full border border-white/15 bg-white/10 px-4 py-1.5 text-sm font-medium text-white/90 backdrop-blur">
          <Sparkles className="size-4 text-fuchsia-300" aria-hidden="true" />
          Something new is on its way
        </span>
        <h1 className="mt-6 bg-gradient-to-r from-white via-fuchsia-200 to-violet-300 bg-clip-text text-6xl font-black tracking-tight text-transparent drop-shadow-sm sm:text-8xl">
          Coming Soon
        </h1>
        <p className="mx-auto mt-5 max-w-md text-lg text-white/85 sm:text-xl">Get ready for something amazing</p>
        <Link
          to={paths.home}
          className="mt-10 inline-flex items-center gap-2 rounded-full bg-white px-6 py-3 text-sm font-semibold text-zinc-900 shadow-xl shadow-violet-900/40 transition-transform hover:scale-105 focus-visible:outline-none focus-visible:ring-4 focus-visible:ring-fuchsia-300/60"
        >
          <ArrowLeft className="size-4" aria-hidden="true" />
          Back to Home
        </Link>
      </div>
    </main>
  );
}
