import { APP_IDS, APP_LABELS, type AppId } from '@contract/apps';
import { ORIENTATIONS, type Orientation } from '@contract/facts';
import { formatNumber } from '@/lib/format';
import { DURATION_BUCKETS, DURATION_FILTER_MAX, type FacetCount, FORMAT_PATTERN, MIN_HEIGHTS, type MinHeight, type ResourceFacets } from '@contract/resources';

/**
 * The list's filters by what the files are (issue 33), in the URL under the API's own names
 * (`?app=after-effects&duration_max=15`), so a page's URL and its list request say the same thing.
 * A value the API would refuse is left out (the page shows the list without it, never an error).
 */
export interface FactFilters {
  app?: AppId;
  format?: string;
  duration_min?: number;
  duration_max?: number;
  orientation?: Orientation;
  min_height?: MinHeight;
}

export const FACT_KEYS = ['app', 'format', 'duration_min', 'duration_max', 'orientation', 'min_height'] as const satisfies readonly (keyof FactFilters)[];

function seconds(v: string | null): number | undefined {
  if (v === null || !/^[0-9]{1,6}$/.test(v)) return undefined;
  const n = Number(v);
  return n <= DURATION_FILTER_MAX ? n : undefined;
}

export function factsFromParams(params: URLSearchParams): FactFilters {
  const facts: FactFilters = {};
  const app = params.get('app');
  if (app && (APP_IDS as readonly string[]).includes(app)) facts.app = app as AppId;
  const format = params.get('format')?.toLowerCase().replace(/^\./, '');
  if (format && FORMAT_PATTERN.test(format)) facts.format = format;
  const min = seconds(params.get('duration_min'));
  // 0 is no lower bound: left out, so `?duration_min=0&duration_max=15` and `?duration_max=15` are one view.
  if (min) facts.duration_min = min;
  const max = seconds(params.get('duration_max'));
  if (max !== undefined) facts.duration_max = max;
  const orientation = params.get('orientation');
  if (orientation && (ORIENTATIONS as readonly string[]).includes(orientation)) facts.orientation = orientation as Orientation;
  const height = Number(params.get('min_height'));
  if ((MIN_HEIGHTS as readonly number[]).includes(height)) facts.min_height = height as MinHeight;
  return facts;
}

/** Writes `facts` into `params` (every fact key replaced). */
export function writeFacts(params: URLSearchParams, facts: FactFilters) {
  for (const key of FACT_KEYS) {
    const v = facts[key];
    if (v === undefined) params.delete(key);
    else params.set(key, String(v));
  }
}

export const hasFacts = (facts: FactFilters) => FACT_KEYS.some((k) => facts[k] !== undefined);

export type DurationBucket = (typeof DURATION_BUCKETS)[number];

/** The bucket whose bounds the duration filter has, if any (a hand-written URL may have others). */
export function durationBucketOf(facts: FactFilters): DurationBucket | undefined {
  if (facts.duration_min === undefined && facts.duration_max === undefined) return undefined;
  return DURATION_BUCKETS.find((b) => (b.min === 0 ? facts.duration_min === undefined : facts.duration_min === b.min) && (b.max ?? undefined) === facts.duration_max);
}

export function durationOfBucket(id: string | undefined): Pick<FactFilters, 'duration_min' | 'duration_max'> {
  const b = DURATION_BUCKETS.find((x) => x.id === id);
  return { duration_min: b && b.min > 0 ? b.min : undefined, duration_max: b?.max ?? undefined };
}

export const ORIENTATION_LABELS: Record<Orientation, string> = { landscape: 'Landscape', portrait: 'Portrait', square: 'Square' };
export const MIN_HEIGHT_LABELS: Record<MinHeight, string> = { 720: '720p', 1080: '1080p', 2160: '4K' };

const secondsLabel = (s: number) => (s % 60 === 0 && s >= 60 ? `${s / 60} min` : `${s} s`);

/** What a hand-written duration range reads as. */
function durationLabel(facts: FactFilters): string {
  const bucket = durationBucketOf(facts);
  if (bucket) return bucket.label;
  const { duration_min: min, duration_max: max } = facts;
  if (min !== undefined && max !== undefined) return `${secondsLabel(min)} – ${secondsLabel(max)}`;
  return min !== undefined ? `${secondsLabel(min)} or longer` : `Under ${secondsLabel(max!)}`;
}

/** One facet as the page offers it: a select of values, each with its count. */
export interface FacetControl {
  /** The facet's name (`duration` stands for duration_min/duration_max). */
  key: 'app' | 'format' | 'duration' | 'orientation' | 'min_height';
  label: string;
  /** The select's first option. */
  anyLabel: string;
  /** The chosen value ('' for none). */
  value: string;
  options: { value: string; label: string; count?: number }[];
  /** What choosing `value` sets in the URL. */
  choose(value: string): FactFilters;
}

export const FACET_CHIP_LABELS: Record<FacetControl['key'], string> = {
  app: 'App',
  format: 'Format',
  duration: 'Duration',
  orientation: 'Orientation',
  min_height: 'Resolution',
};

