import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../contract/api-paths';
import { createAndSignIn, type SignedIn } from '../testing/auth-helpers';
import { createTestApp, TEST_DATABASES, type TestApp } from '../testing/test-utils';
import { checksum } from '../testing/hostile-input';
import { SITE_DEFAULTS } from '../modules/settings/defaults';

/**
 * Text the API takes, on both databases: every string field of every route (read from the app's
 * own OpenAPI document, so a field or route added later is covered) refuses control characters
 * and lone surrogates with a 400 naming the field, and writes nothing. PostgreSQL refused a NUL
 * with a 500 before. Also: site paths for thumbnails, and commas in tags.
 */

/** Refused in every string field. */
const ALWAYS_REFUSED: [string, string][] = [
  ['NUL', '\u0000'],
  ['SOH', '\u0001'],
  ['BEL', '\u0007'],
  ['backspace', '\b'],
  ['vertical tab', '\u000b'],
  ['form feed', '\f'],
  ['escape', '\u001b'],
  ['unit separator', '\u001f'],
  ['DEL', '\u007f'],
  ['C1 PAD', '\u0080'],
  ['C1 NEL', '\u0085'],
  ['C1 APC', '\u009f'],
  ['lone high surrogate', '\ud800'],
  ['lone low surrogate', '\udfff'],
  ['reversed surrogate pair', '\udc00\ud800'],
];
/** Refused in single-line fields, kept in multi-line ones. */
const LINE_CHARACTERS: [string, string][] = [
  ['tab', '\t'],
  ['line feed', '\n'],
  ['carriage return', '\r'],
];
/** The body fields that hold more than one line of text. */
const MULTI_LINE = new Set(['description', 'message', 'licence.credit', 'licence.text', 'markdown', 'legal.privacy', 'legal.terms', 'footer.about']);

type Method = 'POST' | 'PATCH' | 'DELETE' | 'GET';
interface Fixtures {
  resourceId: number;
  announcementId: number;
}
let unique = 0;
/** A valid settings PATCH with every section (the defaults, one card, link and social each). */
const SETTINGS_BODY: Record<string, unknown> = {
  ...structuredClone(SITE_DEFAULTS),
  community: SITE_DEFAULTS.community.slice(0, 1),
  footer: { ...SITE_DEFAULTS.footer, quick_links: SITE_DEFAULTS.footer.quick_links.slice(0, 1), socials: SITE_DEFAULTS.footer.socials.slice(0, 1), copyright_holder: 'Plain' },
  // Two characters: a character put after a one-character value would be trailing, and trimmed.
  stats: SITE_DEFAULTS.stats.map((stat) => ({ ...stat, suffix: 'pt' })),
  legal: { privacy: 'Plain privacy', terms: 'Plain terms' },
};

/** The object around each text field of the settings body, as it is in SETTINGS_BODY. */
function settingsParents(): Record<string, () => Record<string, unknown>> {
  const out: Record<string, () => Record<string, unknown>> = {};
  const walk = (node: unknown, at: string[]) => {
    if (typeof node === 'string' && at.length > 1) {
      const parent = at.slice(0, -1);
      if (!/^\d+$/.test(at[at.length - 1])) out[at.join('.')] = () => structuredClone(parent.reduce<unknown>((n, step) => (n as Record<string, unknown>)[step], SETTINGS_BODY) as Record<string, unknown>);
    } else if (typeof node === 'object' && node !== null) {
      for (const [k, v] of Object.entries(node)) walk(v, [...at, k]);
    }
  };
  walk(SETTINGS_BODY, []);
  return out;
}

/** A browser's passkey answer in form, for registration and sign-in alike (each schema keeps its own fields). */
const PASSKEY_ANSWER = () => ({
  id: 'AAAA',
  rawId: 'AAAA',
  type: 'public-key',
  authenticatorAttachment: 'platform',
  response: { clientDataJSON: 'e30', attestationObject: 'oA', authenticatorData: 'AAAA', signature: 'AAAA', userHandle: 'AAAA', transports: ['internal'] },
});

