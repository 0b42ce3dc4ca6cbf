import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Resource } from '@contract/resources';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { draftKey, type FormInput, newResourceValues, readDraft, resourceValues, serverFieldErrors, slotBody, writeDraft } from './form-values';
import { useResourceForm } from './use-resource-form';

/** The browser's localStorage, as a Map (tests run in Node): put in place per test, removed after. */
let stored: Map<string, string>;
beforeEach(() => {
  stored = new Map();
  Object.defineProperty(globalThis, 'localStorage', {
    configurable: true,
    value: {
      getItem: (k: string) => stored.get(k) ?? null,
      setItem: (k: string, v: string) => void stored.set(k, String(v)),
      removeItem: (k: string) => void stored.delete(k),
    },
  });
});
afterEach(() => {
  delete (globalThis as { localStorage?: unknown }).localStorage;
});

const resource = {
  id: 42,
  title: 'Glitch Pack',
  description: 'Glitches',
  category: 'video_editing',
  thumbnail_url: '/thumbnails/42.svg',
  thumbnail: null,
  file: { name: 'glitch.zip', size: 1000, sha256: 'ab', content_type: 'application/zip' },
  download_url: '',
  tags: ['Glitch'],
  is_premium: false,
  licence: { kind: 'free-commercial' },
  preview: null,
} as unknown as Resource;

/** What the hook starts with, rendered as the page would render it. */
function startOf(props: Parameters<typeof useResourceForm>[0]): { values: FormInput; draft: boolean; sources: unknown } {
  let seen!: ReturnType<typeof useResourceForm>;
  function Probe() {
    seen = useResourceForm(props);
    return null;
  }
  renderToString(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <Probe />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { values: seen.form.getValues(), draft: seen.draft !== null, sources: seen.sources };
}

describe('useResourceForm', () => {
  it('starts from the saved values when there is no draft', () => {
    const start = startOf({ mode: 'edit', category: 'video_editing', resource, initial: resourceValues(resource) });
    expect(start.draft).toBe(false);
    expect(start.values).toMatchObject({ title: 'Glitch Pack', download_source: 'upload', thumbnail_source: 'link', thumbnail_url: '/thumbnails/42.svg' });
  });

  it('brings back the unsaved fields of this resource after a reload, and only of this one', () => {
    const initial = resourceValues(resource);
    writeDraft(draftKey('video_editing', 42), { ...initial, title: 'Glitch Pack v2', tags: ['Glitch', 'VHS'] }, initial);
    writeDraft(draftKey('video_editing'), { ...newResourceValues('video_editing'), description: 'A new one' }, newResourceValues('video_editing'));

    const edit = startOf({ mode: 'edit', category: 'video_editing', resource, initial });
    expect(edit.draft).toBe(true);
    expect(edit.values).toMatchObject({ title: 'Glitch Pack v2', description: 'Glitches', tags: ['Glitch', 'VHS'] });

    const create = startOf({ mode: 'create', category: 'video_editing', initial: newResourceValues('video_editing') });
    expect(create.values).toMatchObject({ title: '', description: 'A new one', download_source: 'upload' });
    // Another category's new resource has a form of its own.
    const other = startOf({ mode: 'create', category: 'sound_effects', initial: newResourceValues('sound_effects') });
    expect(other).toMatchObject({ draft: false, values: { description: '' } });
  });
});

describe('drafts', () => {
  it('keeps only what differs from the saved values, and none when nothing does', () => {
    const initial = newResourceValues('typography');
    const key = draftKey('typography');
    writeDraft(key, { ...initial, title: 'Half typed' }, initial, new Date('2026-11-27T05:00:00Z'));
    expect(JSON.parse(stored.get(key)!)).toEqual({ values: { title: 'Half typed' }, saved_at: '2026-11-27T05:00:00.000Z' });
    writeDraft(key, initial, initial);
    expect(stored.has(key)).toBe(false);
  });

  it('keeps work in progress the save would refuse, and drops what it cannot read', () => {
    const initial = newResourceValues('typography');
    const key = draftKey('typography');
    writeDraft(key, { ...initial, licence: { kind: 'attribution', credit: '' } }, initial);
    expect(readDraft(key)?.values).toEqual({ licence: { kind: 'attribution', credit: '' } });
    stored.set(key, '{"values":{"title":5},"saved_at":"x"}');
    expect(readDraft(key)).toBeNull();
    stored.set(key, 'not json');
    expect(readDraft(key)).toBeNull();
    expect(stored.has(key)).toBe(false);
  });
});

describe('the save body', () => {
  const values = { thumbnail_source: 'link', thumbnail_url: '/t.svg', download_source: 'upload', download_url: '' } as const;
  const file = { name: 'a.zip', size: 1, type: 'application/zip' };
  const done = { status: 'done', file, sent: 1, total: 1, speed: null, secondsLeft: null, resumed: false, id: 'abc' } as const;

  it('sends a link, a finished upload, nothing to keep what is hosted, or says what is missing', () => {
    expect(slotBody('thumbnail', values, { status: 'idle' }, false)).toEqual({ body: { thumbnail_url: '/t.svg' } });
    expect(slotBody('download', values, done, true)).toEqual({ body: { download_upload_id: 'abc' } });
    expect(slotBody('download', values, { status: 'idle' }, true)).toEqual({ body: {} });
    expect(slotBody('download', values, { status: 'idle' }, false)).toEqual({ body: {}, missing: 'Choose a file to upload, or give a link' });
  });

  it('puts a refusal at the field it names, in the form’s order, an upload’s at its slot', () => {
    expect(serverFieldErrors({ tags: 'Too many', download_upload_id: 'Not finished', 'licence.credit': 'Too long', title: 'Empty', 'preview_source.upload_id': 'Gone', owner: 'x' })).toEqual({
      form: [
        ['title', 'Empty'],
        ['download_source', 'Not finished'],
        ['tags', 'Too many'],
        ['licence', 'Too long'],
      ],
      preview: 'Gone',
    });
  });
});
