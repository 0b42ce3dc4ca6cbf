import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { JobKinds } from './kinds';
import { defineJob } from './queue';

const job = (kind: string) => defineJob({ kind, payload: z.object({}), timeLimitMs: 1000, run: async () => null });

describe('job kinds', () => {
  it('keeps each registered kind, from several features', () => {
    const kinds = new JobKinds();
    kinds.register(job('media.a'), job('media.b'));
    kinds.register(job('seed.c'));
    expect(kinds.all().map((d) => d.kind)).toEqual(['media.a', 'media.b', 'seed.c']);
  });

  it('refuses a kind registered twice, so one handler cannot silently replace another', () => {
    const kinds = new JobKinds();
    kinds.register(job('media.a'));
    expect(() => kinds.register(job('media.a'))).toThrow('The job kind media.a is registered twice.');
    expect(kinds.all()).toHaveLength(1);
  });
});
