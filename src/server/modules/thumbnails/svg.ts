import { getCategory, type CategoryValue } from '../../../contract/categories';
import { createRng, type Rng } from '../../prng';

export const THUMBNAIL_WIDTH = 640;
export const THUMBNAIL_HEIGHT = 360;

/** Hex values of the Tailwind colours the categories' gradients use (src/contract/categories.ts). */
const TAILWIND_HEX: Record<string, string> = {
  'violet-600': '#7c3aed',
  'indigo-600': '#4f46e5',
  'pink-600': '#db2777',
  'rose-600': '#e11d48',
  'amber-500': '#f59e0b',
  'amber-600': '#d97706',
  'orange-600': '#ea580c',
  'teal-500': '#14b8a6',
  'cyan-600': '#0891b2',
  'slate-600': '#475569',
  'zinc-700': '#3f3f46',
  'blue-600': '#2563eb',
  'sky-500': '#0ea5e9',
  'fuchsia-600': '#c026d3',
  'purple-700': '#7e22ce',
  'yellow-500': '#eab308',
};

/** The category's own gradient stops, so a thumbnail matches its card; a colour we lack falls back to a hue from the id. */
export function categoryColors(category: CategoryValue, id: number): [string, string] {
  const gradient = getCategory(category).gradient;
  const from = TAILWIND_HEX[/from-([a-z]+-\d+)/.exec(gradient)?.[1] ?? ''];
  const to = TAILWIND_HEX[/to-([a-z]+-\d+)/.exec(gradient)?.[1] ?? ''];
  const hue = (id * 47) % 360;
  return [from ?? `hsl(${hue} 70% 50%)`, to ?? `hsl(${(hue + 40) % 360} 70% 40%)`];
}

const r1 = (n: number) => Math.round(n * 10) / 10;

function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A 16:9 SVG thumbnail, the same for the same id and category: the category gradient, a
 * pattern chosen by the id, the category's glyph on a soft disc, and a caption.
 */
export function renderThumbnail(id: number, category: CategoryValue): string {
  const rng = createRng(Math.imul(id, 2654435761) ^ hashString(category));
  const [from, to] = categoryColors(category, id);
  const angle = rng.next() * Math.PI * 2;
  const gx = r1(0.5 + Math.cos(angle) * 0.5);
  const gy = r1(0.5 + Math.sin(angle) * 0.5);
  const title = getCategory(category).title.toUpperCase();
  const W = THUMBNAIL_WIDTH;
  const H = THUMBNAIL_HEIGHT;
  const cx = W / 2;
  const cy = 160;

  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${escapeXml(getCategory(category).title)} resource ${id}">`,
    '<defs>',
    `<linearGradient id="bg" x1="${r1(1 - gx)}" y1="${r1(1 - gy)}" x2="${gx}" y2="${gy}"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient>`,
    `<radialGradient id="glow" cx="${r1(0.2 + rng.next() * 0.6)}" cy="0.15" r="0.9"><stop offset="0" stop-color="#fff" stop-opacity="0.35"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>`,
    '<linearGradient id="shade" x1="0" y1="0" x2="0" y2="1"><stop offset="0.55" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.45"/></linearGradient>',
    '<pattern id="dots" width="22" height="22" patternUnits="userSpaceOnUse"><circle cx="3" cy="3" r="1.6" fill="#fff"/></pattern>',
    '</defs>',
    `<rect width="${W}" height="${H}" fill="url(#bg)"/>`,
    `<rect width="${W}" height="${H}" fill="url(#glow)"/>`,
    pattern(rng, id % 5),
    bokeh(rng),
    `<circle cx="${cx}" cy="${cy}" r="82" fill="#fff" fill-opacity="0.14" stroke="#fff" stroke-opacity="0.3" stroke-width="2"/>`,
    `<g transform="translate(${cx} ${cy})" fill="none" stroke="#fff" stroke-width="6" stroke-linecap="round" stroke-linejoin="round">${glyph(category, rng)}</g>`,
    `<rect width="${W}" height="${H}" fill="url(#shade)"/>`,
    `<text x="32" y="${H - 30}" fill="#fff" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif" font-size="18" font-weight="700" letter-spacing="3">${escapeXml(title)}</text>`,
    `<text x="${W - 32}" y="${H - 30}" fill="#fff" fill-opacity="0.75" text-anchor="end" font-family="ui-monospace, 'SF Mono', Menlo, Consolas, monospace" font-size="16">No. ${String(id).padStart(4, '0')}</text>`,
    '</svg>',
  ].join('');
}

