import {
  FILTER_OPERATORS,
  type Field,
  OPERATORS_BY_TYPE,
  type Resource,
  type ResourceRoute,
} from '@erp/contract';
import { type ReferencePool, sampleBody } from '../src/seed/samples';
import { BAD_BODIES, badBodyValues, badUrlValues, ODD_URL_VALUES } from './fuzz-values';

/**
 * The fuzz test's requests, generated from the registry: whatever resources, fields, types and
 * actions the catalogue declares, each gets malformed filters, orders, page sizes, cursors,
 * bodies, content types and headers. `refused` cases are wrong by the SPEC and must get a 4xx;
 * `any` cases may be right or wrong, and only must not break anything; `ok` cases are the
 * unspoilt requests the others are mutated from, which must succeed (so a refusal is the
 * mutation's doing).
 */
export interface FuzzCase {
  route: string;
  label: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  expect: 'refused' | 'any' | 'ok';
  /** Set where the fix lives in another branch of issue 12 (merged separately). */
  pending?: string;
}

/** A deterministic PRNG (mulberry32): the same seed sends the same requests. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}
export type Prng = ReturnType<typeof prng>;

export interface FuzzContext {
  rnd: Prng;
  /** Authentication headers, drawn per request (session or API key). */
  auth: () => Record<string, string>;
  refs: ReferencePool;
  tenantSlug: string;
}

export const STRICT_DECODING = 'strict body decoding (packages/http, another branch)';
const RANDOM_UUID = '7d0e2b8c-5f1a-4c3e-9b6d-2a4f8e1c0d93';
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const enc = encodeURIComponent;

/**
 * Cases that do not depend on the resource (unknown keys, page sizes, whole bodies, content
 * types...) go to one route in SHARES of each kind, in turn: every resource's routes still see
 * each of them, in a third of the requests.
 */
const SHARES = 3;

/** Every malformed request of one generated route; `slot` is the resource's place in the catalogue. */
export function casesFor(route: ResourceRoute, ctx: FuzzContext, slot: number): FuzzCase[] {
  const name = `${route.route.method.toUpperCase()} ${route.route.path}`;
  const make = (
    c: Omit<FuzzCase, 'route' | 'method' | 'headers'> & {
      headers?: Record<string, string>;
      method?: string;
    },
  ) => ({
    ...c,
    route: name,
    method: c.method ?? route.route.method.toUpperCase(),
    headers: { ...ctx.auth(), ...c.headers },
  });
  const base = `/api/v1/${route.resource.path}`;
  const ids = ctx.refs.get(route.resource.name) ?? [];
  let turn = 0;
  return draftsFor(route, ctx, base, ids)
    .filter((c) => !c.shared || turn++ % SHARES === slot % SHARES)
    .map(({ shared: _, ...c }) => make(c));
}

function draftsFor(
  route: ResourceRoute,
  ctx: FuzzContext,
  base: string,
  ids: readonly string[],
): Draft[] {
  switch (route.kind) {
    case 'list':
      return [...listCases(route.resource, ctx), ...shared(headerCases(ctx))].map((c) => ({
        ...c,
        path: `${base}${c.path}`,
      }));
    case 'get':
      return [
        { label: 'a real record', path: `/${ids[0]}`, expect: 'ok' as const },
        ...idCases(ids[0]!).map((c) => ({ ...c, path: `/${c.path}` })),
        ...shared(methodCases(ids[0]!)),
      ].map((c) => ({ ...c, path: `${base}${c.path}` }));
    case 'delete':
      // The real record last: deleting it may succeed, or meet a reference.
      return [
        ...idCases(RANDOM_UUID).slice(1),
        { label: 'a real record', path: ids[2]!, expect: 'any' as const },
      ].map((c) => ({ ...c, path: `${base}/${c.path}` }));
    case 'action':
      return actionCases(ids[1]!).map((c) => ({
        ...c,
        path: route.route.path.replace('{id}', c.path),
      }));
    case 'create':
      return bodyCases(route.resource, ctx, sampleBody(route.resource, 7, ctx.refs)).map((c) => ({
        ...c,
        path: base,
      }));
    case 'update':
      return [...bodyCases(route.resource, ctx, {}), ...ifMatchCases()].map((c) => ({
        ...c,
        path: `${base}/${c.path || ids[0]}`,
      }));
  }
}

