import { describe, expect, it } from 'vitest';
import { bulkSummary } from './bulk-summary';

const ok = (id: number) => ({ id, ok: true as const });
const missing = (id: number) => ({ id, ok: false as const, error: { code: 'NOT_FOUND', message: 'Resource not found' } });

describe('the toast after a bulk action', () => {
  it('says how many were done, in the action\'s words', () => {
    expect(bulkSummary({ ids: [1, 2], action: 'publish' }, { results: [ok(1), ok(2)], succeeded: 2, failed: 0 }, new Map())).toEqual({ title: '2 published', failures: [], variant: 'success' });
    expect(bulkSummary({ ids: [1], action: 'move', category: 'sound_effects' }, { results: [ok(1)], succeeded: 1, failed: 0 }, new Map()).title).toBe('1 moved to Sound Effects');
    expect(bulkSummary({ ids: [1], action: 'trash' }, { results: [ok(1)], succeeded: 1, failed: 0 }, new Map()).title).toBe('1 deleted');
  });

  it('lists failures by title when known, else by id, at most five and how many more', () => {
    const ids = [1, 2, 3, 4, 5, 6, 7, 8];
    const results = [ok(1), ...ids.slice(1).map(missing)];
    const s = bulkSummary({ ids, action: 'unpublish' }, { results, succeeded: 1, failed: 7 }, new Map([[2, 'Rain pack']]));
    expect(s.title).toBe('1 moved to drafts, 7 failed');
    expect(s.variant).toBe('destructive');
    expect(s.failures).toEqual([
      '“Rain pack”: Resource not found',
      'Resource #3: Resource not found',
      'Resource #4: Resource not found',
      'Resource #5: Resource not found',
      'Resource #6: Resource not found',
      'and 2 more',
    ]);
  });
});