function pattern(rng: Rng, variant: number): string {
  const W = THUMBNAIL_WIDTH;
  const H = THUMBNAIL_HEIGHT;
  const parts: string[] = [];
  switch (variant) {
    case 0: {
      // Concentric rings from an off-centre point.
      const x = rng.int(0, W);
      const y = rng.int(0, H);
      for (let r = 40; r < 640; r += 46) parts.push(`<circle cx="${x}" cy="${y}" r="${r}"/>`);
      return `<g fill="none" stroke="#fff" stroke-opacity="0.12" stroke-width="2">${parts.join('')}</g>`;
    }
    case 1: {
      // Diagonal stripes.
      const step = rng.int(28, 44);
      for (let x = -H; x < W + H; x += step) parts.push(`<path d="M${x} ${H} L${x + H} 0"/>`);
      return `<g stroke="#fff" stroke-opacity="0.09" stroke-width="${rng.int(6, 14)}">${parts.join('')}</g>`;
    }
    case 2:
      return `<rect width="${W}" height="${H}" fill="url(#dots)" opacity="0.22"/>`;
    case 3: {
      // Layered waves.
      for (let i = 0; i < 5; i++) {
        const y = 70 + i * 55 + rng.int(-10, 10);
        const a = rng.int(20, 45);
        parts.push(
          `<path d="M0 ${y} C${W * 0.25} ${y - a} ${W * 0.35} ${y + a} ${W * 0.5} ${y} S${W * 0.8} ${y - a} ${W} ${y}"/>`,
        );
      }
      return `<g fill="none" stroke="#fff" stroke-opacity="0.16" stroke-width="3">${parts.join('')}</g>`;
    }
    default: {
      // A loose grid of plus signs.
      for (let x = 40; x < W; x += 80) {
        for (let y = 40; y < H; y += 80) {
          if (rng.chance(0.6)) parts.push(`<path d="M${x - 6} ${y} H${x + 6} M${x} ${y - 6} V${y + 6}"/>`);
        }
      }
      return `<g stroke="#fff" stroke-opacity="0.25" stroke-width="2" stroke-linecap="round">${parts.join('')}</g>`;
    }
  }
}

/** Soft translucent circles for depth. */
function bokeh(rng: Rng): string {
  const parts: string[] = [];
  const n = rng.int(3, 6);
  for (let i = 0; i < n; i++) {
    const opacity = r1(0.05 + rng.next() * 0.1);
    parts.push(`<circle cx="${rng.int(0, THUMBNAIL_WIDTH)}" cy="${rng.int(0, THUMBNAIL_HEIGHT)}" r="${rng.int(20, 110)}" fill-opacity="${opacity}"/>`);
  }
  return `<g fill="#fff">${parts.join('')}</g>`;
}

/** An icon-like mark per category, drawn around (0, 0) within about ±56. */
function glyph(category: CategoryValue, rng: Rng): string {
  switch (category) {
    case 'video_editing':
      return [
        '<rect x="-54" y="-38" width="108" height="76" rx="14"/>',
        '<path d="M-14 -20 L22 0 L-14 20 Z" fill="#fff"/>',
      ].join('');
    case 'photo_editing':
      return [
        '<path d="M-54 -22 a10 10 0 0 1 10 -10 H-26 L-16 -46 H16 L26 -32 H44 a10 10 0 0 1 10 10 V34 a10 10 0 0 1 -10 10 H-44 a10 10 0 0 1 -10 -10 Z"/>',
        '<circle cx="0" cy="6" r="20"/>',
        '<circle cx="38" cy="-18" r="3" fill="#fff" stroke="none"/>',
      ].join('');
    case 'sound_effects': {
      const bars: string[] = [];
      for (let i = 0; i < 9; i++) {
        const x = -48 + i * 12;
        const h = i === 4 ? 44 : rng.int(8, 40);
        bars.push(`<path d="M${x} ${-h} V${h}"/>`);
      }
      return `<g stroke-width="7">${bars.join('')}</g>`;
    }
    case 'color_grading':
      return [
        '<g fill="#fff" fill-opacity="0.22">',
        '<circle cx="-18" cy="-12" r="32"/><circle cx="18" cy="-12" r="32"/><circle cx="0" cy="20" r="32"/>',
        '</g>',
      ].join('');
    case 'typography':
      return `<text x="0" y="30" fill="#fff" stroke="none" text-anchor="middle" font-family="Georgia, 'Times New Roman', serif" font-size="92" font-weight="700">Aa</text>`;
    case 'motion_graphics':
      return [
        '<circle cx="0" cy="0" r="13" fill="#fff" stroke="none"/>',
        '<ellipse cx="0" cy="0" rx="60" ry="22" transform="rotate(30)"/>',
        '<ellipse cx="0" cy="0" rx="60" ry="22" transform="rotate(-30)" stroke-opacity="0.7"/>',
        '<circle cx="46" cy="-30" r="6" fill="#fff" stroke="none"/>',
      ].join('');
    case 'anime_edits':
      return [
        '<path d="M0 -56 C6 -14 14 -6 56 0 C14 6 6 14 0 56 C-6 14 -14 6 -56 0 C-14 -6 -6 -14 0 -56 Z" fill="#fff" stroke="none"/>',
        '<path d="M40 -44 C42 -36 44 -34 52 -32 C44 -30 42 -28 40 -20 C38 -28 36 -30 28 -32 C36 -34 38 -36 40 -44 Z" fill="#fff" stroke="none" opacity="0.8"/>',
        '<path d="M-62 34 H-34 M-58 46 H-40" stroke-width="4" stroke-opacity="0.7"/>',
      ].join('');
    case 'premium_resources':
      return [
        '<path d="M-50 26 L-56 -28 L-24 0 L0 -42 L24 0 L56 -28 L50 26 Z" fill="#fff" fill-opacity="0.9" stroke="none"/>',
        '<path d="M-50 40 H50" stroke-width="8"/>',
      ].join('');
  }
}

function hashString(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}