type Draft = Omit<FuzzCase, 'route' | 'method' | 'headers' | 'path'> & {
  path: string;
  headers?: Record<string, string>;
  method?: string;
  /** Not about this resource: sent to a share of the routes only (see SHARES). */
  shared?: boolean;
};

const shared = (cases: Draft[]): Draft[] => cases.map((c) => ({ ...c, shared: true }));

/** Methods the routes do not have, HEAD, and other spellings of their paths (after the list's path). */
function methodCases(id: string): Draft[] {
  const cases: Draft[] = [];
  for (const method of ['PUT', 'OPTIONS', 'PROPFIND', 'HEAD'])
    for (const path of ['', `/${id}`])
      cases.push({
        label: `${method} ${path ? 'record' : 'list'}`,
        method,
        path,
        expect: method === 'HEAD' ? 'any' : 'refused',
      });
  cases.push({
    label: 'HEAD with a bad filter',
    method: 'HEAD',
    path: '?id=eq.x',
    expect: 'refused',
  });
  for (const path of ['/', `/${id}/`, `/${id}/nope`, `//${id}`, '/%2e%2e/', `/${id}/%2e%2e`])
    cases.push({ label: `path ${path}`, method: 'GET', path, expect: 'refused' });
  return cases;
}

function listCases(resource: Resource, { rnd }: FuzzContext): Draft[] {
  const cases: Draft[] = [{ label: 'no parameters', path: '', expect: 'ok' }];
  const q = (query: string, expect: FuzzCase['expect'], label = query) =>
    cases.push({ label, path: `?${query}`, expect });
  const fields = Object.entries(resource.allFields);
  const filterable = fields.filter(([, f]) => f.filterable);
  const sortable = fields.filter(([, f]) => f.sortable);
  for (const [name, field] of filterable) {
    const ops = OPERATORS_BY_TYPE[field.type];
    const compare = ops.filter((op) => !['in', 'is', 'like', 'ilike'].includes(op));
    const bad = badUrlValues(field);
    q(`${name}=${rnd.pick(compare)}.${enc(rnd.pick(bad))}`, 'refused');
    if (ops.includes('in'))
      q(`${name}=in.(${enc(rnd.pick(bad))},${enc(rnd.pick(bad))})`, 'refused');
    q(`${name}=${rnd.pick(ops)}.${rnd.pick(ODD_URL_VALUES)}`, 'any');
    const wrongOps = ['foo', 'EQ', '', 'not', 'cs', ...FILTER_OPERATORS].filter(
      (op) => !ops.includes(op as never),
    );
    q(`${name}=${rnd.pick(wrongOps)}.1`, 'refused');
    q(
      `${name}=is.${rnd.pick(field.type === 'boolean' ? ['maybe', 'TRUE', ''] : ['true', 'maybe', 'NULL'])}`,
      'refused',
    );
  }
  const typed = cases.length;
  const [first, firstField] = filterable[0]!;
  q(
    `${first}=is.null&${first}=eq.${enc(rnd.pick(badUrlValues(firstField)))}`,
    'refused',
    'repeated key, one bad',
  );
  for (const expression of ['eq', '', 'in.(', 'in.("a)', 'in.(a,b', 'in.((a))', 'in.(a"b)', 'in.x'])
    q(`${first}=${enc(expression)}`, 'refused');
  q(
    `${first}=in.(${Array.from({ length: 501 }, (_, i) => i).join(',')})`,
    'refused',
    'in with 501 items',
  );
  for (const key of [
    'nope',
    '__proto__',
    'constructor',
    'toString',
    '%ZZ',
    'a%5Bb%5D',
    'tenant_id',
    '%00',
  ])
    q(`${key}=eq.1`, 'refused');
  const hidden = fields.find(([, f]) => !f.filterable);
  if (hidden) q(`${hidden[0]}=eq.1`, 'refused', 'a field that is not filterable');
  const unsortable = fields.find(([, f]) => !f.sortable)?.[0] ?? 'nope';
  for (const order of [
    'nope.asc',
    'id.sideways',
    'id.asc.asc',
    ',',
    'id.asc,id.desc',
    `${unsortable}.asc`,
    'x'.repeat(600),
    'id.ASC',
    '.asc',
  ])
    q(`order=${enc(order)}`, 'refused');
  q('order=id.asc&order=id.desc', 'refused', 'repeated order');
  q(`order=${rnd.pick(sortable)[0]}.desc`, 'any');
  for (const size of [
    '0',
    '-1',
    '201',
    '1e9',
    'abc',
    '',
    '1.5',
    'NaN',
    'Infinity',
    '99999999999999999999',
  ])
    q(`page_size=${size}`, 'refused');
  for (const size of ['1e2', '%205', '0x10']) q(`page_size=${size}`, 'any');
  q('page_size=1&page_size=2', 'any', 'repeated page_size');
  const cursors: unknown[] = [
    [],
    {},
    null,
    ['id.desc'],
    ['id.desc', []],
    ['id.desc', [RANDOM_UUID, RANDOM_UUID]],
    ['id.desc', [5]],
    ['id.desc', [null]],
    ['id.desc', [{}]],
    ['id.desc', ['NOT-A-UUID']],
    ['id.asc', [RANDOM_UUID]],
    ['id.desc', ['x'.repeat(3000)]],
  ];
  for (const cursor of cursors)
    q(`cursor=${b64(cursor)}`, 'refused', `cursor ${JSON.stringify(cursor).slice(0, 60)}`);
  for (const raw of [
    'abc',
    '%%%',
    'x'.repeat(5000),
    Buffer.from('not json').toString('base64'),
    '/+==',
    Buffer.from([0xff, 0xfe, 0x5b]).toString('base64url'),
  ])
    q(`cursor=${raw}`, 'refused', `cursor ${raw.slice(0, 40)}`);
  cases.push(...shared(cases.splice(typed)));
  for (const [field, spec] of sortable.filter(([f]) => f !== 'id')) {
    const value = rnd.pick(badUrlValues(spec));
    q(
      `order=${field}.asc&cursor=${b64([`${field}.asc,id.asc`, [value, RANDOM_UUID]])}`,
      'refused',
      `cursor of ${field} holding ${value.slice(0, 40)}`,
    );
  }
  return cases;
}

