import { describe, expect, it } from 'vitest';
import { resourceListQuerySchema } from '@contract/resources';
import { countLabel, durationBucketOf, facetControls, factChips, factsFromParams, writeFacts } from './fact-filters';

describe('fact filters in the URL', () => {
  it('reads what the API accepts and leaves out what it would refuse', () => {
    const good = new URLSearchParams('app=after-effects&format=.MOGRT&duration_max=15&orientation=portrait&min_height=1080');
    const facts = factsFromParams(good);
    expect(facts).toEqual({ app: 'after-effects', format: 'mogrt', duration_max: 15, orientation: 'portrait', min_height: 1080 });
    // The API reads the same values the same way.
    const api = resourceListQuerySchema.parse(Object.fromEntries(good));
    expect({ app: api.app, format: api.format, duration_max: api.duration_max, orientation: api.orientation, min_height: api.min_height }).toEqual(facts);
    const bad = new URLSearchParams('app=word&format=a.b&duration_min=-1&duration_max=999999&orientation=round&min_height=900');
    expect(factsFromParams(bad)).toEqual({});
  });

  it('writes the chosen values and removes the others, so a link reproduces the view', () => {
    const params = new URLSearchParams('q=glitch&app=photoshop&orientation=square');
    writeFacts(params, { app: 'after-effects', duration_max: 15 });
    expect(params.toString()).toBe('q=glitch&app=after-effects&duration_max=15');
    expect(factsFromParams(params)).toEqual({ app: 'after-effects', duration_max: 15 });
  });

  it('maps the duration buckets to bounds and back; another range reads as itself', () => {
    const duration = facetControls({}, undefined).find((c) => c.key === 'duration')!;
    const [under15, , , over5m] = duration.options;
    expect(duration.choose(under15.value)).toEqual({ duration_min: undefined, duration_max: 15 });
    expect(duration.choose(over5m.value)).toEqual({ duration_min: 300, duration_max: undefined });
    expect(durationBucketOf({ duration_min: 15, duration_max: 60 })?.id).toBe('15s-1m');
    expect(durationBucketOf({ duration_min: 5, duration_max: 60 })).toBeUndefined();
    expect(factChips({ duration_min: 5, duration_max: 60 })[0].label).toBe('5 s – 1 min');
  });

  it('offers the values the facets counted, the chosen one always, and nothing where a facet has no value', () => {
    const facets = {
      exact: false,
      category: [],
      app: [{ value: 'after-effects', count: 1200 }],
      format: [],
      orientation: [],
      min_height: [],
      duration: [{ value: 'under-15s', count: 3 }],
    };
    const controls = facetControls({ orientation: 'portrait' }, facets);
    const options = Object.fromEntries(controls.map((c) => [c.key, c.options.map((o) => [o.value, o.count])]));
    expect(options).toEqual({
      app: [['after-effects', 1200]],
      format: [],
      duration: [['under-15s', 3]],
      orientation: [['portrait', undefined]],
      min_height: [],
    });
    expect(controls[0].options[0].label).toBe('After Effects');
    expect(countLabel(1200, facets.exact)).toBe('1,200+');
    expect(countLabel(3, true)).toBe('3');
  });
});
