import { AUDIT_ACTIONS, type AuditEntry } from '@contract/audit';
import { describe, expect, it } from 'vitest';
import { ACTION_LABELS, actorLabel, changedRows, showValue, targetLabel } from './activity-labels';

const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  id: 1,
  created_at: '2026-11-27T10:00:00.000Z',
  actor_id: null,
  actor_username: null,
  action: 'resource.update',
  target_type: null,
  target_id: null,
  changes: null,
  ip: null,
  user_agent: null,
  ...over,
});

describe('how the Activity page words an entry', () => {
  it('names every action the server records', () => {
    expect(AUDIT_ACTIONS.filter((a) => !(a in ACTION_LABELS))).toEqual([]);
  });

  it('names who did it: the admin then, the system, or nobody signed in', () => {
    expect(actorLabel(entry({ actor_id: 3, actor_username: 'ana' }))).toBe('ana');
    expect(actorLabel(entry({ action: 'resource.publish' }))).toBe('System');
    expect(actorLabel(entry({ action: 'auth.login_failed' }))).toBe('Not signed in');
    expect(targetLabel(entry({ target_type: 'resource', target_id: '12' }))).toBe('Resource 12');
    expect(targetLabel(entry({}))).toBeNull();
  });

  it('lists the changed fields before and after, what else the entry says first', () => {
    expect(changedRows({ bulk_action: 'premium', before: { is_premium: false }, after: { is_premium: true } })).toEqual([
      { field: 'bulk_action', after: 'premium' },
      { field: 'is_premium', before: false, after: true },
    ]);
    expect(changedRows({ after: { title: 'New' } })).toEqual([{ field: 'title', after: 'New' }]);
    expect(changedRows({ before: { username: 'gone' } })).toEqual([{ field: 'username', before: 'gone' }]);
    expect(changedRows(null)).toEqual([]);
  });

  it('shows a value on one short line', () => {
    expect(showValue(null)).toBe('—');
    expect(showValue('')).toBe('(empty)');
    expect(showValue(['a', 'b'])).toBe('["a","b"]');
    expect(showValue('x'.repeat(500))).toBe(`${'x'.repeat(160)}…`);
  });
});