function headerCases({ tenantSlug }: FuzzContext): Draft[] {
  return [
    {
      label: 'both tenant headers, differing',
      path: '',
      headers: { 'x-tenant-id': 'other', 'x-tenant': tenantSlug },
      expect: 'refused',
    },
    {
      label: 'unknown tenant',
      path: '',
      headers: { 'x-tenant': 'no-such-tenant', 'x-tenant-id': 'no-such-tenant' },
      expect: 'refused',
    },
    {
      label: 'bad bearer',
      path: '',
      headers: { authorization: 'Bearer x.y.z' },
      expect: 'refused',
    },
    {
      label: 'API key with an Origin',
      path: '',
      headers: { origin: 'https://evil.test', authorization: 'Bearer service_live_x' },
      expect: 'refused',
    },
    {
      label: 'huge header (in-process)',
      path: '',
      headers: { 'x-junk': 'x'.repeat(64 * 1024) },
      expect: 'any',
    },
    {
      label: 'odd accept',
      path: '',
      headers: { accept: 'text/html;q=0.1, */*;q=0' },
      expect: 'any',
    },
  ];
}

function idCases(realId: string): Draft[] {
  return [
    { label: 'a real record, upper case', path: realId.toUpperCase(), expect: 'any' },
    { label: 'no such record', path: RANDOM_UUID, expect: 'refused' },
    { label: 'nil uuid', path: '00000000-0000-0000-0000-000000000000', expect: 'refused' },
    ...[
      'not-a-uuid',
      enc("1' OR '1'='1"),
      '%00',
      '%ZZ',
      'x'.repeat(5000),
      enc(`{${RANDOM_UUID}}`),
      `${RANDOM_UUID}.json`,
      '..%2F..%2Fsettings',
      '%ED%A0%80',
    ].map((id) => ({ label: `id ${id.slice(0, 40)}`, path: id, expect: 'refused' as const })),
  ];
}