/**
 * The selects of the filter bar: with facets, the values the current results have (zero ones are
 * left out by the server) and the chosen one even if none; without facets (the answer has not come,
 * or a server without them), every known value without a count. A facet with nothing to offer has no options.
 */
export function facetControls(facts: FactFilters, facets: ResourceFacets | undefined): FacetControl[] {
  const counted = (list: FacetCount[] | undefined, known: readonly string[], chosen: string) => {
    const counts = list ? new Map(list.map((f) => [f.value, f.count])) : undefined;
    const values = counts ? [...counts.keys()] : [...known];
    if (chosen && !values.includes(chosen)) values.push(chosen);
    return values.map((v) => ({ value: v, count: counts?.get(v) }));
  };
  const bucket = durationBucketOf(facts);
  const durationValue = bucket?.id ?? (facts.duration_min !== undefined || facts.duration_max !== undefined ? 'custom' : '');
  const controls: FacetControl[] = [
    {
      key: 'app',
      label: 'App',
      anyLabel: 'Any app',
      value: facts.app ?? '',
      options: counted(facets?.app, APP_IDS, facts.app ?? '').map((o) => ({ ...o, label: APP_LABELS[o.value as AppId] ?? o.value })),
      choose: (v) => ({ ...facts, app: (v || undefined) as AppId | undefined }),
    },
    {
      key: 'format',
      label: 'Format',
      anyLabel: 'Any format',
      value: facts.format ?? '',
      options: counted(facets?.format, [], facts.format ?? '').map((o) => ({ ...o, label: `.${o.value}` })),
      choose: (v) => ({ ...facts, format: v || undefined }),
    },
    {
      key: 'duration',
      label: 'Duration',
      anyLabel: 'Any duration',
      value: durationValue,
      options: [
        ...counted(
          facets?.duration,
          DURATION_BUCKETS.map((b) => b.id),
          bucket?.id ?? '',
        ).map((o) => ({ ...o, label: DURATION_BUCKETS.find((b) => b.id === o.value)?.label ?? o.value })),
        ...(durationValue === 'custom' ? [{ value: 'custom', label: durationLabel(facts) }] : []),
      ],
      choose: (v) => (v === 'custom' ? facts : { ...facts, ...durationOfBucket(v) }),
    },
    {
      key: 'orientation',
      label: 'Orientation',
      anyLabel: 'Any orientation',
      value: facts.orientation ?? '',
      options: counted(facets?.orientation, ORIENTATIONS, facts.orientation ?? '').map((o) => ({ ...o, label: ORIENTATION_LABELS[o.value as Orientation] ?? o.value })),
      choose: (v) => ({ ...facts, orientation: (v || undefined) as Orientation | undefined }),
    },
    {
      key: 'min_height',
      label: 'Minimum resolution',
      anyLabel: 'Any resolution',
      value: facts.min_height === undefined ? '' : String(facts.min_height),
      options: counted(
        facets?.min_height,
        MIN_HEIGHTS.map(String),
        facts.min_height === undefined ? '' : String(facts.min_height),
      ).map((o) => ({ ...o, label: `${MIN_HEIGHT_LABELS[Number(o.value) as MinHeight] ?? `${o.value}p`} or higher` })),
      choose: (v) => ({ ...facts, min_height: v ? (Number(v) as MinHeight) : undefined }),
    },
  ];
  // Every facet keeps its select (disabled with nothing to offer): the bar keeps its height when the
  // counts arrive, so the cards below do not move.
  return controls;
}

/** A chosen filter as a removable chip. */
export interface FactChip {
  key: FacetControl['key'];
  label: string;
  remove: FactFilters;
}

export function factChips(facts: FactFilters): FactChip[] {
  const chips: FactChip[] = [];
  if (facts.app) chips.push({ key: 'app', label: APP_LABELS[facts.app], remove: { ...facts, app: undefined } });
  if (facts.format) chips.push({ key: 'format', label: `.${facts.format}`, remove: { ...facts, format: undefined } });
  if (facts.duration_min !== undefined || facts.duration_max !== undefined)
    chips.push({ key: 'duration', label: durationLabel(facts), remove: { ...facts, duration_min: undefined, duration_max: undefined } });
  if (facts.orientation) chips.push({ key: 'orientation', label: ORIENTATION_LABELS[facts.orientation], remove: { ...facts, orientation: undefined } });
  if (facts.min_height) chips.push({ key: 'min_height', label: `${MIN_HEIGHT_LABELS[facts.min_height]} or higher`, remove: { ...facts, min_height: undefined } });
  return chips;
}

/**
 * A facet count as shown: the number, or "N+" where the server counted only part of a broad
 * search's matches (docs/decisions/450-filters-in-the-url-counts-with-a-plus.md).
 */
export function countLabel(count: number | undefined, exact: boolean | undefined): string {
  if (count === undefined) return '';
  return `${formatNumber(count)}${exact === false ? '+' : ''}`;
}
