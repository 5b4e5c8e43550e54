import { embeddings, type ResourceLookup, type ResourceRoute } from '@erp/contract';
import { sampleBody } from '../../seed';
import { bodyCases, ifMatchCases } from './fuzz-body-cases';
import {
  type Draft,
  enc,
  type FuzzCase,
  type FuzzContext,
  RANDOM_UUID,
  shared,
} from './fuzz-draft';
import { historyCases } from './fuzz-history-cases';
import { exportCases, headerCases, listCases, readShapeCases } from './fuzz-list-cases';

export { type FuzzCase, type FuzzContext, prng } from './fuzz-draft';

/**
 * Cases that do not depend on the resource (unknown keys, page sizes, whole bodies, content
 * types...) go to one route in SHARES of each kind, in turn: every resource's routes still see
 * each of them, in a third of the requests.
 */
const SHARES = 3;
/** Every malformed request of one generated route; `slot` is the resource's place in the catalogue. */
export function casesFor(
  route: ResourceRoute,
  ctx: FuzzContext,
  slot: number,
  registry: ResourceLookup,
): FuzzCase[] {
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
  const embeds = embeddings(route.resource, registry).map((e) => e.name);
  return draftsFor(route, ctx, base, ids, embeds)
    .filter((c) => !c.shared || turn++ % SHARES === slot % SHARES)
    .map(({ shared: _, ...c }) => make(c));
}

function draftsFor(
  route: ResourceRoute,
  ctx: FuzzContext,
  base: string,
  ids: readonly string[],
  embeds: string[],
): Draft[] {
  switch (route.kind) {
    case 'list':
      return [
        ...listCases(route.resource, ctx),
        ...readShapeCases(route.resource, ctx, embeds).map((c) => ({
          ...c,
          shared: c.expect !== 'ok', // the resource's own names always; unknown ones in turn
        })),
        ...shared(headerCases(ctx)),
      ].map((c) => ({
        ...c,
        path: `${base}${c.path}`,
      }));
    case 'export': {
      // The list's cases with a format (the list's parser is the same one: a share of them per
      // export route), and the export's own.
      const format = ctx.rnd.pick(['ndjson', 'csv']);
      const withFormat = (query: string) => `?format=${format}${query ? `&${query.slice(1)}` : ''}`;
      return [
        ...shared(listCases(route.resource, ctx)).map((c) => ({ ...c, path: withFormat(c.path) })),
        ...readShapeCases(route.resource, ctx, [])
          .filter((c) => c.path.startsWith('?select'))
          .map((c) => ({ ...c, shared: c.expect !== 'ok', path: withFormat(c.path) })),
        ...exportCases(),
      ].map((c) => ({ ...c, path: `${base}/export${c.path}` }));
    }
    case 'get':
      return [
        { label: 'a real record', path: `/${ids[0]}`, expect: 'ok' as const },
        ...readShapeCases(route.resource, ctx, embeds).map((c) => ({
          ...c,
          shared: c.expect !== 'ok', // the list tries them all
          path: `/${ids[0]}${c.path}`,
        })),
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
    case 'convert':
      return [...actionCases(ids[1]!), ...conversionBodyCases(ids[1]!)].map((c) => ({
        ...c,
        path: route.route.path.replace('{id}', c.path),
      }));
    case 'create':
      // An allocation's sample names draft documents, or none (SPEC §17: it needs a posted
      // payment and a posted document of one party and currency, which the flow makes): its
      // unspoilt body must be refused as well, a 4xx, and every mutation of it too.
      return bodyCases(
        route.resource,
        ctx,
        sampleBody(route.resource, 7, ctx.refs),
        route.resource.ledgerRole === 'allocation' ? 'refused' : 'ok',
      ).map((c) => ({
        ...c,
        path: base,
      }));
    case 'update':
      return [...bodyCases(route.resource, ctx, {}), ...ifMatchCases()].map((c) => ({
        ...c,
        path: `${base}/${c.path || ids[0]}`,
      }));
    case 'history':
      return historyCases(ids[0]!).map((c) => ({ ...c, path: `${base}${c.path}` }));
  }
}
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
/** A conversion's body (SPEC §18): a part of some lines, each named and with a quantity. */
function conversionBodyCases(realId: string): Draft[] {
  const json = { 'content-type': 'application/json' };
  const line = (quantity: unknown, id: unknown = RANDOM_UUID) =>
    JSON.stringify({ lines: [{ line_id: id, quantity }] });
  return [
    ['no lines', '{"lines":[]}'],
    ['an unknown key', '{"part":true}'],
    ['a line of no such id', line('1')],
    ['a line id that is no uuid', line('1', 'x')],
    ['a negative quantity', line('-1')],
    ['a quantity as a number', line(1)],
    ['a quantity of 7 decimals', line('0.0000001')],
    ['lines not a list', '{"lines":{}}'],
    ['not JSON', '{"lines":['],
  ].map(([label, body]) => ({
    label: label!,
    path: realId,
    headers: json,
    body,
    expect: 'refused' as const,
  }));
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