function actionCases(realId: string): Draft[] {
  const json = { 'content-type': 'application/json' };
  return [
    ...idCases(realId).slice(1, 6),
    {
      label: 'empty Idempotency-Key',
      path: realId,
      headers: { 'idempotency-key': '' },
      expect: 'refused',
    },
    {
      label: 'Idempotency-Key of 256 characters',
      path: realId,
      headers: { 'idempotency-key': 'k'.repeat(256) },
      expect: 'refused',
    },
    {
      label: 'latin-1 Idempotency-Key',
      path: realId,
      headers: { 'idempotency-key': 'clé-été' },
      expect: 'any',
    },
    {
      label: 'a body nobody asked for',
      path: realId,
      headers: json,
      body: '{"status":"paid"}',
      expect: 'any',
    },
    { label: 'a real record', path: realId, expect: 'any' },
  ];
}

function ifMatchCases(): Draft[] {
  return ['abc', '"-1"', '"9999999999"', '"1", "2"', '', 'W/"x"', '"1'].map((value) => ({
    label: `If-Match ${value}`,
    path: '',
    headers: { 'if-match': value, 'content-type': 'application/json' },
    body: '{}',
    expect: 'refused' as const,
  }));
}

/** Create and patch bodies: one bad field at a time, bad lines, bad documents, content types, encodings. */
function bodyCases(
  resource: Resource,
  { rnd, refs }: FuzzContext,
  base: Record<string, unknown>,
): Draft[] {
  const json = { 'content-type': 'application/json' };
  const cases: Draft[] = [];
  const send = (label: string, body: unknown, expect: FuzzCase['expect'] = 'refused') =>
    cases.push({ label, path: '', headers: json, body: JSON.stringify(body), expect });
  send('the unspoilt body', base, 'ok');
  for (const [name, field] of Object.entries(resource.fields)) {
    // Creations try two bad values a field, patches one: together they cover each field's list.
    const tries = Object.keys(base).length ? 2 : 1;
    for (const bad of Array.from({ length: tries }, () => rnd.pick(badBodyValues(field))))
      send(`${name}: ${String(JSON.stringify(bad)).slice(0, 60)}`, { ...base, [name]: bad });
    if (field.type === 'lines')
      cases.push(...lineCases(name, field, resource, rnd, refs, base, json));
  }
  const required = Object.entries(resource.fields).find(([, f]) => f.required)?.[0];
  if (required && Object.keys(base).length) {
    const { [required]: _, ...rest } = base;
    send(`without ${required}`, rest);
  }
  const typed = cases.length;
  for (const { label, body } of BAD_BODIES)
    cases.push({ label, path: '', headers: json, body, expect: 'refused' });
  const valid = JSON.stringify(base);
  const bytes = (text: string) => new TextEncoder().encode(text);
  const contentTypes: [string | undefined, FuzzCase['expect'], string?][] = [
    [undefined, 'refused'],
    ['text/plain', 'refused'],
    ['multipart/form-data; boundary=x', 'refused'],
    ['application/x-www-form-urlencoded', 'refused'],
    ['application/jsonp', 'refused'],
    ['application/json; charset=utf-16', 'refused', STRICT_DECODING],
    ['application/json; charset=iso-8859-1', 'refused', STRICT_DECODING],
    ['application/json; charset=utf-8', 'any'],
    ['Application/JSON', 'any'],
  ];
  for (const [type, expect, pending] of contentTypes)
    cases.push({
      label: `content type ${type ?? '(none)'}`,
      path: '',
      // Bytes, so fetch adds no text/plain of its own.
      headers: type ? { 'content-type': type } : {},
      body: bytes(valid),
      expect,
      ...(pending ? { pending } : {}),
    });
  const text = Object.entries(resource.fields).find(([, f]) => f.type === 'text')?.[0];
  if (text) {
    const withText = (raw: string) => {
      const [head, tail] = JSON.stringify({ ...base, [text]: 'FUZZ-MARK' }).split(
        '"FUZZ-MARK"',
      ) as [string, string];
      return new Uint8Array([
        ...bytes(`${head}"`),
        ...Buffer.from(raw, 'latin1'),
        ...bytes(`"${tail}`),
      ]);
    };
    const encoded: [string, Uint8Array, string?][] = [
      ['invalid UTF-8 byte in a text field', withText('ab\xffcd'), STRICT_DECODING],
      ['overlong UTF-8 in a text field', withText('\xc0\xaf'), STRICT_DECODING],
      ['UTF-8-encoded lone surrogate in a text field', withText('\xed\xa0\x80'), STRICT_DECODING],
      ['escaped lone surrogate in a text field', withText('\\ud800')],
      ['escaped NUL in a text field', withText('a\\u0000b')],
    ];
    for (const [label, body, pending] of encoded)
      cases.push({
        label,
        path: '',
        headers: json,
        body,
        expect: 'refused',
        ...(pending ? { pending } : {}),
      });
  }
  cases.push({
    label: 'UTF-16 body declared UTF-16',
    path: '',
    headers: { 'content-type': 'application/json; charset=utf-16' },
    body: new Uint8Array(Buffer.from(valid, 'utf16le')),
    expect: 'refused',
  });
  cases.push({
    label: 'over the body limit',
    path: '',
    headers: json,
    body: JSON.stringify({ ...base, pad: 'x'.repeat(1_100_000) }),
    expect: 'refused',
  });
  cases.push({
    label: 'empty Idempotency-Key',
    path: '',
    headers: { ...json, 'idempotency-key': '' },
    body: valid,
    expect: Object.keys(base).length ? 'refused' : 'any',
  });
  cases.push(...shared(cases.splice(typed)));
  return cases;
}

