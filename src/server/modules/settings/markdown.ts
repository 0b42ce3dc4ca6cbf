import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';
import { escapeHtml } from '../spa/html';

/**
 * The legal pages' Markdown as HTML (docs/decisions/382-legal-pages-in-markdown.md): markdown-it
 * with raw HTML off (a `<script>` is text) and its link check (no `javascript:`, `vbscript:`,
 * `file:` or `data:` links), then sanitize-html as a second guard that keeps only the tags
 * Markdown makes and http(s), mailto and same-site links. No images: a picture from elsewhere on
 * the privacy page would tell that site who read it. External links open in a new tab with
 * `rel="noopener nofollow"`; headings get ids so a section can be linked to.
 */
const md = new MarkdownIt({ html: false, linkify: true, typographer: false });

/** Ids a heading must not take: the page's own elements (the client's root and its initial data). */
const RESERVED_IDS = new Set(['root', 'rv-initial-data']);

const slug = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80) || 'section';

md.core.ruler.push('heading_ids', (state) => {
  const used = new Set(RESERVED_IDS);
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i].type !== 'heading_open') continue;
    const base = slug(tokens[i + 1]?.content ?? '');
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
    used.add(id);
    tokens[i].attrSet('id', id);
  }
  return true;
});

const isExternal = (href: string) => /^https?:\/\//i.test(href);

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];
const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [...HEADINGS, 'p', 'a', 'ul', 'ol', 'li', 'strong', 'em', 's', 'code', 'pre', 'blockquote', 'hr', 'br', 'table', 'thead', 'tbody', 'tr', 'th', 'td'],
  allowedAttributes: { a: ['href', 'rel', 'target'], ol: ['start'], ...Object.fromEntries(HEADINGS.map((h) => [h, ['id']])) },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    a: (tagName, attribs): sanitizeHtml.Tag => {
      const { href } = attribs;
      const kept: sanitizeHtml.Attributes = {};
      if (href) kept.href = href;
      if (href && isExternal(href)) Object.assign(kept, { rel: 'noopener nofollow', target: '_blank' });
      return { tagName, attribs: kept };
    },
  },
};

/** Sanitised HTML of `markdown`; `{site}` in the text becomes the site's name. */
export function renderMarkdown(markdown: string, siteName: string): string {
  const html = md.render(markdown).replaceAll('{site}', escapeHtml(siteName));
  return sanitizeHtml(html, SANITIZE);
}
