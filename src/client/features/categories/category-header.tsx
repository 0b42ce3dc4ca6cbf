import { Layers } from 'lucide-react';
import type { CategoryInfo } from '@contract/categories';
import { Breadcrumb } from '@/components/ui/breadcrumb';
import { formatCount } from '@/lib/format';
import { paths } from '@/lib/paths';
import { useCategories } from '@/lib/site-api';
import { cn } from '@/lib/utils';


export function CategoryHeader({ category }: { category: CategoryInfo }) {
  const count = useCategories().data?.items.find((c) => c.value === category.value)?.count;
  return (
    <header className={cn('relative isolate overflow-hidden bg-gradient-to-br text-white', category.gradient)}>
      {/* A dark veil keeps white text readable on the lightest gradients (amber, teal). */}
      <div aria-hidden="true" className="absolute inset-0 -z-10 bg-gradient-to-r from-black/40 via-black/25 to-black/10" />
      <div aria-hidden="true" className="absolute -right-24 -top-24 -z-10 size-96 rounded-full bg-white/20 blur-3xl" />
      <div aria-hidden="true" className="absolute -bottom-32 left-1/3 -z-10 size-80 rounded-full bg-black/20 blur-3xl" />
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 opacity-[0.12] [background-image:radial-gradient(circle_at_1px_1px,white_1px,transparent_0)] [background-size:22px_22px]"
      />
      <div className="mx-auto max-w-7xl px-4 pb-12 pt-10 sm:px-6 sm:pb-16 sm:pt-14 lg:px-8">
        <Breadcrumb
          className="mb-5 text-sm text-white/90"
          linkClassName="hover:text-white hover:underline focus-visible:outline-2 focus-visible:outline-white"
          currentClassName="font-medium text-white"
          trail={[{ label: 'Home', to: paths.home }, { label: category.title }]}
        />
        <h1 className="text-4xl font-extrabold tracking-tight drop-shadow-sm sm:text-5xl lg:text-6xl">{category.title}</h1>
        <p className="mt-4 max-w-2xl text-base text-white sm:text-lg">{category.description}</p>
        <p className="mt-6 inline-flex h-8 items-center gap-2 rounded-full bg-white/15 px-3.5 text-sm font-medium ring-1 ring-white/25 backdrop-blur">
          <Layers aria-hidden="true" className="size-4" />
          {count === undefined ? 'Resources' : formatCount(count, 'resource')}
        </p>
      </div>
    </header>
  );
}
