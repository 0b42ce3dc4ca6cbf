import { createElement, forwardRef, type ReactElement } from 'react';
import type { LucideIcon, LucideIconData, LucideProps } from 'lucide-react';

/** A bound on the class attributes kept per icon (each a short string): past it they are merged on every render. */
const MAX_CLASS_NAMES = 32;

/**
 * lucide-react's `createLucideIcon`, as every icon of the built client and server render uses it
 * (vite.config.ts, leanIcons, puts this module in place of lucide's own): the same markup,
 * attribute for attribute, for a fraction of the work. lucide's renderer rebuilds each icon's
 * attributes, class list and child elements on every render (an object of defaults re-keyed, a Set
 * of class names, a new element per path): a sixth of a resource page's server render and a quarter
 * of its allocation, 26 icons a page. Here what never changes is built once per icon: its class
 * names, its view box and its child elements (elements are immutable, so every render shares them).
 * lucide's `LucideProvider` defaults are not read (the site sets none). Decision 461.
 */
export default function createLucideIcon(icon: LucideIconData): LucideIcon {
  const width = icon.size ?? icon.width ?? 24;
  const height = icon.size ?? icon.height ?? 24;
  const viewBox = `0 0 ${width} ${height}`;
  const names = ['lucide', ...(icon.name ? [`lucide-${icon.name}`] : []), ...(icon.aliases ?? []).filter((a) => a.trim() !== '').map((a) => `lucide-${a}`)];
  const baseClass = [...new Set(names)].join(' ');
  let paths: ReactElement[] | undefined;
  /** Class attribute by `className`: the site passes a few fixed ones per icon. */
  const classNames = new Map<string, string>();
  const classFor = (className: string) => {
    let merged = classNames.get(className);
    if (merged === undefined) {
      merged = [...new Set([...names, ...className.split(/\s+/).filter(Boolean)])].join(' ');
      if (classNames.size < MAX_CLASS_NAMES) classNames.set(className, merged);
    }
    return merged;
  };

  const Icon = forwardRef<SVGSVGElement, LucideProps>(function Icon(
    { color, size, width: w, height: h, strokeWidth, absoluteStrokeWidth, nonScalingStroke, className, children, ...rest },
    ref,
  ) {
    const stroke = strokeWidth ?? 2;
    const drawn = nonScalingStroke
      ? icon.node.map(([tag, attrs]) => createElement(tag, { vectorEffect: 'non-scaling-stroke', ...attrs }))
      : (paths ??= icon.node.map(([tag, attrs]) => createElement(tag, attrs)));
    return createElement(
      'svg',
      {
        ref,
        xmlns: 'http://www.w3.org/2000/svg',
        width: w ?? size ?? 24,
        height: h ?? size ?? 24,
        viewBox,
        fill: 'none',
        stroke: color || 'currentColor',
        strokeWidth: absoluteStrokeWidth ? (Number(stroke) * width) / Number(w ?? size ?? 24) : stroke,
        strokeLinecap: 'round',
        strokeLinejoin: 'round',
        className: className ? classFor(className) : baseClass,
        ...(children || labelled(rest) ? {} : { 'aria-hidden': 'true' }),
        ...rest,
      },
      drawn,
      children,
    );
  });
  if (icon.name) Icon.displayName = icon.name.replace(/(^|[-_\s]+)(\w)/g, (_, _sep, c: string) => c.toUpperCase());
  return Icon;
}

/** Whether the icon is named for assistive technology (an aria-* attribute, a role or a title), so it is not hidden from it. */
function labelled(props: Record<string, unknown>): boolean {
  for (const name in props) {
    if ((name.startsWith('aria-') || name === 'role' || name === 'title') && props[name] != null) return true;
  }
  return false;
}