/** A valid body for every route that takes one with text in it: the poisoned field is then the only fault. */
const VALID_BODIES: Record<string, () => Record<string, unknown>> = {
  'POST /api/auth/login': () => ({ username: 'text_root', password: 'text-root-password' }),
  'POST /api/auth/password': () => ({ current_password: 'text-root-password', new_password: 'text-new-password' }),
  'POST /api/admin/resources': () => ({
    title: 'Plain title',
    description: 'Plain description',
    category: 'typography',
    thumbnail_url: '/thumbnails/plain.svg',
    download_url: 'https://example.com/plain.zip',
    tags: ['Plain'],
    is_premium: false,
  }),
  'PATCH /api/admin/resources/{id}': () => ({ ...VALID_BODIES['POST /api/admin/resources'](), title: 'Edited title' }),
  'POST /api/admin/resources/bulk': () => ({ ids: [1], action: 'add_tags', tags: ['Plain'] }),
  'POST /api/admin/announcements': () => ({ message: 'Plain message' }),
  'PATCH /api/admin/announcements/{id}': () => ({ message: 'Edited message', is_active: true }),
  'POST /api/admin/admins': () => ({ username: `text_user_${unique++}`, password: 'text-user-password' }),
  // Every section, so that each of their text fields is in the body to poison.
  'PATCH /api/admin/settings': () => structuredClone(SETTINGS_BODY),
  'POST /api/admin/settings/preview-markdown': () => ({ markdown: '# Plain' }),
  // Two-step sign-in: a challenge of the right form (none is live: the poisoned field is refused first).
  'POST /api/auth/login/2fa': () => ({ challenge: 'A'.repeat(43), code: '123456' }),
  'POST /api/auth/login/totp': () => ({ challenge: 'A'.repeat(43) }),
  'POST /api/auth/login/totp/confirm': () => ({ challenge: 'A'.repeat(43), code: '123456' }),
  'POST /api/auth/totp/confirm': () => ({ code: '123456' }),
  'POST /api/auth/totp/recovery-codes': () => ({ code: '123456' }),
  'DELETE /api/auth/totp': () => ({ password: 'text-root-password', code: '123456' }),
  'PATCH /api/admin/two-factor-policy': () => ({ policy: 'optional' }),
  // Passkeys: answers of the right form (no ceremony is live: the poisoned field is refused first).
  'POST /api/admin/passkeys': () => ({ name: 'Plain key', response: PASSKEY_ANSWER() }),
  'PATCH /api/admin/passkeys/{id}': () => ({ name: 'Renamed key' }),
  'POST /api/auth/passkey': () => ({ response: PASSKEY_ANSWER() }),
};
const VALID_QUERY: Record<string, string> = { category: 'typography', q: 'plain', tags: 'Plain', sort: 'newest', cursor: 'plain', days: '30', id: '1', preview: 'plain', status: 'draft', format: 'csv', dry_run: 'true', actor: '1', action: 'resource.update', target_type: 'resource', target_id: '1', from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z', links: 'broken' };
// The public list's fact filters (issue 33).
Object.assign(VALID_QUERY, { app: 'after-effects', orientation: 'portrait', min_height: '1080', duration_min: '15', duration_max: '60', facets: 'true' });

/** A valid upload id (its form only: a poisoned sibling fails validation before anything looks it up). */
const UPLOAD_ID = '0123456789abcdef0123456789abcdef';
/**
 * For a text field inside an object the valid body does not hold (or holds in another variant):
 * a valid value of that object with the field in it, so the poisoned field is again the only fault.
 */
const VALID_PARENTS: Record<string, () => Record<string, unknown>> = {
  'licence.kind': () => ({ kind: 'personal' }),
  'licence.credit': () => ({ kind: 'attribution', credit: 'Plain credit line' }),
  'licence.text': () => ({ kind: 'custom', text: 'Plain licence text' }),
  'preview_source.kind': () => ({ kind: 'video', upload_id: UPLOAD_ID }),
  'preview_source.upload_id': () => ({ kind: 'video', upload_id: UPLOAD_ID }),
  'preview_source.before_upload_id': () => ({ kind: 'image-pair', before_upload_id: UPLOAD_ID, after_upload_id: UPLOAD_ID }),
  'preview_source.after_upload_id': () => ({ kind: 'image-pair', before_upload_id: UPLOAD_ID, after_upload_id: UPLOAD_ID }),
  ...settingsParents(),
  'apps.0.id': () => ({ id: 'premiere-pro', min_version: '2020' }),
  'apps.0.min_version': () => ({ id: 'premiere-pro', min_version: '2020' }),
  ...Object.fromEntries(['id', 'rawId', 'type', 'authenticatorAttachment'].map((k) => [`response.${k}`, PASSKEY_ANSWER])),
  ...Object.fromEntries(
    ['clientDataJSON', 'attestationObject', 'authenticatorData', 'signature', 'userHandle', 'transports'].map((k) => [`response.response.${k}`, () => PASSKEY_ANSWER().response]),
  ),
};

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
}
interface Operation {
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  parameters?: { in: string; name: string; schema?: JsonSchema }[];
}
interface TextField {
  /** `title`, `licence.credit`, or `tags.0` for the first item of a list: the key the error names. */
  key: string;
  poison(body: Record<string, unknown>, bad: string): Record<string, unknown>;
}

