/**
 * The one place for categories: database values, URL slugs, titles, descriptions, tags and
 * colours. Server (validation, seed, counts) and client (pages, admin) both read from here.
 */

export const CATEGORY_VALUES = [
  'video_editing',
  'photo_editing',
  'sound_effects',
  'color_grading',
  'typography',
  'motion_graphics',
  'anime_edits',
  'premium_resources',
] as const;

export type CategoryValue = (typeof CATEGORY_VALUES)[number];

export interface CategoryInfo {
  value: CategoryValue;
  slug: string;
  title: string;
  /** Public home card / category page description. */
  description: string;
  /** Admin dashboard description (spec section 3). */
  adminDescription: string;
  tags: readonly string[];
  /** Tailwind gradient stops for the card and page header. */
  gradient: string;
  /** Shown on the home page's 'Browse Categories' grid and has a public category page. */
  isPublic: boolean;
}

export const CATEGORIES: readonly CategoryInfo[] = [
  {
    value: 'video_editing',
    slug: 'video-editing',
    title: 'Video Editing',
    description: 'Transitions, LUTs, templates and effects to make every cut cinematic.',
    adminDescription: 'Professional video editing assets',
    tags: ['Transitions', 'Effects', 'LUTs', 'Templates', 'Titles', 'Motion', 'Cinematic', 'Commercial'],
    gradient: 'from-violet-600 to-indigo-600',
    isPublic: true,
  },
  {
    value: 'photo_editing',
    slug: 'photo-editing',
    title: 'Photo Editing',
    description: 'Presets and actions for portraits, landscapes and every mood in between.',
    adminDescription: 'High-quality photo editing resources',
    tags: ['Portrait', 'Landscape', 'Film', 'Black & White', 'HDR', 'Vintage', 'Modern', 'Nature', 'Urban'],
    gradient: 'from-pink-600 to-rose-600',
    isPublic: true,
  },
  {
    value: 'sound_effects',
    slug: 'sound-effects',
    title: 'Sound Effects',
    description: 'Whooshes, impacts, ambiences and UI sounds that make edits feel alive.',
    adminDescription: 'Premium sound effects library',
    tags: ['Transitions', 'Impacts', 'Whoosh', 'UI Sounds', 'Ambient', 'Foley', 'Music', 'Nature'],
    gradient: 'from-amber-500 to-orange-600',
    isPublic: true,
  },
  {
    value: 'color_grading',
    slug: 'color-grading',
    title: 'Color Grading',
    description: 'LUTs and grading presets for a consistent, cinematic look.',
    adminDescription: 'Professional color grading presets',
    tags: ['Cinematic', 'Film', 'Vintage', 'Modern', 'Moody', 'Bright', 'Warm', 'Cool'],
    gradient: 'from-teal-500 to-cyan-600',
    isPublic: true,
  },
  {
    value: 'typography',
    slug: 'typography',
    title: 'Typography',
    description: 'Fonts and type packs for titles, brands and lower thirds.',
    adminDescription: 'Beautiful fonts and typography',
    tags: ['Fonts', 'Sans-Serif', 'Serif', 'Script', 'Display', 'Minimal', 'Vintage', 'Brand', 'Geometric'],
    gradient: 'from-slate-600 to-zinc-700',
    isPublic: true,
  },
  {
    value: 'motion_graphics',
    slug: 'motion-graphics',
    title: 'Motion Graphics',
    description: 'Logo reveals, particles, elements and backgrounds ready to drop in.',
    adminDescription: 'Dynamic motion graphics templates',
    tags: ['Logo Animation', 'Particles', 'Titles', 'Transitions', 'Elements', 'Backgrounds', 'Infographics', 'VFX'],
    gradient: 'from-blue-600 to-sky-500',
    isPublic: true,
  },
  {
    value: 'anime_edits',
    slug: 'anime-edits',
    title: 'Anime Edits',
    description: 'AMV packs, sakuga overlays, shakes and flashes for anime edits.',
    adminDescription: 'Anime edit packs and overlays',
    tags: ['AMV', 'Transitions', 'Overlays', 'Presets', 'Sakuga', 'Typography', 'Shakes', 'Flashes'],
    gradient: 'from-fuchsia-600 to-purple-700',
    isPublic: true,
  },
  {
    value: 'premium_resources',
    slug: 'premium-resources',
    title: 'Premium Resources',
    description: 'Exclusive high-quality resources curated for premium members',
    adminDescription: 'Exclusive premium content',
    tags: ['Premium', 'Bundle', 'Pack', 'Exclusive'],
    gradient: 'from-yellow-500 to-amber-600',
    isPublic: false,
  },
];

const BY_VALUE = new Map(CATEGORIES.map((c) => [c.value, c]));
const BY_SLUG = new Map(CATEGORIES.map((c) => [c.slug, c]));

export const PUBLIC_CATEGORIES = CATEGORIES.filter((c) => c.isPublic);

/** The 7 categories on the admin dashboard (spec section 3: no anime_edits there; we add it so every category is reachable). */
export const ADMIN_CATEGORIES = CATEGORIES;

export function isCategoryValue(v: string): v is CategoryValue {
  return BY_VALUE.has(v as CategoryValue);
}

export function getCategory(value: CategoryValue): CategoryInfo {
  const info = BY_VALUE.get(value);
  if (!info) throw new Error(`unknown category ${value}`);
  return info;
}

/** Accepts a value (`video_editing`) or a slug (`video-editing`); undefined when neither. */
export function parseCategory(input: string): CategoryValue | undefined {
  if (isCategoryValue(input)) return input;
  return BY_SLUG.get(input)?.value;
}

export function categoryToSlug(value: CategoryValue): string {
  return getCategory(value).slug;
}

export function slugToCategory(slug: string): CategoryValue | undefined {
  return BY_SLUG.get(slug)?.value;
}

/** 'premium_resources' → 'Premium Resources' (spec: underscores to spaces, words capitalised). */
export function formatCategoryTitle(value: string): string {
  return value
    .split('_')
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

/** Exact counts of the demo content (spec section 3), premium extra. */
export const DEMO_CATEGORY_COUNTS: Record<CategoryValue, number> = {
  video_editing: 234,
  photo_editing: 189,
  sound_effects: 156,
  color_grading: 98,
  typography: 145,
  motion_graphics: 167,
  anime_edits: 145,
  premium_resources: 12,
};
