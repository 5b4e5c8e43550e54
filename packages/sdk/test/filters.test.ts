import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { eq, gt, gte, ilike, in_, is, like, lt, lte, neq, order } from '../src/index';
import { BASE_URL, mockPortal, testClient } from './server';

const server = mockPortal();

describe('filter helpers', () => {
  it('write every operator of SPEC §6 in PostgREST syntax', () => {
    expect(eq('confirme')).toBe('eq.confirme');
    expect(neq('annule')).toBe('neq.annule');
    expect(gt(100)).toBe('gt.100');
    expect(gte(-1.5)).toBe('gte.-1.5');
    expect(lt(new Date('2026-11-23T10:00:00Z'))).toBe('lt.2026-11-23T10:00:00.000Z');
    expect(lte('2026-11-23')).toBe('lte.2026-11-23');
    expect(like('*acme*')).toBe('like.*acme*');
    expect(ilike('ACME\\*')).toBe('ilike.ACME\\*');
    expect(in_(['brouillon', 'confirme'])).toBe('in.(brouillon,confirme)');
    expect(in_([])).toBe('in.()');
    expect(is(null)).toBe('is.null');
    expect(is(false)).toBe('is.false');
    expect(order('created_at', 'desc')).toBe('created_at.desc');
    expect(order('number')).toBe('number.asc');
  });

  it('leave the value after the operator as it is: the portal splits at the first dot only', () => {
    expect(eq('a.b,c (d) "e" \\f')).toBe('eq.a.b,c (d) "e" \\f');
    expect(eq(true)).toBe('eq.true');
  });

  it('quote list items with reserved characters the way the portal’s parser reads them', () => {
    expect(in_(['a,b', '(x)', 'say "hi"', 'back\\slash', '1.5', '', 'a b', '10:30', 'é'])).toBe(
      'in.("a,b","(x)","say \\"hi\\"","back\\\\slash","1.5","","a b","10:30",é)',
    );
  });
});

describe('filters on the wire', () => {
  it('arrive intact, awkward characters included', async () => {
    let url: URL | undefined;
    server.use(
      http.get(`${BASE_URL}/api/v1/customers`, ({ request }) => {
        url = new URL(request.url);
        return HttpResponse.json({ data: [], next_cursor: null });
      }),
    );
    const awkward = 'R&D = 50% + "x" #1 ?é';
    await testClient().get('/api/v1/customers', {
      query: { name: [eq(awkward), in_([awkward, 'b,c'])], order: order('name', 'desc') },
    });
    expect(url?.searchParams.getAll('name')).toEqual([
      `eq.${awkward}`,
      'in.("R&D = 50% + \\"x\\" #1 ?é","b,c")',
    ]);
    expect(url?.searchParams.get('order')).toBe('name.desc');
    expect(url?.search).not.toContain('+');
  });
});
