import { b64, type Draft, RANDOM_UUID, shared } from './fuzz-draft';

/**
 * A record's history (paths after the list's): ids, then page sizes and forged or foreign
 * cursors, which do not depend on the resource (sent to a share of the routes, see SHARES).
 */
export function historyCases(realId: string): Draft[] {
  const own: Draft[] = [
    { label: 'a real record', path: `/${realId}/history`, expect: 'ok' },
    { label: 'no such record', path: `/${RANDOM_UUID}/history`, expect: 'refused' },
    { label: 'id not-a-uuid', path: '/not-a-uuid/history', expect: 'refused' },
    { label: 'id %00', path: '/%00/history', expect: 'refused' },
    { label: 'HEAD', method: 'HEAD', path: `/${realId}/history`, expect: 'any' },
  ];
  const cases: Draft[] = [];
  const q = (query: string, expect: Draft['expect'], label = query.slice(0, 60)) =>
    cases.push({ label, path: `/${realId}/history?${query}`, expect });
  for (const size of ['0', '-1', '201', 'abc', '1.5', '99999999999999999999'])
    q(`page_size=${size}`, 'refused');
  for (const cursor of [
    [],
    ['history'],
    ['history', 0],
    ['history', -3],
    ['history', 1.5],
    ['history', '2'],
    ['history', 2 ** 31],
    ['history', 1e308],
    ['id.desc', [RANDOM_UUID]],
    { history: 2 },
  ])
    q(`cursor=${b64(cursor)}`, 'refused', `cursor ${JSON.stringify(cursor)}`);
  for (const raw of ['abc', '%%%', 'x'.repeat(5000), Buffer.from('not json').toString('base64')])
    q(`cursor=${raw}`, 'refused', `cursor ${raw.slice(0, 40)}`);
  q(`cursor=${b64(['history', 2_147_483_647])}`, 'ok', 'cursor at the largest version');
  return [...own, ...shared(cases)];
}