const insertInto = (s: string, bad: string) => `${s.slice(0, 1)}${bad}${s.slice(1)}`;
const isType = (schema: JsonSchema, type: string) => schema.type === type || (Array.isArray(schema.type) && schema.type.includes(type));

/**
 * Every string field of a JSON schema, at any depth: object properties, the first item of lists,
 * and each variant of a union (oneOf/anyOf/allOf), as paths (`licence.credit`, `tags.0`).
 */
function textPaths(schema: JsonSchema | undefined, at: string[] = []): string[][] {
  if (!schema) return [];
  const variants = [...(schema.oneOf ?? []), ...(schema.anyOf ?? []), ...(schema.allOf ?? [])].flatMap((v) => textPaths(v, at));
  if (isType(schema, 'string') && at.length > 0) return [at, ...variants];
  const properties = Object.entries(schema.properties ?? {}).flatMap(([name, p]) => textPaths(p, [...at, name]));
  const items = schema.items ? textPaths(schema.items, [...at, '0']) : [];
  return [...properties, ...items, ...variants];
}

/** The body with `value` at `path` (objects and lists made on the way as needed). */
function withValueAt(body: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(body);
  let node: Record<string, unknown> = copy;
  path.slice(0, -1).forEach((step, i) => {
    if (typeof node[step] !== 'object' || node[step] === null) node[step] = /^\d+$/.test(path[i + 1]) ? [] : {};
    node = node[step] as Record<string, unknown>;
  });
  node[path[path.length - 1]] = value;
  return copy;
}

const valueAt = (body: unknown, path: string[]): unknown => path.reduce<unknown>((node, step) => (node as Record<string, unknown> | undefined)?.[step], body);

/** The text fields of a body schema, each able to poison a valid body in that one field. */
function textFields(schema: JsonSchema | undefined): TextField[] {
  const seen = new Set<string>();
  return textPaths(schema).flatMap((path): TextField[] => {
    const key = path.join('.');
    if (seen.has(key)) return [];
    seen.add(key);
    return [
      {
        key,
        poison(body, bad) {
          const parent = VALID_PARENTS[key];
          const base = parent ? withValueAt(body, path.slice(0, -1), parent()) : body;
          return withValueAt(base, path, insertInto(String(valueAt(base, path)), bad));
        },
      },
    ];
  });
}

