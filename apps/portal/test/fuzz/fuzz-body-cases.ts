import type { Field, Resource } from '@erp/contract';
import { type ReferencePool, sampleBody } from '../../seed';
import { type Draft, type FuzzCase, type FuzzContext, type Prng, shared } from './fuzz-draft';
import { BAD_BODIES, badBodyValues, PROTOTYPE_NAMES } from './fuzz-values';

export function ifMatchCases(): Draft[] {
  return ['abc', '"-1"', '"9999999999"', '"1", "2"', '', 'W/"x"', '"1'].map((value) => ({
    label: `If-Match ${value}`,
    path: '',
    headers: { 'if-match': value, 'content-type': 'application/json' },
    body: '{}',
    expect: 'refused' as const,
  }));
}

/** Create and patch bodies: one bad field at a time, bad lines, bad documents, content types, encodings. */
export function bodyCases(
  resource: Resource,
  { rnd, refs }: FuzzContext,
  base: Record<string, unknown>,
  unspoilt: FuzzCase['expect'] = 'ok',
): Draft[] {
  const json = { 'content-type': 'application/json' };
  const cases: Draft[] = [];
  const send = (label: string, body: unknown, expect: FuzzCase['expect'] = 'refused') =>
    cases.push({ label, path: '', headers: json, body: JSON.stringify(body), expect });
  send('the unspoilt body', base, unspoilt);
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
  // An inherited name as a key (an own property, as JSON.parse makes it): an unknown field.
  const inherited = rnd.pick(PROTOTYPE_NAMES);
  cases.push({
    label: `key ${inherited}`,
    path: '',
    headers: json,
    body: `${JSON.stringify(base).slice(0, -1)}${Object.keys(base).length ? ',' : ''}"${inherited}":{"a":1}}`,
    expect: 'refused',
  });
  const typed = cases.length;
  for (const { label, body } of BAD_BODIES)
    cases.push({ label, path: '', headers: json, body, expect: 'refused' });
  const valid = JSON.stringify(base);
  const bytes = (text: string) => new TextEncoder().encode(text);
  const contentTypes: [string | undefined, FuzzCase['expect']][] = [
    [undefined, 'refused'],
    ['text/plain', 'refused'],
    ['multipart/form-data; boundary=x', 'refused'],
    ['application/x-www-form-urlencoded', 'refused'],
    ['application/jsonp', 'refused'],
    ['application/json; charset=utf-16', 'refused'],
    ['application/json; charset=iso-8859-1', 'refused'],
    ['application/json; charset=utf-8', 'any'],
    ['Application/JSON', 'any'],
  ];
  for (const [type, expect] of contentTypes)
    cases.push({
      label: `content type ${type ?? '(none)'}`,
      path: '',
      // Bytes, so fetch adds no text/plain of its own.
      headers: type ? { 'content-type': type } : {},
      body: bytes(valid),
      expect,
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
    const encoded: [string, Uint8Array][] = [
      ['invalid UTF-8 byte in a text field', withText('ab\xffcd')],
      ['overlong UTF-8 in a text field', withText('\xc0\xaf')],
      ['UTF-8-encoded lone surrogate in a text field', withText('\xed\xa0\x80')],
      ['escaped lone surrogate in a text field', withText('\\ud800')],
      ['escaped NUL in a text field', withText('a\\u0000b')],
    ];
    for (const [label, body] of encoded)
      cases.push({ label, path: '', headers: json, body, expect: 'refused' });
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
    const bad = rnd.pick(badBodyValues(spec));
    send(`${key} ${String(JSON.stringify(bad)).slice(0, 40)}`, [{ ...line, [key]: bad }]);
  }
  send('an unknown line field', [{ ...line, discount: 5 }]);
  send('a line that is null', [line, null]);
  // Only the lines a document's totals are computed from can overflow them.
  if (resource.totalsFrom !== name) return cases;
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
