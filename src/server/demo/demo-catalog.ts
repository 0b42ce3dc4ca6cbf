import type { CategoryValue } from '../../contract/categories';
import type { DemoFontFamily } from './media/fonts';

/**
 * Vocabulary for the demo content. Titles are `{style} {subject}`, descriptions fill the
 * subject's blurb and add a category benefit and a general note. Every tag here must be in
 * its category's list in src/contract/categories.ts (the seed test checks it).
 */
export interface DemoSubject {
  name: string;
  tags: readonly string[];
  /** `{n}` a count from `range`, `{style}` the lower-cased style, `{app}` one or two tools. */
  blurb: string;
  range: readonly [number, number];
  /** Typography: the demo font that draws this subject, the preview of its resources (decision 373). */
  face?: DemoFontFamily;
}

export interface DemoVocabulary {
  styles: readonly string[];
  subjects: readonly DemoSubject[];
  apps: readonly string[];
  benefits: readonly string[];
  fileExtension: string;
}

type PublicCategory = Exclude<CategoryValue, 'premium_resources'>;

export const DEMO_VOCABULARY: Record<PublicCategory, DemoVocabulary> = {
  video_editing: {
    styles: ['Cinematic', 'Smooth', 'Dynamic', 'Retro', 'Minimal', 'Neon', 'Urban', 'Epic', 'Clean', 'Modern', 'Vintage', 'Bold'],
    subjects: [
      { name: 'Glitch Transitions', tags: ['Transitions', 'Effects'], blurb: '{n} {style} glitch transitions for {app}', range: [20, 80] },
      { name: 'Zoom Transitions', tags: ['Transitions', 'Motion'], blurb: '{n} {style} zoom and punch-in transitions for {app}', range: [16, 60] },
      { name: 'Seamless Transitions', tags: ['Transitions'], blurb: '{n} {style} seamless transitions that hide every cut in {app}', range: [30, 120] },
      { name: 'Film LUTs', tags: ['LUTs', 'Cinematic'], blurb: '{n} {style} film-look LUTs for {app}', range: [12, 50] },
      { name: 'Title Templates', tags: ['Titles', 'Templates'], blurb: '{n} {style} animated title templates for {app}', range: [10, 40] },
      { name: 'Lower Thirds', tags: ['Titles', 'Templates', 'Commercial'], blurb: '{n} {style} lower thirds for interviews and promos in {app}', range: [12, 48] },
      { name: 'Light Leaks', tags: ['Effects', 'Cinematic'], blurb: '{n} {style} light leaks and lens flares shot on real film', range: [15, 60] },
      { name: 'Speed Ramp Presets', tags: ['Motion', 'Effects'], blurb: '{n} {style} speed ramp presets for {app}', range: [8, 30] },
      { name: 'Camera Shake Presets', tags: ['Motion', 'Effects'], blurb: '{n} {style} camera shake presets for {app}', range: [10, 40] },
      { name: 'Promo Templates', tags: ['Templates', 'Commercial'], blurb: '{n} {style} promo templates for product launches in {app}', range: [5, 20] },
      { name: 'Film Burns', tags: ['Effects', 'Cinematic'], blurb: '{n} {style} film burn overlays in 4K', range: [12, 45] },
      { name: 'Social Media Templates', tags: ['Templates', 'Commercial'], blurb: '{n} {style} vertical templates for Reels, Shorts and TikTok in {app}', range: [10, 36] },
      { name: 'Intro Openers', tags: ['Titles', 'Templates', 'Motion'], blurb: '{n} {style} intro openers for {app}', range: [6, 24] },
      { name: 'Letterbox Bars', tags: ['Cinematic'], blurb: '{n} {style} letterbox overlays for every aspect ratio', range: [8, 20] },
    ],
    apps: ['Premiere Pro', 'After Effects', 'DaVinci Resolve', 'Final Cut Pro', 'CapCut'],
    benefits: [
      'Drag and drop onto your timeline, no plugins required.',
      'Every preset is fully adjustable and works at any frame rate.',
      'Built on adjustment layers so they never touch your footage.',
      'Tested on 24, 30 and 60 fps projects.',
    ],
    fileExtension: 'zip',
  },
  photo_editing: {
    styles: ['Moody', 'Airy', 'Golden Hour', 'Matte', 'Clean', 'Cinematic', 'Dreamy', 'Crisp', 'Faded', 'Rich', 'Soft', 'Editorial'],
    subjects: [
      { name: 'Portrait Presets', tags: ['Portrait', 'Modern'], blurb: '{n} {style} portrait presets for {app}', range: [8, 30] },
      { name: 'Landscape Presets', tags: ['Landscape', 'Nature'], blurb: '{n} {style} landscape presets for {app}', range: [8, 30] },
      { name: 'Film Presets', tags: ['Film', 'Vintage'], blurb: '{n} {style} film emulation presets for {app}', range: [10, 36] },
      { name: 'Black & White Presets', tags: ['Black & White', 'Film'], blurb: '{n} {style} black and white presets for {app}', range: [8, 24] },
      { name: 'HDR Actions', tags: ['HDR', 'Landscape'], blurb: '{n} {style} HDR actions for {app}', range: [6, 20] },
      { name: 'Street Presets', tags: ['Urban', 'Modern'], blurb: '{n} {style} street photography presets for {app}', range: [8, 26] },
      { name: 'Wedding Presets', tags: ['Portrait', 'Film'], blurb: '{n} {style} wedding presets for {app}', range: [10, 40] },
      { name: 'Nature Presets', tags: ['Nature', 'Landscape'], blurb: '{n} {style} presets for forests, mountains and coastlines in {app}', range: [8, 30] },
      { name: 'Vintage Actions', tags: ['Vintage', 'Film'], blurb: '{n} {style} vintage actions with dust and grain for {app}', range: [6, 24] },
      { name: 'City Night Presets', tags: ['Urban', 'HDR'], blurb: '{n} {style} night city presets for {app}', range: [6, 20] },
      { name: 'Skin Retouch Actions', tags: ['Portrait'], blurb: '{n} {style} skin retouching actions for {app}', range: [5, 15] },
      { name: 'Travel Presets', tags: ['Landscape', 'Urban', 'Nature'], blurb: '{n} {style} travel presets for {app}', range: [10, 40] },
    ],
    apps: ['Lightroom', 'Lightroom Mobile', 'Photoshop', 'Capture One', 'Camera Raw'],
    benefits: [
      'One-click looks with adjustable strength.',
      'Works with RAW and JPEG files.',
      'Each preset comes with before and after samples.',
      'Designed to keep natural skin tones.',
    ],
    fileExtension: 'zip',
  },
  sound_effects: {
    styles: ['Cinematic', 'Punchy', 'Deep', 'Crisp', 'Organic', 'Sci-Fi', 'Retro', 'Subtle', 'Heavy', 'Airy', 'Glitchy', 'Warm'],
    subjects: [
      { name: 'Whoosh Pack', tags: ['Whoosh', 'Transitions'], blurb: '{n} {style} whooshes and swishes for fast cuts', range: [40, 200] },
      { name: 'Impact Hits', tags: ['Impacts'], blurb: '{n} {style} impacts, hits and booms for trailers', range: [30, 150] },
      { name: 'Transition Risers', tags: ['Transitions', 'Whoosh'], blurb: '{n} {style} risers and downlifters for transitions', range: [25, 90] },
      { name: 'UI Sounds', tags: ['UI Sounds'], blurb: '{n} {style} clicks, pops and notification sounds for apps and motion design', range: [50, 250] },
      { name: 'Ambience Library', tags: ['Ambient', 'Nature'], blurb: '{n} {style} ambience loops recorded in the field', range: [20, 80] },
      { name: 'Foley Collection', tags: ['Foley'], blurb: '{n} {style} foley recordings: footsteps, cloth, doors and props', range: [60, 300] },
      { name: 'Music Stingers', tags: ['Music', 'Transitions'], blurb: '{n} {style} music stingers and logo sounds', range: [20, 80] },
      { name: 'Nature Sounds', tags: ['Nature', 'Ambient'], blurb: '{n} {style} nature recordings: rain, wind, birds and water', range: [30, 120] },
      { name: 'Glitch Sounds', tags: ['UI Sounds', 'Transitions'], blurb: '{n} {style} glitch and data sounds', range: [40, 160] },
      { name: 'Cinematic Booms', tags: ['Impacts', 'Music'], blurb: '{n} {style} booms and braams for trailers', range: [20, 70] },
      { name: 'Room Tones', tags: ['Ambient', 'Foley'], blurb: '{n} {style} room tones for clean dialogue edits', range: [15, 50] },
    ],
    apps: ['any editor', 'Premiere Pro', 'DaVinci Resolve', 'Final Cut Pro', 'Logic Pro', 'Ableton Live'],
    benefits: [
      '24-bit/48 kHz WAV files, named and tagged for quick search.',
      'Loudness-matched and ready to drop into {app}.',
      'Royalty-free for YouTube, client work and games.',
      'Includes a searchable metadata sheet.',
    ],
    fileExtension: 'zip',
  },
  color_grading: {
    styles: ['Teal & Orange', 'Moody', 'Bright', 'Warm', 'Cool', 'Faded', 'Kodak-Inspired', 'Bleach Bypass', 'Pastel', 'Noir', 'Desert', 'Arctic'],
    subjects: [
      { name: 'Cinematic LUTs', tags: ['Cinematic', 'Modern'], blurb: '{n} {style} cinematic LUTs for {app}', range: [10, 40] },
      { name: 'Film Emulation LUTs', tags: ['Film', 'Vintage'], blurb: '{n} {style} film emulation LUTs for {app}', range: [8, 30] },
      { name: 'Log to Rec.709 LUTs', tags: ['Modern', 'Bright'], blurb: '{n} {style} conversion LUTs from S-Log, V-Log and C-Log for {app}', range: [6, 24] },
      { name: 'Grading Presets', tags: ['Cinematic', 'Moody'], blurb: '{n} {style} grading presets for {app}', range: [8, 30] },
      { name: 'Vintage Looks', tags: ['Vintage', 'Warm'], blurb: '{n} {style} vintage looks for {app}', range: [6, 20] },
      { name: 'Night Grades', tags: ['Moody', 'Cool'], blurb: '{n} {style} night and neon grades for {app}', range: [6, 20] },
      { name: 'Summer Looks', tags: ['Bright', 'Warm'], blurb: '{n} {style} summer looks for travel films in {app}', range: [8, 24] },
      { name: 'Wedding LUTs', tags: ['Bright', 'Film'], blurb: '{n} {style} wedding LUTs for {app}', range: [10, 30] },
      { name: 'Drone LUTs', tags: ['Cinematic', 'Cool'], blurb: '{n} {style} LUTs made for drone footage in {app}', range: [6, 18] },
      { name: 'Skin Tone LUTs', tags: ['Warm', 'Modern'], blurb: '{n} {style} LUTs that protect skin tones in {app}', range: [6, 20] },
    ],
    apps: ['DaVinci Resolve', 'Premiere Pro', 'Final Cut Pro', 'After Effects', 'LumaFusion'],
    benefits: [
      'Supplied as .cube files in 33 and 65 point sizes.',
      'Graded on real footage from Sony, Canon and Blackmagic cameras.',
      'Stack them with your own correction node for full control.',
      'Includes a guide to applying LUTs in {app}.',
    ],
    fileExtension: 'zip',
  },
  typography: {
    styles: ['Neue', 'Grand', 'Nova', 'Atlas', 'Lumen', 'Vesper', 'Orbit', 'Marlow', 'Sable', 'Kinetic', 'Halcyon', 'Rosa'],
    subjects: [
      // Each subject is drawn in the one demo font that looks like it (decision 373): its preview.
      { name: 'Condensed', face: 'Bebas Neue', tags: ['Fonts', 'Sans-Serif', 'Display'], blurb: 'A tall condensed all-caps sans with {n} glyphs for titles and lower thirds', range: [200, 420] },
      { name: 'Script', face: 'Pacifico', tags: ['Fonts', 'Script'], blurb: 'A flowing brush script with {n} alternates and ligatures', range: [60, 240] },
      { name: 'Bold Script', face: 'Lobster', tags: ['Fonts', 'Script', 'Display'], blurb: 'A bold connected script with {n} ligatures for logos and headlines', range: [120, 320] },
      { name: 'Fatface', face: 'Abril Fatface', tags: ['Fonts', 'Serif', 'Display'], blurb: 'A high-contrast fat face with {n} glyphs for posters and thumbnails', range: [200, 600] },
      { name: 'Pixel', face: 'Press Start 2P', tags: ['Fonts', 'Display', 'Vintage'], blurb: 'A monospaced 8-bit pixel font with {n} glyphs for game and retro titles', range: [150, 300] },
      { name: 'Serif', face: 'DM Serif Display', tags: ['Fonts', 'Serif'], blurb: 'An elegant high-contrast serif with {n} glyphs for editorial titles', range: [200, 500] },
      { name: 'Grotesk', face: 'Anton', tags: ['Fonts', 'Sans-Serif', 'Brand'], blurb: 'A heavy condensed grotesk with {n} glyphs built for brand identities', range: [200, 500] },
      { name: 'Geometric', face: 'Righteous', tags: ['Fonts', 'Geometric', 'Display'], blurb: 'A rounded geometric display face with {n} glyphs', range: [150, 350] },
      { name: 'Retro', face: 'Monoton', tags: ['Fonts', 'Vintage', 'Display'], blurb: 'A 70s-inspired neon-line retro face with {n} glyphs', range: [180, 420] },
      { name: 'Signage', face: 'Bungee', tags: ['Fonts', 'Display', 'Geometric'], blurb: 'A blocky signage display font with {n} glyphs for bold titles', range: [150, 400] },
      { name: 'Slab', face: 'Alfa Slab One', tags: ['Fonts', 'Serif', 'Brand'], blurb: 'A sturdy heavy slab serif with {n} glyphs', range: [150, 350] },
      { name: 'Mono', face: 'VT323', tags: ['Fonts', 'Minimal'], blurb: 'A monospaced terminal font with {n} glyphs for tech and UI titles', range: [100, 250] },
    ],
    apps: ['any app', 'Premiere Pro', 'After Effects', 'Photoshop', 'Canva', 'Figma'],
    benefits: [
      'OTF, TTF and WOFF2 files with full Latin support.',
      'Includes multilingual glyphs and tabular figures.',
      'Licensed for personal and commercial video projects.',
      'Variable font version included.',
    ],
    fileExtension: 'zip',
  },
  motion_graphics: {
    styles: ['Dynamic', 'Minimal', 'Glitch', 'Liquid', 'Neon', 'Corporate', 'Hand-Drawn', 'Futuristic', '3D', 'Flat', 'Organic', 'Kinetic'],
    subjects: [
      { name: 'Logo Reveals', tags: ['Logo Animation'], blurb: '{n} {style} logo reveals for {app}', range: [5, 20] },
      { name: 'Particle Effects', tags: ['Particles', 'VFX'], blurb: '{n} {style} particle effects for {app}', range: [20, 80] },
      { name: 'Title Animations', tags: ['Titles'], blurb: '{n} {style} animated titles for {app}', range: [15, 60] },
      { name: 'Shape Transitions', tags: ['Transitions', 'Elements'], blurb: '{n} {style} shape transitions for {app}', range: [20, 70] },
      { name: 'Animated Elements', tags: ['Elements'], blurb: '{n} {style} animated elements: arrows, callouts and icons', range: [40, 200] },
      { name: 'Looping Backgrounds', tags: ['Backgrounds'], blurb: '{n} {style} seamless looping backgrounds in 4K', range: [10, 40] },
      { name: 'Infographic Kit', tags: ['Infographics', 'Elements'], blurb: '{n} {style} charts, maps and counters for {app}', range: [30, 120] },
      { name: 'VFX Elements', tags: ['VFX', 'Particles'], blurb: '{n} {style} VFX elements: energy, smoke and sparks', range: [20, 90] },
      { name: 'Callout Titles', tags: ['Titles', 'Elements'], blurb: '{n} {style} callout titles for tutorials in {app}', range: [15, 50] },
      { name: 'Liquid Transitions', tags: ['Transitions', 'Elements'], blurb: '{n} {style} liquid transitions for {app}', range: [15, 50] },
      { name: 'Social Logo Stings', tags: ['Logo Animation', 'Titles'], blurb: '{n} {style} logo stings sized for social platforms', range: [6, 24] },
    ],
    apps: ['After Effects', 'Premiere Pro', 'DaVinci Resolve', 'Final Cut Pro', 'Apple Motion'],
    benefits: [
      'No plugins needed; colours and timing are set from one control layer.',
      'Rendered alpha-channel versions included for any editor.',
      'Resolution independent up to 4K.',
      'Every element has a clean in and out animation.',
    ],
    fileExtension: 'zip',
  },
  anime_edits: {
    styles: ['Sakuga', 'Shonen', 'Lo-Fi', 'Vaporwave', 'Hype', 'Soft', 'Manga', 'Neon', 'Chill', 'Hyper', 'Cel-Shaded', 'Twixtor'],
    subjects: [
      { name: 'AMV Transitions', tags: ['AMV', 'Transitions'], blurb: '{n} {style} AMV transitions for {app}', range: [20, 80] },
      { name: 'Shake Presets', tags: ['Shakes', 'Presets'], blurb: '{n} {style} shake presets that hit on the beat in {app}', range: [15, 60] },
      { name: 'Flash Overlays', tags: ['Flashes', 'Overlays'], blurb: '{n} {style} flash and strobe overlays', range: [20, 70] },
      { name: 'Sakuga Overlays', tags: ['Sakuga', 'Overlays'], blurb: '{n} {style} hand-drawn sakuga overlays: speed lines, impact frames and smears', range: [25, 90] },
      { name: 'Color Presets', tags: ['Presets', 'AMV'], blurb: '{n} {style} color presets for anime clips in {app}', range: [10, 40] },
      { name: 'Text Animations', tags: ['Typography', 'AMV'], blurb: '{n} {style} lyric and text animations for {app}', range: [12, 48] },
      { name: 'Speed Lines', tags: ['Overlays', 'Sakuga'], blurb: '{n} {style} manga speed line overlays', range: [20, 60] },
      { name: 'Velocity Presets', tags: ['Presets', 'Transitions'], blurb: '{n} {style} velocity and time-remap presets for {app}', range: [10, 40] },
      { name: 'Impact Frames', tags: ['Flashes', 'Sakuga'], blurb: '{n} {style} impact frames for fight scenes', range: [15, 50] },
      { name: 'Starter Pack', tags: ['AMV', 'Presets', 'Overlays'], blurb: '{n} {style} essentials for your first AMV in {app}', range: [30, 100] },
    ],
    apps: ['After Effects', 'Alight Motion', 'CapCut', 'Premiere Pro', 'Video Star'],
    benefits: [
      'Beat-synced and easy to retime.',
      'Works on 24 fps anime footage without stutter.',
      'Alpha-channel overlays, just set the blend mode to Screen.',
      'Includes a project file showing every effect in use.',
    ],
    fileExtension: 'zip',
  },
};