describe.each(TEST_DATABASES)('text input on %s', (kind) => {
  let t: TestApp;
  let root: SignedIn;
  let fx: Fixtures;
  let operations: { method: Method; path: string; op: Operation }[];

  beforeAll(async () => {
    t = await createTestApp(kind);
    root = await createAndSignIn(t.app, t.database, 'text_root', { superUser: true, password: 'text-root-password' });
    const r = await t.app.inject({ method: 'POST', url: API.adminResources, headers: { cookie: root.cookie }, payload: VALID_BODIES['POST /api/admin/resources']() });
    const a = await t.app.inject({ method: 'POST', url: API.adminAnnouncements, headers: { cookie: root.cookie }, payload: { message: 'Target' } });
    fx = { resourceId: r.json().id, announcementId: a.json().id };
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, Operation>> };
    operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase() as Method, path, op })),
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  const urlOf = (path: string) =>
    path
      .replace('/api/admin/resources/{id}', `/api/admin/resources/${fx.resourceId}`)
      .replace('/api/admin/announcements/{id}', `/api/admin/announcements/${fx.announcementId}`)
      .replace('/api/admin/passkeys/{id}', '/api/admin/passkeys/1');
  const send = (method: Method, url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { cookie: root.cookie } });
  const bodyRoutes = () =>
    operations
      .map((o) => ({ ...o, fields: textFields(o.op.requestBody?.content?.['application/json']?.schema) }))
      .filter((o) => o.fields.length > 0);

  it('has a valid body for every route whose body holds text (add one for a new route)', () => {
    expect(bodyRoutes().map((o) => `${o.method} ${o.path}`).sort()).toEqual(Object.keys(VALID_BODIES).sort());
  });

  it('reaches the text fields nested in objects and unions, each with a valid object around it', () => {
    const nested = bodyRoutes().flatMap((o) => o.fields.map((f) => f.key).filter((k) => k.includes('.') && !/\.\d+$/.test(k)));
    expect(nested).toEqual(expect.arrayContaining(['licence.credit', 'licence.text', 'preview_source.upload_id']));
    for (const key of nested) expect(VALID_PARENTS[key], `a valid object around ${key} (VALID_PARENTS)`).toBeDefined();
  });

  // One test per route (VALID_BODIES names them all: the first test checks it against the OpenAPI
  // document): all routes in one test ran past its 30 s limit on PostgreSQL on a loaded machine.
  it.each(Object.keys(VALID_BODIES))('refuses control characters and lone surrogates in every string field of %s: 400 naming the field, nothing written', async (route) => {
    const found = bodyRoutes().find((o) => `${o.method} ${o.path}` === route);
    expect(found, `${route} has text fields in its body`).toBeDefined();
    const { method, path, fields } = found!;
    let cases = 0;
    const before = await checksum(t.database);
    for (const field of fields) {
      const refused = [...ALWAYS_REFUSED, ...(MULTI_LINE.has(field.key) ? [] : LINE_CHARACTERS)];
      for (const [name, bad] of refused) {
        const res = await send(method, urlOf(path), field.poison(VALID_BODIES[route](), bad));
        const where = `${route} ${field.key} with ${name}`;
        expect(res.statusCode, `${where}: ${res.body}`).toBe(400);
        const { error } = res.json() as { error: { code: string; message: string; fields?: Record<string, string> } };
        expect(error.code, where).toBe('VALIDATION_ERROR');
        expect(Object.keys(error.fields ?? {}), where).toEqual([field.key]);
        expect(error.message, where).toBe(error.fields![field.key]);
        cases++;
      }
    }
    expect(await checksum(t.database), `${route} wrote`).toBe(before);
    expect(cases).toBeGreaterThanOrEqual(fields.length * ALWAYS_REFUSED.length);
  });

  it('keeps tabs and line breaks in multi-line fields, as sent', async () => {
    const withLines = 'First line\n\tindented\r\nlast line';
    const created = await send('POST', API.adminResources, { ...VALID_BODIES['POST /api/admin/resources'](), description: withLines });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().description).toBe(withLines);
    const announced = await send('POST', API.adminAnnouncements, { message: withLines });
    expect(announced.statusCode, announced.body).toBe(201);
    expect(announced.json().message).toBe(withLines);
    const stored = await t.database.db.selectFrom('announcements').select('message').where('id', '=', announced.json().id).executeTakeFirstOrThrow();
    expect(stored.message).toBe(withLines);
  });

  it('refuses control characters in every string query parameter: 400 naming it', async () => {
    const queryRoutes = operations
      .map((o) => ({ ...o, params: (o.op.parameters ?? []).filter((p) => p.in === 'query' && (p.schema?.type === 'string' || p.schema?.items?.type === 'string')) }))
      .filter((o) => o.params.length > 0);
    expect(queryRoutes.map((o) => `${o.method} ${o.path}`)).toEqual(expect.arrayContaining(['GET /api/admin/resources', 'GET /api/resources']));
    for (const { method, path, params } of queryRoutes) {
      for (const p of params) {
        expect(VALID_QUERY[p.name], `a valid value for ${method} ${path}?${p.name}`).toBeDefined();
        // A URL cannot carry a lone surrogate; every other refused character can be percent-encoded.
        for (const [name, bad] of [...ALWAYS_REFUSED, ...LINE_CHARACTERS].filter(([, c]) => !/[\ud800-\udfff]/.test(c))) {
          const value = insertInto(VALID_QUERY[p.name], bad);
          // A path parameter gets a valid id, so only the query parameter can be refused.
          const res = await send(method, `${path.replace(/\{id\}/g, '1')}?${p.name}=${encodeURIComponent(value)}`);
          const where = `${method} ${path}?${p.name} with ${name}`;
          expect(res.statusCode, `${where}: ${res.body}`).toBe(400);
          const key = p.schema?.type === 'array' ? `${p.name}.0` : p.name;
          expect(Object.keys(res.json().error.fields ?? {}), where).toEqual([key]);
        }
      }
    }
  });

  describe('thumbnail site paths', () => {
    // Each of these a browser resolves off-site, or carries whitespace or a look-alike of a slash that
    // a browser drops, rewrites or encodes, or an encoded form that one more decoding step turns into those.
    const HOSTILE = [
      '//evil.example/x.png',
      '/\\evil.example/x.png',
      '/\t/evil.example/x.png',
      '/\n/evil.example/x.png',
      '/\r/evil.example/x.png',
      '/\t\\evil.example/x.png',
      '/ /evil.example/x.png',
      '/\u00a0/evil.example/x.png',
      '/\u3000/evil.example/x.png',
      '/%2f/evil.example/x.png',
      '/%2F%2Fevil.example/x.png',
      '/%5c/evil.example/x.png',
      '/%5C%5Cevil.example/x.png',
      '/%252f/evil.example/x.png',
      '/%09/evil.example/x.png',
      '/%0a/evil.example/x.png',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/thumbnails/../../admin',
      '/.%2e/x.png',
      '/\uff0f/evil.example/x.png',
      '/\u2215evil.example/x.png',
      '/thumbnails/x.png\u0000',
    ];
    const FINE = ['/thumbnails/1.svg', '/thumbnails/a%20b.png', '/images/x.png?v=2', '/a/b-c_d.e~f/g.webp', '/thumbnails/x.png#top'];

    it.each(HOSTILE)('refuses %j on create and edit, nothing written', async (thumbnail) => {
      const before = await checksum(t.database);
      const create = await send('POST', API.adminResources, { ...VALID_BODIES['POST /api/admin/resources'](), thumbnail_url: thumbnail });
      const edit = await send('PATCH', API.adminResource(fx.resourceId), { thumbnail_url: thumbnail });
      for (const res of [create, edit]) {
        expect(res.statusCode, res.body).toBe(400);
        expect(Object.keys(res.json().error.fields)).toEqual(['thumbnail_url']);
      }
      expect(await checksum(t.database)).toBe(before);
    });

    it.each(FINE)('accepts %j, a path on this site', async (thumbnail) => {
      const res = await send('POST', API.adminResources, { ...VALID_BODIES['POST /api/admin/resources'](), thumbnail_url: thumbnail });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().thumbnail_url).toBe(thumbnail);
      expect(new URL(thumbnail, 'https://site.example').origin).toBe('https://site.example');
    });
  });

  describe('tags', () => {
    it.each([['a comma', 'Black, White'], ['only a comma', ','], ['a trailing comma', 'Pack,']])(
      'refuses a tag with %s on create and edit (the public filter splits on commas): 400 naming it, nothing written',
      async (_name, tag) => {
        const before = await checksum(t.database);
        const create = await send('POST', API.adminResources, { ...VALID_BODIES['POST /api/admin/resources'](), tags: ['Fine', tag] });
        const edit = await send('PATCH', API.adminResource(fx.resourceId), { tags: [tag] });
        for (const [res, key] of [[create, 'tags.1'], [edit, 'tags.0']] as const) {
          expect(res.statusCode, res.body).toBe(400);
          expect(res.json().error.fields).toEqual({ [key]: 'A tag cannot contain a comma' });
        }
        expect(await checksum(t.database)).toBe(before);
      },
    );

    it('finds a resource by each tag it was saved with, through the public filter', async () => {
      const tags = ['Black & White', 'Sans-Serif', 'Logo Animation', 'UI Sounds'];
      const created = await send('POST', API.adminResources, { ...VALID_BODIES['POST /api/admin/resources'](), title: 'Tagged for the filter', tags });
      expect(created.statusCode, created.body).toBe(201);
      for (const tag of tags) {
        const res = await t.app.inject({ url: `${API.resources}?category=typography&tags=${encodeURIComponent(tag)}` });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().items.map((r: { id: number }) => r.id), tag).toContain(created.json().id);
      }
    });
  });
});
