import { useEffect, useState } from 'react';
import { useMe } from '../api/auth';
import { raw } from '../api/client';
import { type Catalogue, canRead, recordLabel } from './catalogue';

// Labels already read, per resource and id: a record's name does not need asking twice.
const known = new Map<string, string>();
const MAX_IDS = 200; // the list's largest page

/** The ids of one referenced resource that a screen shows. */
export interface ReferenceWant {
  target: string;
  ids: readonly unknown[];
}

/**
 * The labels of referenced records (a customer's name, an order's number), read with one list
 * request per target resource (`id=in.(…)`), never one per id. Nothing is asked when the
 * caller cannot read the target's module: those references stay ids.
 */
export function useReferenceLabels(
  catalogue: Catalogue,
  wants: readonly ReferenceWant[],
): (target: string | undefined, id: unknown) => string | undefined {
  const me = useMe();
  const [, setVersion] = useState(0);
  const missing = new Map<string, Set<string>>();
  for (const { target, ids } of wants) {
    const resource = catalogue.byName.get(target);
    if (!resource || !canRead(me, resource.module)) continue;
    for (const id of ids) {
      if (typeof id !== 'string' || !id || known.has(`${target}:${id}`)) continue;
      const set = missing.get(target) ?? new Set<string>();
      if (set.size < MAX_IDS) set.add(id);
      missing.set(target, set);
    }
  }
  const key = [...missing].map(([target, ids]) => `${target}=${[...ids].join(',')}`).join(';');

  useEffect(() => {
    if (!key) return;
    const controller = new AbortController();
    Promise.all(
      [...missing].map(async ([target, ids]) => {
        const resource = catalogue.byName.get(target)!;
        const answer = await raw.get(`/api/v1/${resource.path}`, {
          query: { id: `in.(${[...ids].join(',')})`, page_size: MAX_IDS },
          signal: controller.signal,
        });
        for (const record of (answer.data as { data?: Record<string, unknown>[] } | undefined)
          ?.data ?? []) {
          known.set(`${target}:${String(record.id)}`, recordLabel(resource, record));
        }
      }),
    ).then(() => {
      if (!controller.signal.aborted) setVersion((v) => v + 1);
    });
    return () => controller.abort();
  }, [key]);

  return (target, id) => (target ? known.get(`${target}:${String(id)}`) : undefined);
}

/** Remembers a record's label (after it was read or written), for the pickers and links. */
export function rememberLabel(target: string, id: string, label: string): void {
  known.set(`${target}:${id}`, label);
}
