import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { ApiError, events } from '../src/index';
import { BASE_URL, mockPortal, testClient } from './server';

const server = mockPortal();
const FEED = `${BASE_URL}/api/v1/events`;
const event = (sequence: number) => ({
  id: `e${sequence}`,
  sequence,
  type: 'lead.created',
  created_at: '2026-11-24T10:00:00.000Z',
  tenant_id: 't',
  data: { object: {} },
});

describe('events()', () => {
  it('saves the cursor only once every event of the page was handled, and polls when caught up', async () => {
    const afters: (string | null)[] = [];
    const controller = new AbortController();
    server.use(
      http.get(FEED, ({ request }) => {
        const after = new URL(request.url).searchParams.get('after');
        afters.push(after);
        if (after === '7')
          return HttpResponse.json({
            data: [event(8), event(9)],
            next_cursor: '9',
            has_more: true,
          });
        if (after === '9')
          return HttpResponse.json({ data: [], next_cursor: '12', has_more: false });
        // The poll from 12 happened: stop the loop (a timer here raced the poll on a loaded machine).
        if (after === '12') controller.abort();
        return HttpResponse.json({ data: [], next_cursor: '12', has_more: false });
      }),
    );
    const log: string[] = [];
    for await (const e of events(testClient(), {
      after: 7,
      pollIntervalMs: 1,
      signal: controller.signal,
      onCursor: (cursor) => {
        log.push(`saved ${cursor}`);
      },
    })) {
      log.push(`handled ${e.sequence}`);
    }
    // 12: the page looked past events it skipped; then it polls from there until aborted.
    expect(log).toEqual(['handled 8', 'handled 9', 'saved 9', 'saved 12']);
    expect(afters.slice(0, 3)).toEqual(['7', '9', '12']);
  });

  it('throws the ApiError of a refused cursor; ends quietly when aborted mid-request', async () => {
    server.use(
      http.get(FEED, () =>
        HttpResponse.json(
          {
            code: 'requete_invalide',
            params: { issues: [{ path: 'after', code: 'cursor_expired' }] },
            message: 'x',
          },
          { status: 400 },
        ),
      ),
    );
    await expect(events(testClient(), { after: 1 }).next()).rejects.toBeInstanceOf(ApiError);

    server.use(http.get(FEED, () => new Promise<never>(() => {})));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const seen: unknown[] = [];
    for await (const e of events(testClient(), { signal: controller.signal })) seen.push(e);
    expect(seen).toEqual([]);
  });
});