function lineCases(
  name: string,
  field: Extract<Field, { type: 'lines' }>,
  resource: Resource,
  rnd: Prng,
  refs: ReferencePool,
  base: Record<string, unknown>,
  headers: Record<string, string>,
): Draft[] {
  const sample = sampleBody(resource, 1, refs)[name] as Record<string, unknown>[];
  const line = sample[0]!;
  const cases: Draft[] = [];
  const send = (label: string, lines: unknown) =>
    cases.push({
      label: `${name}: ${label}`,
      path: '',
      headers,
      body: JSON.stringify({ ...base, [name]: lines }),
      expect: 'refused',
    });
  for (const [key, spec] of Object.entries(field.fields)) {
    // A well-formed id of another tenant's product is issue 12's defect 2 (another branch).
    const bads = badBodyValues(spec).filter(
      (v) => !(typeof v === 'string' && /^[0-9a-f-]{36}$/.test(v)),
    );
    const bad = rnd.pick(bads);
    send(`${key} ${String(JSON.stringify(bad)).slice(0, 40)}`, [{ ...line, [key]: bad }]);
  }
  send('an unknown line field', [{ ...line, discount: 5 }]);
  send('a line that is null', [line, null]);
  send('totals beyond safe integers', [
    { ...line, quantity: '999999999999', unit_price_cents: 9_007_199_254_740_991 },
  ]);
  send(
    'many lines adding beyond safe integers',
    Array.from({ length: 3 }, () => ({
      ...line,
      quantity: '999999',
      unit_price_cents: 4_503_599_627_370_495,
    })),
  );
  return cases;
}
