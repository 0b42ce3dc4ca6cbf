/**
 * Demo colour grades computed as 3D `.cube` LUTs: each grade is a function of an RGB colour
 * (curves, splits by luma, channel mixes), sampled on a LUT_3D_SIZE grid.
 */

export const DEMO_LUT_SIZE = 17;

type Rgb = [number, number, number];
type Grade = (c: Rgb) => Rgb;

const clamp = (v: number) => Math.min(1, Math.max(0, v));
const luma = ([r, g, b]: Rgb) => 0.2126 * r + 0.7152 * g + 0.0722 * b;
const mix = (a: Rgb, b: Rgb, t: number): Rgb => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
/** Contrast around mid grey with a smooth S (amount 0 = none). */
const sCurve = (v: number, amount: number) => {
  const s = v * v * (3 - 2 * v);
  return v + (s - v) * amount;
};
const saturate = (c: Rgb, amount: number): Rgb => mix([luma(c), luma(c), luma(c)], c, amount);
/** Lifted blacks and lowered whites: a faded print. */
const fade = (v: number, black: number, white: number) => black + v * (white - black);
const each = (c: Rgb, f: (v: number, i: number) => number): Rgb => [f(c[0], 0), f(c[1], 1), f(c[2], 2)];
/** Adds `shadows` to the shadows (weight 1 − luma) and `highlights` to the highlights (weight luma), times `amount`. */
const splitTone = (c: Rgb, shadows: Rgb, highlights: Rgb, amount: number): Rgb => {
  const l = luma(c);
  return each(c, (v, i) => v + amount * ((1 - l) * shadows[i] + l * highlights[i]));
};

export const GRADES: { name: string; grade: Grade }[] = [
  { name: 'Warm', grade: (c) => each(c, (v, i) => sCurve(v * [1.08, 1.02, 0.88][i] + [0.02, 0.01, 0][i], 0.15)) },
  { name: 'Cool', grade: (c) => each(c, (v, i) => sCurve(v * [0.9, 1.0, 1.1][i] + [0, 0.01, 0.03][i], 0.15)) },
  {
    name: 'Teal and Orange',
    grade: (c) => saturate(splitTone(each(c, (v) => sCurve(v, 0.3)), [-0.12, 0.04, 0.1], [0.12, 0.03, -0.1], 0.9), 1.15),
  },
  { name: 'Film Fade', grade: (c) => each(saturate(c, 0.8), (v, i) => fade(sCurve(v, 0.2), [0.09, 0.08, 0.1][i], [0.93, 0.92, 0.88][i])) },
  {
    name: 'Black and White',
    grade: (c) => {
      const l = sCurve(clamp(0.3 * c[0] + 0.6 * c[1] + 0.1 * c[2]), 0.35);
      return [l, l, l];
    },
  },
  { name: 'High Contrast', grade: (c) => saturate(each(c, (v) => sCurve(sCurve(v, 0.6), 0.4)), 1.1) },
  {
    name: 'Vintage',
    grade: (c) => splitTone(each(saturate(c, 0.65), (v, i) => fade(v, [0.06, 0.1, 0.05][i], [0.95, 0.9, 0.78][i])), [0, 0.05, 0.02], [0.06, 0.03, -0.04], 1),
  },
  {
    name: 'Bleach Bypass',
    grade: (c) => {
      const l = luma(c);
      return each(saturate(c, 0.45), (v) => sCurve(clamp(0.6 * v + 0.4 * l), 0.7));
    },
  },
  { name: 'Cross Process', grade: ([r, g, b]) => [sCurve(r, 0.5) * 1.05, sCurve(g, 0.3) * 1.05 + 0.02, 0.12 + b * 0.7] },
  {
    name: 'Moonlight',
    grade: (c) => {
      const d = saturate(c, 0.35);
      return each(d, (v, i) => v * [0.55, 0.7, 1.0][i] * 0.8 + [0, 0.01, 0.05][i]);
    },
  },
  { name: 'Cyberpunk', grade: (c) => saturate(splitTone(each(c, (v) => sCurve(v, 0.25)), [0, 0.08, 0.16], [0.16, -0.04, 0.12], 1), 1.2) },
  { name: 'Golden Hour', grade: (c) => splitTone(each(c, (v, i) => v * [1.06, 1.0, 0.85][i]), [0.02, 0.0, -0.03], [0.12, 0.06, -0.08], 1) },
  { name: 'Matte Green', grade: (c) => each(saturate(c, 0.8), (v, i) => fade(sCurve(v, 0.15), [0.05, 0.1, 0.07][i], [0.92, 0.97, 0.9][i])) },
  {
    name: 'Sepia',
    grade: ([r, g, b]) => [0.393 * r + 0.769 * g + 0.189 * b, 0.349 * r + 0.686 * g + 0.168 * b, 0.272 * r + 0.534 * g + 0.131 * b],
  },
];

/** The grade sampled as `.cube` text (red fastest), values clamped to 0–1. */
export function cubeText(name: string, grade: Grade, size = DEMO_LUT_SIZE): string {
  const lines = [`# Computed by Resource Vault's demo seed`, `TITLE "${name}"`, `LUT_3D_SIZE ${size}`, 'DOMAIN_MIN 0.0 0.0 0.0', 'DOMAIN_MAX 1.0 1.0 1.0'];
  for (let b = 0; b < size; b++) {
    for (let g = 0; g < size; g++) {
      for (let r = 0; r < size; r++) {
        const out = grade([r / (size - 1), g / (size - 1), b / (size - 1)]);
        lines.push(out.map((v) => clamp(v).toFixed(6)).join(' '));
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

export function demoLuts(): { name: string; file: string; data: Buffer }[] {
  return GRADES.map(({ name, grade }) => ({
    name,
    file: `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.cube`,
    data: Buffer.from(cubeText(name, grade)),
  }));
}
