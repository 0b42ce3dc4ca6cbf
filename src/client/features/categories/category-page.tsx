/** Placeholder until this page is built. */
export default function Page() {
  return <main className="p-8">category-page</main>;
}
