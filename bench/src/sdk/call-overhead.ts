import type { paths } from '@erp/sdk';
import { createClient as createSdkClient, eq } from '@erp/sdk';
import createFetchClient from 'openapi-fetch';
import { median } from '../lib/stats';

export const CLIENTS = ['bare fetch', 'sdk', 'openapi-fetch'] as const;
export type ClientName = (typeof CLIENTS)[number];

export interface OverheadSettings {
  rounds: number;
  calls: number;
  warmupCalls: number;
}

/** Median µs per call of each client, per round. */
export type RoundMedians = Record<ClientName, number>;

const API_KEY = 'service_live_k7Qm2xYp9a_benchmark';
const PATH = '/api/v1/sales-orders';

/** One call of each kind: the same GET with one filter and a page size, its JSON read. */
function callers(baseUrl: string): Record<ClientName, () => Promise<unknown>> {
  const headers = {
    authorization: `Bearer ${API_KEY}`,
    'x-tenant-id': 'demo',
    accept: 'application/json',
  };
  const sdk = createSdkClient({ baseUrl, apiKey: API_KEY, tenantId: 'demo' });
  const openapiFetch = createFetchClient<paths>({ baseUrl, headers });
  const query = { status: eq('confirme'), page_size: 20 };
  return {
    'bare fetch': async () => {
      const response = await fetch(`${baseUrl}${PATH}?status=eq.confirme&page_size=20`, {
        headers,
      });
      return response.json();
    },
    sdk: async () => {
      const { data, error } = await sdk.get(PATH, { query });
      if (error) throw error;
      return data;
    },
    'openapi-fetch': async () => {
      const { data, error } = await openapiFetch.GET(PATH, { params: { query } });
      if (error) throw new Error(JSON.stringify(error));
      return data;
    },
  };
}

/**
 * Sequential calls to the same local server, the clients taking turns call by call (the
 * first of each turn rotates), so a busy machine slows them alike: each client's median
 * per-call time, per round.
 */
export async function measureCallOverhead(
  baseUrl: string,
  settings: OverheadSettings,
  onRound: (round: number, medians: RoundMedians) => void,
): Promise<RoundMedians[]> {
  const call = callers(baseUrl);
  for (const name of CLIENTS) for (let i = 0; i < settings.warmupCalls; i++) await call[name]();
  const rounds: RoundMedians[] = [];
  for (let round = 0; round < settings.rounds; round++) {
    const times = Object.fromEntries(
      CLIENTS.map((c) => [c, new Float64Array(settings.calls)]),
    ) as Record<ClientName, Float64Array>;
    for (let i = 0; i < settings.calls; i++) {
      for (let k = 0; k < CLIENTS.length; k++) {
        const name = CLIENTS[(i + k) % CLIENTS.length]!;
        const started = performance.now();
        await call[name]();
        times[name][i] = (performance.now() - started) * 1000;
      }
    }
    const medians = Object.fromEntries(
      CLIENTS.map((c) => [c, median(Array.from(times[c]))]),
    ) as RoundMedians;
    rounds.push(medians);
    onRound(round + 1, medians);
  }
  return rounds;
}
