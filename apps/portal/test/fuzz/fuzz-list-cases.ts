import { FIELD_TYPES, FILTER_OPERATORS, type Resource } from '@erp/contract';
import {
  b64,
  type Draft,
  enc,
  type FuzzCase,
  type FuzzContext,
  RANDOM_UUID,
  shared,
} from './fuzz-draft';
import { badUrlValues, ODD_URL_VALUES, PROTOTYPE_NAMES } from './fuzz-values';

/** A list's malformed filters (per field type), keys, orders, page sizes and cursors. */
export function listCases(resource: Resource, { rnd }: FuzzContext): Draft[] {
  const cases: Draft[] = [{ label: 'no parameters', path: '', expect: 'ok' }];
  const q = (query: string, expect: FuzzCase['expect'], label = query) =>
    cases.push({ label, path: `?${query}`, expect });
  const fields = Object.entries(resource.allFields);
  const filterable = fields.filter(([, f]) => f.filterable);
  const sortable = fields.filter(([, f]) => f.sortable);
  for (const [name, field] of filterable) {
    const ops = FIELD_TYPES[field.type].operators;
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
  for (const key of ['nope', ...PROTOTYPE_NAMES, '%ZZ', 'a%5Bb%5D', 'tenant_id', '%00'])
    q(`${key}=eq.1`, 'refused');
  q(`${rnd.pick(PROTOTYPE_NAMES)}=1`, 'refused', 'an inherited name without an operator');
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
    `${rnd.pick(PROTOTYPE_NAMES)}.asc`,
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

/** Tenant, credential and odd headers, on any route. */
export function headerCases({ tenantSlug }: FuzzContext): Draft[] {
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

/**
 * `select` and `embed` (list and get): every name alone, unknown and empty names, and, for the
 * export, the format and the list parameters it has no use for.
 */
export function readShapeCases(
  resource: Resource,
  { rnd }: FuzzContext,
  embeds: string[],
): Draft[] {
  const fields = Object.keys(resource.allFields);
  const cases: Draft[] = [
    { label: 'select a field', path: `?select=${rnd.pick(fields)}`, expect: 'ok' },
    { label: 'select every field', path: `?select=${fields.join(',')}`, expect: 'ok' },
    { label: 'select twice', path: `?select=id&select=${rnd.pick(fields)}`, expect: 'ok' },
  ];
  for (const value of [
    'nope',
    '',
    ',',
    `id,${rnd.pick(fields)}x`,
    'ID',
    '*',
    enc('id, number'),
    'x'.repeat(3000),
    rnd.pick(PROTOTYPE_NAMES),
  ])
    cases.push({
      label: `select=${value.slice(0, 30)}`,
      path: `?select=${value}`,
      expect: 'refused',
    });
  if (embeds.length)
    cases.push(
      { label: 'embed a reference', path: `?embed=${rnd.pick(embeds)}`, expect: 'ok' },
      { label: 'embed every reference', path: `?embed=${embeds.join(',')}`, expect: 'ok' },
    );
  for (const value of [
    'nope',
    '',
    'user',
    `${rnd.pick(fields)}_id`,
    'id',
    rnd.pick(PROTOTYPE_NAMES),
  ])
    cases.push({ label: `embed=${value}`, path: `?embed=${value}`, expect: 'refused' });
  return cases;
}

/** What only the export refuses: its format, pages, embeds. */
export function exportCases(): Draft[] {
  return [
    { label: 'no format', path: '', expect: 'refused' },
    { label: 'format xml', path: '?format=xml', expect: 'refused' },
    { label: 'format twice', path: '?format=csv&format=ndjson', expect: 'refused' },
    { label: 'format CSV', path: '?format=CSV', expect: 'refused' },
    { label: 'csv', path: '?format=csv', expect: 'ok' },
    { label: 'a page size', path: '?format=ndjson&page_size=10', expect: 'refused' },
    { label: 'a cursor', path: '?format=ndjson&cursor=abc', expect: 'refused' },
    { label: 'an embed', path: '?format=ndjson&embed=x', expect: 'refused' },
  ];
}
