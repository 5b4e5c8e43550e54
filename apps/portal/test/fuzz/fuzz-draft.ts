import type { ReferencePool } from '../../seed';

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
export const RANDOM_UUID = '7d0e2b8c-5f1a-4c3e-9b6d-2a4f8e1c0d93';
export const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
export const enc = encodeURIComponent;

export type Draft = Omit<FuzzCase, 'route' | 'method' | 'headers' | 'path'> & {
  path: string;
  headers?: Record<string, string>;
  method?: string;
  /** Not about this resource: sent to a share of the routes only (see SHARES). */
  shared?: boolean;
};

export const shared = (cases: Draft[]): Draft[] => cases.map((c) => ({ ...c, shared: true }));
