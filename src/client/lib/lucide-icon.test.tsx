import * as lucide from 'lucide-react';
import { createElement, type ForwardRefExoticComponent } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import createLeanIcon from './lucide-icon';

/**
 * The built site draws every icon with lucide-icon.ts (vite.config.ts, leanIcons); this run's
 * lucide-react is lucide's own, so each icon is drawn both ways and the markup compared.
 */

type IconComponent = ForwardRefExoticComponent<lucide.LucideProps> & { render(props: object, ref: null): { props: { icon: lucide.LucideIconData } } };

/** An icon component's data, as lucide's component hands it to its renderer. */
const dataOf = (icon: IconComponent) => icon.render({}, null).props.icon;

/** Every icon lucide-react exports (each once, though it is exported under three names and its aliases). */
const ICONS = [
  ...new Set(
    Object.entries(lucide).flatMap(([name, value]) =>
      /^Lucide[A-Z]/.test(name) && typeof (value as Partial<IconComponent>).render === 'function' ? [value as IconComponent] : [],
    ),
  ),
];

const both = (icon: IconComponent, props: object) => {
  const data = dataOf(icon);
  return [renderToStaticMarkup(createElement(lucide.createLucideIcon(data), props)), renderToStaticMarkup(createElement(createLeanIcon(data), props))];
};

describe('lean lucide icons', () => {
  it('draw every lucide icon as lucide does, without and with a class', () => {
    expect(ICONS.length).toBeGreaterThan(1000);
    for (const icon of ICONS) {
      const name = icon.displayName;
      for (const props of [{}, { className: 'h-4 w-4 shrink-0' }]) {
        const [theirs, ours] = both(icon, props);
        expect(ours, `${name} ${JSON.stringify(props)}`).toBe(theirs);
      }
    }
  });

  it.each([
    ['a size, a stroke width and a colour', { size: 16, strokeWidth: 1.5, color: 'red' }],
    ['a width and a height of their own', { width: 20, height: 12 }],
    ['an absolute stroke width', { size: 48, absoluteStrokeWidth: true }],
    ['a non-scaling stroke', { nonScalingStroke: true }],
    ['a label, which shows it to assistive technology', { 'aria-label': 'Download' }],
    ['a role', { role: 'img' }],
    ['a child (a title)', { children: createElement('title', null, 'Download') }],
    ['attributes that replace the defaults', { fill: 'currentColor', stroke: 'blue', style: { opacity: 0.5 } }],
    ['a class with repeated, spaced and lucide names', { className: '  h-4  h-4 lucide lucide-download w-4 ' }],
  ])('match lucide with %s', (_, props) => {
    for (const icon of [lucide.Download, lucide.Loader2, lucide.TriangleAlert, lucide.Check] as IconComponent[]) {
      const [theirs, ours] = both(icon, props);
      expect(ours).toBe(theirs);
    }
  });

  it('give a repeated class the same answer and keep each child element once per icon', () => {
    const Lean = createLeanIcon(dataOf(lucide.Download as IconComponent));
    const render = (props: object) => (Lean as unknown as { render(props: object, ref: null): { props: { className: string; children: unknown[] } } }).render(props, null);
    const [a, b] = [render({ className: 'h-4 w-4' }), render({ className: 'h-4 w-4' })];
    expect(a.props.className).toBe('lucide lucide-download h-4 w-4');
    expect(b.props.className).toBe(a.props.className);
    expect(a.props.children[0]).toBe(b.props.children[0]);
  });
});
