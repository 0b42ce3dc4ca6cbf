/** Placeholder: the home page is built in the public website issue. */
export function HomePage() {
  return <main id="hero" className="p-8"><h1 className="text-3xl font-bold">PREMIUM RESOURCES</h1></main>;
}