export const COMMON_EXTRAS = [
  'Free for personal and commercial projects.',
  'Comes with a quick-start guide.',
  'Updated with new additions every few months.',
  'Lifetime updates included.',
  'No attribution required.',
  'Made by working editors and tested on real projects.',
] as const;

/** The premium demo items: few, so written out in full. */
export const PREMIUM_ITEMS: readonly { title: string; description: string; tags: readonly string[] }[] = [
  { title: 'Ultimate Creator Bundle', description: 'Everything in one download: 1,200 transitions, 300 LUTs, 900 sound effects and 60 title templates, organised by project type.', tags: ['Premium', 'Bundle', 'Exclusive'] },
  { title: 'Cinematic Colorist Pack', description: '120 hand-built film LUTs with matching Resolve power grades, graded on ARRI, RED and Sony footage.', tags: ['Premium', 'Pack'] },
  { title: 'Pro Sound Design Library', description: '2,500 sound effects recorded at 96 kHz: impacts, whooshes, foley and ambiences with full metadata.', tags: ['Premium', 'Bundle'] },
  { title: 'Anime Editor Master Kit', description: 'Sakuga overlays, shakes, flashes and 80 AMV transitions with a beat-synced project template.', tags: ['Premium', 'Pack', 'Exclusive'] },
  { title: 'Motion Design Toolkit', description: '600 animated elements, 40 logo reveals and 25 looping backgrounds controlled from one panel.', tags: ['Premium', 'Bundle'] },
  { title: 'Signature Font Collection', description: '24 display, script and sans families licensed for client work, with variable versions.', tags: ['Premium', 'Pack'] },
  { title: 'Wedding Filmmaker Suite', description: 'LUTs, titles, romantic transitions and soft light leaks made for wedding films.', tags: ['Premium', 'Bundle', 'Exclusive'] },
  { title: 'YouTube Growth Pack', description: 'Thumbnails, intros, subscribe animations and end screens designed to keep viewers watching.', tags: ['Premium', 'Pack'] },
  { title: 'Film Emulation Master Set', description: 'Faithful emulations of 30 classic film stocks for photo and video, with grain overlays.', tags: ['Premium', 'Exclusive'] },
  { title: 'Trailer Impact Collection', description: '500 braams, risers, hits and drones for trailers, mixed and mastered for the big screen.', tags: ['Premium', 'Pack'] },
  { title: 'Social Media Mega Bundle', description: '350 vertical templates for Reels, Shorts and TikTok with captions and sound cues.', tags: ['Premium', 'Bundle'] },
  { title: 'Documentary Essentials', description: 'Interview lower thirds, archival film textures, maps and subtle ambiences for documentaries.', tags: ['Premium', 'Pack', 'Exclusive'] },
];

export const DEMO_ANNOUNCEMENTS: readonly { message: string; daysAgo: number }[] = [
  { message: 'Welcome! New resources are added every week. Check the categories for the latest packs.', daysAgo: 21 },
  { message: 'New category: Anime Edits, with AMV transitions, sakuga overlays, shakes and flashes.', daysAgo: 6 },
  { message: 'Premium bundles are free to download this month. Grab them while they last!', daysAgo: 1 },
];
