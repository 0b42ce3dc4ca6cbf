import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { sitemapPaths } from '../../../contract/pages';
import { resourcePath } from '../../../contract/resource-page';
import { LEGAL_PAGES, type LegalPageKey } from '../../../contract/settings';
import type { Tables } from '../../db/schema';
import { escapeHtml } from './html';
import { maxResourceId, sitemapRows } from './sitemap-queries';

/** The sitemaps protocol's limit of URLs per file: up to it, /sitemap.xml is one list. */
export const SITEMAP_MAX_URLS = 50_000;
/**
 * Resources per paged sitemap past that (decision 244): well inside the limit, so that any page
 * answers in a fraction of the time a full one takes (50,000 entries: 6.8 MB to read, build and compress).
 */
export const SITEMAP_PAGE_URLS = 10_000;
/** Rows read per query while streaming. */
const BATCH = 5_000;

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const URLSET_OPEN = `${XML_HEAD}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n`;
const URLSET_CLOSE = '</urlset>\n';

/** Where the paged sitemaps are: /sitemaps/pages.xml and /sitemaps/resources-{n}.xml. */
export const SITEMAPS_DIR = '/sitemaps/';

const urlEntry = (loc: string, lastmod?: string) => `  <url><loc>${escapeHtml(loc)}</loc>${lastmod ? `<lastmod>${escapeHtml(lastmod)}</lastmod>` : ''}</url>\n`;

/** When each legal page's text last changed (the owner's settings): their lastmod. */
export type LegalDates = Record<LegalPageKey, string>;

function staticEntries(base: string, legal: LegalDates): string {
  return sitemapPaths()
    .map((p) => urlEntry(base + p, LEGAL_PAGES.find((page) => `/${page}` === p) ? legal[p.slice(1) as LegalPageKey] : undefined))
    .join('');
}

/** Every resource with `after` < id ≤ `through`, as <url> entries, read a batch at a time. */
async function* resourceEntries(db: Kysely<Tables>, base: string, after: number, through: number): AsyncGenerator<string> {
  // A resource's path is digits, ASCII letters and hyphens: only the base needs escaping, once.
  const loc = escapeHtml(base);
  let last = after;
  for (;;) {
    const rows = await sitemapRows(db, last, through, BATCH);
    if (rows.length === 0) return;
    yield rows
      .map((r) => `  <url><loc>${loc}${resourcePath({ id: Number(r.id), title: r.title })}</loc><lastmod>${escapeHtml(r.updated_at)}</lastmod></url>\n`)
      .join('');
    if (rows.length < BATCH) return;
    last = Number(rows[rows.length - 1].id);
  }
}

/**
 * /sitemap.xml: one list of every public page and resource while they surely fit in one file (the
 * highest id, which bounds their number, with the pages within SITEMAP_MAX_URLS); past that, an
 * index of paged sitemaps: the site's pages, then resources by id range (page n holds ids
 * (n-1)·SITEMAP_PAGE_URLS+1 … n·SITEMAP_PAGE_URLS, so a resource stays on its page as others come
 * and go, and a page is one walk of the primary key however large the table).
 */
export async function sitemapRoot(db: Kysely<Tables>, base: string, legal: LegalDates): Promise<Readable> {
  // The highest id bounds the count (one step down the primary key; a count(*) reads the whole index).
  const maxId = await maxResourceId(db);
  if (maxId + sitemapPaths().length <= SITEMAP_MAX_URLS) {
    return Readable.from(
      (async function* () {
        yield URLSET_OPEN + staticEntries(base, legal);
        yield* resourceEntries(db, base, 0, maxId);
        yield URLSET_CLOSE;
      })(),
    );
  }
  const pages = Math.ceil(maxId / SITEMAP_PAGE_URLS);
  const entry = (loc: string) => `  <sitemap><loc>${escapeHtml(loc)}</loc></sitemap>\n`;
  let xml = `${XML_HEAD}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entry(`${base}${SITEMAPS_DIR}pages.xml`)}`;
  for (let n = 1; n <= pages; n++) xml += entry(`${base}${SITEMAPS_DIR}resources-${n}.xml`);
  return Readable.from([`${xml}</sitemapindex>\n`]);
}

/** One paged sitemap by its file name, or undefined for a name that is not one (or a page past the last). */
export async function sitemapPage(db: Kysely<Tables>, base: string, file: string, legal: LegalDates): Promise<Readable | undefined> {
  if (file === 'pages.xml') return Readable.from([URLSET_OPEN + staticEntries(base, legal) + URLSET_CLOSE]);
  const m = /^resources-([1-9]\d{0,5})\.xml$/.exec(file);
  if (!m) return undefined;
  const n = Number(m[1]);
  if (n > Math.max(1, Math.ceil((await maxResourceId(db)) / SITEMAP_PAGE_URLS))) return undefined;
  return Readable.from(
    (async function* () {
      yield URLSET_OPEN;
      yield* resourceEntries(db, base, (n - 1) * SITEMAP_PAGE_URLS, n * SITEMAP_PAGE_URLS);
      yield URLSET_CLOSE;
    })(),
  );
}
